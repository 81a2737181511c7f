//! HTML parse mode: a table of valid and invalid snippets sent through sendMessage, checked
//! against the text and entities (UTF-16 offsets) or the exact error a bot would get.

use serde_json::{Value, json};

use crate::support::{call, start_unlimited, user};

/// `(input, Ok((text, entities)))` or `(input, Err(description))`.
type Row = (&'static str, Result<(&'static str, Value), &'static str>);

fn table() -> Vec<Row> {
    vec![
        (
            "<b>bold</b> and <i>italic</i>",
            Ok((
                "bold and italic",
                json!([{"type": "bold", "offset": 0, "length": 4}, {"type": "italic", "offset": 9, "length": 6}]),
            )),
        ),
        (
            "<strong>a</strong><em>b</em><u>c</u><ins>d</ins><s>e</s><strike>f</strike><del>g</del>",
            Ok((
                "abcdefg",
                json!([
            {"type": "bold", "offset": 0, "length": 1}, {"type": "italic", "offset": 1, "length": 1},
            {"type": "underline", "offset": 2, "length": 1}, {"type": "underline", "offset": 3, "length": 1},
            {"type": "strikethrough", "offset": 4, "length": 1}, {"type": "strikethrough", "offset": 5, "length": 1},
            {"type": "strikethrough", "offset": 6, "length": 1}]),
            )),
        ),
        (
            "<B>Loud</B>",
            Ok(("Loud", json!([{"type": "bold", "offset": 0, "length": 4}]))),
        ),
        (
            "a &lt; b &amp;&amp; c &gt; d &quot;q&quot; e > f",
            Ok(("a < b && c > d \"q\" e > f", json!([]))),
        ),
        ("&#60;&#x3E;&#128512;", Ok(("<>😀", json!([])))),
        (
            "😀 <b>x</b>",
            Ok(("😀 x", json!([{"type": "bold", "offset": 3, "length": 1}]))),
        ),
        (
            "<a href=\"https://example.com/?a=1&amp;b=2\">link</a>",
            Ok((
                "link",
                json!([{"type": "text_link", "offset": 0, "length": 4, "url": "https://example.com/?a=1&b=2"}]),
            )),
        ),
        (
            "<tg-spoiler>s</tg-spoiler><span class=\"tg-spoiler\">t</span>",
            Ok((
                "st",
                json!([{"type": "spoiler", "offset": 0, "length": 1}, {"type": "spoiler", "offset": 1, "length": 1}]),
            )),
        ),
        (
            "<pre><code class=\"language-rust\">fn main() {}</code></pre>",
            Ok((
                "fn main() {}",
                json!([{"type": "pre", "offset": 0, "length": 12, "language": "rust"}]),
            )),
        ),
        (
            "<code>x = 1</code>",
            Ok(("x = 1", json!([{"type": "code", "offset": 0, "length": 5}]))),
        ),
        (
            "<blockquote>q</blockquote><blockquote expandable>e</blockquote>",
            Ok((
                "qe",
                json!([{"type": "blockquote", "offset": 0, "length": 1}, {"type": "expandable_blockquote", "offset": 1, "length": 1}]),
            )),
        ),
        (
            "<tg-emoji emoji-id=\"5368324170671202286\">👍</tg-emoji>",
            Ok((
                "👍",
                json!([{"type": "custom_emoji", "offset": 0, "length": 2, "custom_emoji_id": "5368324170671202286"}]),
            )),
        ),
        (
            "  <b>padded</b>  ",
            Ok((
                "padded",
                json!([{"type": "bold", "offset": 0, "length": 6}]),
            )),
        ),
        (
            "<b>Reminder</b>: /done",
            Ok((
                "Reminder: /done",
                json!([{"type": "bold", "offset": 0, "length": 8}, {"type": "bot_command", "offset": 10, "length": 5}]),
            )),
        ),
        (
            "<foo>x</foo>",
            Err(
                "Bad Request: can't parse entities: Unsupported start tag \"foo\" at byte offset 0",
            ),
        ),
        (
            "<br>",
            Err("Bad Request: can't parse entities: Unsupported start tag \"br\" at byte offset 0"),
        ),
        (
            "a < b",
            Err("Bad Request: can't parse entities: Unsupported start tag \"\" at byte offset 2"),
        ),
        (
            "2<3",
            Err("Bad Request: can't parse entities: Unclosed start tag at byte offset 1"),
        ),
        (
            "Tom & Jerry",
            Err("Bad Request: can't parse entities: Unescaped \"&\" at byte offset 4: use &amp;"),
        ),
        (
            "&nbsp;",
            Err("Bad Request: can't parse entities: Unescaped \"&\" at byte offset 0: use &amp;"),
        ),
        (
            "<b>x",
            Err(
                "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\"",
            ),
        ),
        (
            "<b><i>x</b></i>",
            Err(
                "Bad Request: can't parse entities: Unmatched end tag at byte offset 7, expected \"</i>\", found \"</b>\"",
            ),
        ),
        (
            "x</b>",
            Err("Bad Request: can't parse entities: Unexpected end tag at byte offset 1"),
        ),
        (
            "<span>x</span>",
            Err(
                "Bad Request: can't parse entities: Tag \"span\" must have class \"tg-spoiler\" at byte offset 0",
            ),
        ),
        (
            "<a href=x&y>l</a>",
            Err("Bad Request: can't parse entities: Unexpected end of name token at byte offset 8"),
        ),
        ("<b></b>", Err("Bad Request: message text is empty")),
    ]
}

#[tokio::test]
async fn html_snippets_parse_like_telegram() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    for (input, expected) in table() {
        let answer = call(
            &sim,
            "sendMessage",
            json!({"chat_id": ann, "text": input, "parse_mode": "HTML"}),
        )
        .await;
        match expected {
            Ok((text, entities)) => {
                assert_eq!(
                    answer.status, 200,
                    "{input:?} should be accepted: {}",
                    answer.text
                );
                assert_eq!(
                    answer.json["result"]["text"],
                    json!(text),
                    "text of {input:?}"
                );
                let got = answer.json["result"]
                    .get("entities")
                    .cloned()
                    .unwrap_or(json!([]));
                assert_eq!(got, entities, "entities of {input:?}");
            }
            Err(description) => {
                assert_eq!(
                    answer.status, 400,
                    "{input:?} should be refused: {}",
                    answer.text
                );
                assert_eq!(answer.description(), description, "error for {input:?}");
            }
        }
    }
}

#[tokio::test]
async fn length_counts_after_parsing_in_utf16_units() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let send = |text: String| {
        call(
            &sim,
            "sendMessage",
            json!({"chat_id": ann, "text": text, "parse_mode": "HTML"}),
        )
    };
    assert_eq!(
        send(format!("<b>{}</b>", "a".repeat(4096))).await.status,
        200,
        "tags do not count"
    );
    assert_eq!(
        send("&amp;".repeat(4096)).await.status,
        200,
        "an entity is one character"
    );
    assert_eq!(
        send("&amp;".repeat(4097)).await.description(),
        "Bad Request: message is too long"
    );
    assert_eq!(
        send("😀".repeat(2049)).await.description(),
        "Bad Request: message is too long",
        "emoji are 2 UTF-16 units"
    );
    assert_eq!(send("😀".repeat(2048)).await.status, 200);
}

//! Files and locations in the simulator: sendDocument as Telegram answers it (an upload through
//! teloxide's multipart, a `file_id` sent again, the errors of a missing or unknown document and
//! of a long caption), the uploaded bytes for tests, reply keyboards as the user sees them, and a
//! location a user shares.

use reqwest::Method;
use serde_json::json;
use teloxide::prelude::*;
use teloxide::types::{
    ButtonRequest, InputFile, KeyboardButton, KeyboardMarkup, KeyboardRemove, ParseMode,
};
use tgsim::{KeyboardButtonView, ReplyKeyboardView, descriptions};

use crate::support::{bot, call, control, start_unlimited, user};

#[tokio::test]
async fn send_document_uploads_a_file_the_user_sees_with_its_caption() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let bytes = b"BEGIN:VCALENDAR\r\n\xd0\x96\x00END:VCALENDAR\r\n".to_vec();
    let sent = bot(&sim)
        .send_document(
            ChatId(ann),
            InputFile::memory(bytes.clone()).file_name("tasks.ics"),
        )
        .caption("<b>2</b> tasks &amp; more")
        .parse_mode(ParseMode::Html)
        .await
        .expect("Telegram takes the upload");
    let document = sent.document().expect("a document message");
    assert_eq!(document.file_name.as_deref(), Some("tasks.ics"));
    assert_eq!(document.file.size, bytes.len() as u32);
    assert_eq!(
        document
            .mime_type
            .as_ref()
            .map(|m| m.essence_str().to_owned()),
        Some("text/calendar".to_owned())
    );
    assert_eq!(sent.caption(), Some("2 tasks & more"));

    let entry = sim.transcript(ann).unwrap().pop().expect("the message");
    assert_eq!(entry.text, None);
    assert_eq!(entry.caption.as_deref(), Some("2 tasks & more"));
    assert_eq!(entry.entities[0].kind, "bold");
    let shown = entry.document.expect("the document");
    let stored = sim.file(&shown.file_id).expect("the file is kept");
    assert_eq!(stored.bytes, bytes, "byte for byte");
    let fetched = reqwest::get(format!("{}/files/{}", sim.control_url(), shown.file_id))
        .await
        .unwrap();
    assert_eq!(fetched.headers()["content-type"], "text/calendar");
    assert_eq!(fetched.bytes().await.unwrap().to_vec(), bytes);

    // A file sent before goes again by its file_id.
    let again = call(
        &sim,
        "sendDocument",
        json!({"chat_id": ann, "document": shown.file_id}),
    )
    .await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(
        again.json["result"]["document"]["file_id"],
        json!(shown.file_id)
    );
    assert_eq!(
        again.json["result"]["document"]["file_size"],
        json!(bytes.len())
    );
}

#[tokio::test]
async fn send_document_errors_are_telegrams() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let cases = [
        (json!({"chat_id": ann}), descriptions::NO_DOCUMENT),
        (
            json!({"chat_id": ann, "document": "no-such-file"}),
            descriptions::WRONG_FILE_ID,
        ),
        (
            json!({"chat_id": ann, "document": "https://example.org/a.pdf"}),
            descriptions::URL_UNREACHABLE,
        ),
        (
            json!({"chat_id": ann, "document": "attach://nothing"}),
            descriptions::NO_DOCUMENT,
        ),
        (json!({"document": "x"}), descriptions::CHAT_ID_EMPTY),
    ];
    for (body, description) in cases {
        let answer = call(&sim, "sendDocument", body.clone()).await;
        assert_eq!(answer.status, 400, "{body}");
        assert_eq!(answer.description(), description, "{body}");
    }
    let upload = bot(&sim)
        .send_document(
            ChatId(ann),
            InputFile::memory(b"x".to_vec()).file_name("a.txt"),
        )
        .await
        .unwrap();
    let file_id = upload.document().unwrap().file.id.clone();
    let long = call(
        &sim,
        "sendDocument",
        json!({"chat_id": ann, "document": file_id, "caption": "x".repeat(1025)}),
    )
    .await;
    assert_eq!(long.description(), descriptions::CAPTION_TOO_LONG);
    let empty = bot(&sim)
        .send_document(
            ChatId(ann),
            InputFile::memory(Vec::new()).file_name("a.txt"),
        )
        .await;
    assert!(
        empty
            .unwrap_err()
            .to_string()
            .contains("file must be non-empty")
    );
    assert_eq!(
        sim.transcript(ann).unwrap().len(),
        1,
        "only the good upload"
    );
}

#[tokio::test]
async fn a_reply_keyboard_is_shown_and_removed_and_a_shared_location_reaches_the_bot() {
    let sim = start_unlimited().await;
    let ann = user(&sim, "Ann");
    let bot = bot(&sim);
    let keyboard = KeyboardMarkup::new([[
        KeyboardButton::new("📍 Share location").request(ButtonRequest::Location)
    ]]);
    bot.send_message(ChatId(ann), "Where are you?")
        .reply_markup(keyboard)
        .await
        .unwrap();
    bot.send_message(ChatId(ann), "Thanks")
        .reply_markup(KeyboardRemove::new())
        .await
        .unwrap();
    let transcript = sim.transcript(ann).unwrap();
    assert_eq!(
        transcript[0].reply_keyboard,
        Some(ReplyKeyboardView::Show {
            rows: vec![vec![KeyboardButtonView {
                text: "📍 Share location".into(),
                request_location: true,
                web_app: None,
            }]]
        })
    );
    assert_eq!(
        transcript[1].reply_keyboard,
        Some(ReplyKeyboardView::Remove)
    );

    let shared = sim.user_shares_location(ann, 41.3111, 69.2797).unwrap();
    assert_eq!(shared.location.unwrap().latitude, 41.3111);
    let via_control = control(
        &sim,
        Method::POST,
        &format!("users/{ann}/locations"),
        Some(json!({"latitude": 39.65, "longitude": 66.96})),
    )
    .await;
    assert_eq!(via_control.status, 200, "{}", via_control.text);
    let updates = bot.get_updates().await.unwrap();
    let locations: Vec<(f64, f64)> = updates
        .iter()
        .filter_map(|u| match &u.kind {
            teloxide::types::UpdateKind::Message(m) => {
                m.location().map(|l| (l.latitude, l.longitude))
            }
            _ => None,
        })
        .collect();
    assert_eq!(locations, [(41.3111, 69.2797), (39.65, 66.96)]);
    let nowhere = control(
        &sim,
        Method::POST,
        &format!("users/{ann}/locations"),
        Some(json!({"latitude": 95.0, "longitude": 0.0})),
    )
    .await;
    assert_eq!(nowhere.status, 409, "{}", nowhere.text);
}

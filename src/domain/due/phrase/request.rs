//! The request to the bot around a time phrase, which is no task text: a greeting ("good
//! morning", "привет"), a courtesy ("please", "can you", "iltimos") and the request itself
//! ("remind me to", "напомни мне", "menga … eslat"), at the message's start, at its end, or
//! opening a sentence inside it.

use super::super::grammar::Lexed;
use super::super::keys::Key;

/// Whether a request to be reminded ("remind me", "напомни") comes right before token `start`,
/// past punctuation.
pub(super) fn asked_right_before(lexed: &Lexed, start: usize) -> bool {
    let mut at = start;
    while at > 0 && (lexed.is_glue(at - 1) || lexed.has(at - 1, Key::Me)) {
        at -= 1;
    }
    at > 0 && lexed.has(at - 1, Key::Remind)
}

/// Past greetings opening the message ("Good morning!", "Привет! Доброе утро.", "Assalomu
/// alaykum, …") and the punctuation after them: they greet the bot and are no part of the task.
/// A greeting followed by a word is the task ("привет маме"), unless the time phrase comes
/// right after it (`phrase_at_end`: "Доброе утро завтра в 3 встреча") or a request to the bot
/// does ("привет напомни завтра…").
pub(super) fn skip_greeting(lexed: &Lexed, start: usize, end: usize, phrase_at_end: bool) -> usize {
    let mut at = start;
    loop {
        let past =
            if at + 1 < end && lexed.has(at, Key::Greeting) && lexed.has(at + 1, Key::Greeted) {
                at + 2
            } else if at < end && lexed.has(at, Key::Hello) {
                at + 1
            } else {
                return start;
            };
        let next = (past..end).find(|&i| !lexed.is_glue(i)).unwrap_or(end);
        let greeting_next =
            next < end && (lexed.has(next, Key::Hello) || lexed.has(next, Key::Greeting));
        if next > past || (next == end && phrase_at_end) || is_request(lexed, next, end) {
            if greeting_next {
                at = next;
                continue;
            }
            return next;
        }
        if !greeting_next {
            return start;
        }
        at = next;
    }
}

/// Whether a request to the bot starts at `at` ("remind", "напомни", "please", "can you",
/// "menga"): a greeting before it greets the bot ("привет напомни…", "hey can you remind me…").
fn is_request(lexed: &Lexed, at: usize, end: usize) -> bool {
    at < end
        && ([Key::Remind, Key::Please, Key::Me]
            .into_iter()
            .any(|key| lexed.has(at, key))
            || skip_courtesy(lexed, at, end) > at)
}

/// Past `please` and `can you` / `could you` / `можешь` around a request to the bot ("please
/// remind me", "напомни пожалуйста", "can you remind me", "можешь напомнить").
fn skip_courtesy(lexed: &Lexed, mut start: usize, end: usize) -> usize {
    loop {
        let word = lexed.token(start).and_then(|t| t.word());
        let next = lexed.token(start + 1).and_then(|t| t.word());
        start = if start < end && lexed.has(start, Key::Please) {
            start + 1
        } else if start + 1 < end
            && matches!(word, Some("can" | "could" | "would"))
            && next == Some("you")
        {
            start + 2
        } else if start + 1 < end
            && matches!(word, Some("можешь" | "можете" | "сможешь"))
            && lexed.has(start + 1, Key::Remind)
        {
            // "можешь напомнить в понедельник оплатить интернет?".
            start + 1
        } else {
            return start;
        };
    }
}

/// Past a leading `[please] remind [me] [to]`, `напомни [пожалуйста] [мне]`, `menga eslat`, or
/// a leading `please`, `iltimos`, starting at `start`.
pub(super) fn skip_request(lexed: &Lexed, mut start: usize, end: usize) -> usize {
    let at = start;
    start = skip_courtesy(lexed, start, end);
    if start < end && lexed.has(start, Key::Me) && !lexed.has(start, Key::Remind) {
        start += 1;
    }
    if start < end && lexed.has(start, Key::Remind) {
        start = skip_courtesy(lexed, start + 1, end);
        if start < end && lexed.has(start, Key::Me) {
            start = skip_courtesy(lexed, start + 1, end);
        }
        if start < end && lexed.token(start).and_then(|t| t.word()) == Some("to") {
            start += 1;
        }
        start
    } else {
        // "iltimos soat 20:00 da gullarga suv quyish", "please call mom at 5": a courtesy that
        // opens the message is no task text either.
        (at..end)
            .find(|&i| !lexed.has(i, Key::Please))
            .unwrap_or(end)
    }
}

/// The text `start..end` without a "remind me to" that opens a sentence inside it ("score was
/// 2-1!! remind me to send highlights"): the words around it, as one or two pieces.
pub(super) fn without_inner_request(
    lexed: &Lexed,
    start: usize,
    end: usize,
) -> Vec<(usize, usize)> {
    let sentence_end = |i: usize| {
        lexed
            .token(i)
            .and_then(|t| t.punct())
            .is_some_and(|p| matches!(p, '.' | '!' | '?'))
    };
    // Only "remind me to …": "Remind them to submit" is the task, and "Remind me at 6pm about
    // the bills" has no task words of its own after the request.
    let asked_to = |past: usize| {
        past > 0 && past < end && lexed.token(past - 1).and_then(|t| t.word()) == Some("to")
    };
    let inner = (start + 1..end)
        .filter(|&i| sentence_end(i - 1) && lexed.has(i, Key::Remind) && lexed.has(i + 1, Key::Me))
        .find_map(|i| {
            let past = skip_request(lexed, i, end);
            asked_to(past).then_some((i, past))
        });
    match inner {
        Some((request, past)) => vec![(start, request), (past, end)],
        None => vec![(start, end)],
    }
}

/// Words that only address the bot around a request ("ok so remind me", "hey so can you remind
/// me", "слушай, напомни"): no part of a task.
const ADDRESSING: &[&str] = &[
    "ok",
    "okay",
    "so",
    "hey",
    "hi",
    "um",
    "well",
    "alright",
    "yo",
    "pls",
    "can",
    "could",
    "you",
    "слушай",
    "так",
    "короче",
    "ну",
];

/// The pieces of text around a time phrase without a request to be reminded that names the task
/// after the phrase: one that ends a piece before a piece opening with "to" ("ok so remind me |
/// tomorrow around 10 | to send greg the invoice"), or one that opens a piece with "remind me
/// to" or Uzbek "eslatib qo'ying" ("… | next saturday at 6 | remind me to book the pitch",
/// "menga | shanba kuni soat 11 larda | eslatib qo'ying onamga dori olib borish"). Pieces before
/// it that only address the bot go too ("ok so", "menga"); any other words stay ("call John and
/// remind me tomorrow at 10 to send the invoice" keeps "call John and").
pub(super) fn task_after_request(lexed: &Lexed, pieces: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let word = |i: usize| lexed.token(i).and_then(|t| t.word());
    let first_word = |(start, end): (usize, usize)| (start..end).find(|&i| !lexed.is_glue(i));
    let addressing = |i: usize| {
        lexed.is_glue(i)
            || [Key::Me, Key::Remind, Key::Please, Key::Hello]
                .into_iter()
                .any(|key| lexed.has(i, key))
            || word(i).is_some_and(|w| ADDRESSING.contains(&w))
    };
    // The pieces before `k` with `cut` taken off the last one's end, without those that only
    // address the bot.
    let kept_before = |k: usize, cut: Option<usize>| -> Vec<(usize, usize)> {
        let mut kept: Vec<(usize, usize)> = pieces[..k].to_vec();
        if let (Some(cut), Some(last)) = (cut, kept.last_mut()) {
            last.1 = cut;
        }
        kept.retain(|&(start, end)| !(start..end).all(addressing));
        kept
    };
    for k in 0..pieces.len() {
        let after = pieces[k];
        let Some(opening) = first_word(after) else {
            continue;
        };
        // "… remind me | tomorrow at 10 | to send …".
        let before = if k > 0 { pieces[k - 1] } else { (0, 0) };
        let request = (before.0..before.1)
            .filter(|&i| lexed.has(i, Key::Remind))
            .find(|&i| skip_request(lexed, i, before.1) == before.1);
        if let Some(request) = request
            && word(opening) == Some("to")
        {
            let mut rest = kept_before(k, Some(request));
            rest.push((opening + 1, after.1));
            rest.extend_from_slice(&pieces[k + 1..]);
            return rest;
        }
        // "… | next saturday at 6 | remind me to book the pitch", "menga | shanba kuni soat 11
        // larda | eslatib qo'ying onamga dorilarni olib borish".
        let past = skip_request(lexed, opening, after.1);
        let uzbek = word(opening).is_some_and(|w| w.starts_with("eslat") || w.starts_with("эслат"));
        let asked_to = lexed.has(opening, Key::Remind)
            && past > opening + 1
            && past < after.1
            && (word(past - 1) == Some("to") || uzbek);
        if asked_to {
            let mut rest = kept_before(k, None);
            rest.push((past, after.1));
            rest.extend_from_slice(&pieces[k + 1..]);
            return rest;
        }
    }
    pieces.to_vec()
}

/// Before a trailing `remind [me]`, and the Uzbek `haqida` ("about") before it: "vebinar
/// haqida eslat" is about the webinar.
pub(super) fn drop_trailing_request(lexed: &Lexed, start: usize, mut end: usize) -> usize {
    // "ariza topshirish kerak": Uzbek "need to" after a verbal noun closing the task is no part
    // of it ("ertaga pul kerak", money is needed, keeps it).
    let word = |i: usize| lexed.token(i).and_then(|t| t.word());
    if end > start + 1
        && matches!(word(end - 1), Some("kerak" | "керак"))
        && word(end - 2).is_some_and(|w| w.ends_with("sh") || w.ends_with('ш'))
    {
        end -= 1;
    }
    // "… on wednesday at 9? thanks", "…, спасибо", "… at 10 pls": thanks or a courtesy after
    // punctuation, "pls" and the question mark closing the message are no part of the task
    // ("tomorrow at 5 say thanks", "сказать учителю спасибо" and, after a colon, "reply to anna:
    // thanks" keep theirs).
    let punct = |i: usize| {
        lexed
            .token(i)
            .and_then(|t| t.punct())
            .is_some_and(|p| matches!(p, ',' | '?' | '!' | '.'))
    };
    loop {
        let courtesy = end > start + 1
            && (lexed.has(end - 1, Key::Please)
                || matches!(
                    word(end - 1),
                    Some("thanks" | "thx" | "спасибо" | "спс" | "rahmat" | "рахмат")
                ))
            && punct(end - 2);
        if courtesy {
            end -= 2;
        } else if end > start
            && (word(end - 1) == Some("pls")
                || lexed.token(end - 1).and_then(|t| t.punct()) == Some('?'))
        {
            end -= 1;
        } else {
            break;
        }
    }
    let before = end;
    if end > start
        && lexed.has(end - 1, Key::Me)
        && end - start >= 2
        && lexed.has(end - 2, Key::Remind)
    {
        end -= 2;
    } else if end > start && lexed.has(end - 1, Key::Remind) {
        end -= 1;
    }
    if end < before && end > start + 1 && lexed.has(end - 1, Key::About) {
        end -= 1;
    }
    end
}

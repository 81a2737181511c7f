//! Times of day ("9", "9:30", "9am", "21.00", "в 9 часов", "soat 9 da", "at five", "в пять",
//! "soat beshda", "noon", "yarim tunda", "around 5", "часов в 5"), spoken times ("half past five", "quarter to six",
//! "полшестого", "без пятнадцати шесть", "beshdan o'n besh daqiqa o'tganda", "besh yarimda")
//! and parts of the day ("in the evening", "вечером", "kechqurun", "в обед", "this morning").

use crate::domain::lang::Lang;
use crate::domain::script::is_cyrillic;

use super::super::keys::{Key, Period, Unit};
use super::number::{Case, count, number_word};
use super::{Clock, Context, Cursor, DayRef, Item, PeriodWord, period_key, unit_key};

/// `[at|в|soat|@] H[:MM|.MM] [o'clock|часов [MM минут]] [am|pm|a.m.] [da]`, an hour in words
/// ("at five", "в пять", "soat beshda", "besh yarimda"), or noon/midnight.
///
/// `H:MM` (and `H.MM`) is a 24-hour time: "7:00" is 07:00 and "10:00" 10:00, never 22:00.
/// A bare number is taken as an hour only with some cue: a marker before
/// it, minutes, an hour word, am/pm, a part of the day right after an hour 1–12 that does not
/// count it ("на 3 дня", "for 1 night": see [`counts`]), or
/// a day or part of the day just before it ("завтра 9", "kechqurun 9"). An hour in words
/// needs a cue of its own (a day before it is not enough: "tomorrow one thing").
pub(super) fn time(c: &mut Cursor<'_>, context: Context) -> Option<Item> {
    // "around 5", "примерно в 5", "taxminan soat 5 da", "ровно в 9", and "часов в 5" (Russian
    // puts the hour word first to say "about"): the time as said.
    let approx = approximately(c)
        || c.eat(Key::Sharp)
        || c.attempt(|c| (c.eat(Key::HourWord) && c.has_at(c.pos(), Key::At)).then_some(()))
            .is_some();
    // "tomorrow about 10": "about" before a number is about when only after a day ("remind me
    // about 5 things" counts).
    let about = !approx && context.has_day && c.attempt(about_number).is_some();
    let at = c.eat(Key::At) || c.eat(Key::By) || c.eat_punct('@');
    // "at like 3:15", "at around 7pm": a filler between the marker and a time that is plainly
    // one ("look at like 3 apartments" counts).
    if at {
        c.attempt(|c| {
            let filler = c.eat_word("like") || c.eat(Key::Approx) || c.eat(Key::About);
            (filler && plainly_a_time_follows(c)).then_some(())
        });
    }
    // "сегодня до 18 отправить", "в пятницу после 19": by or from an hour, after a day, before a
    // verb or the phrase's end ("завтра до 5 человек", "сегодня до 20 страниц", "завтра после 5
    // подходов" count). Without a day, only Russian's hour of the afternoon or evening ("после 19
    // в пятницу", "после 7 вечера"; "до 5 раз" counts, English "call after 20" is no time), and
    // only where a deadline is said: opening the message, after a request or a verb ("до 18
    // сдать отчёт", "позвонить после 19"; "аптека до 21", "банк работает до 18" are opening
    // hours).
    let by_hour = |c: &mut Cursor<'_>| {
        let before = c.pos().checked_sub(1);
        let said_as_deadline = before.is_none_or(|at| {
            c.has_at(at, Key::Remind)
                || c.has_at(at, Key::Me)
                || c.word_at(at).is_some_and(is_infinitive)
        });
        let russian = said_as_deadline && matches!(c.word_at(c.pos()), Some("после" | "до"));
        let by = c.eat(Key::Until) || c.eat(Key::AfterPrep);
        let mut ahead = c.clone();
        let hour = ahead.eat_number().filter(|(_, digits)| *digits <= 2);
        // "до 20-го числа", "после 15-го": a day of the month.
        let dated = ahead.has_punct_at(ahead.pos(), '-')
            || matches!(ahead.word_at(ahead.pos()), Some("числа" | "го"))
            || ahead.is_at(ahead.pos(), |k| matches!(k, Key::Month(_)).then_some(()));
        let with_period = ahead.peek_pick(period_key);
        let afternoon =
            !dated && (with_period || hour.is_some_and(|(hour, _)| (13..=23).contains(&hour)));
        (by && hour.is_some() && (context.has_day || (russian && afternoon))).then_some(())
    };
    let by = !at && c.attempt(by_hour).is_some();
    let marked = at || approx || about;
    // "на завтра на 10", "будильник завтра на 6": "на" after a day marks a time that ends the
    // phrase ("на 4 человека" stays a count).
    let on_a_day = !marked && context.has_day && c.eat(Key::On);
    let number = c.pos();
    // Uzbek "tush payti(da)" ("(at) noon time"); "tush" alone is also a dream.
    let noon_time = |c: &mut Cursor<'_>| {
        let tush = c.eat_word("tush") || c.eat_word("туш");
        let time = c.eat_word("payti")
            || c.eat_word("paytida")
            || c.eat_word("пайти")
            || c.eat_word("пайтида");
        (tush && time).then_some(())
    };
    if c.eat(Key::Noon) || c.attempt(noon_time).is_some() {
        return Some(Item::Time(Clock {
            exact: true,
            ..Clock::at(12, 0)
        }));
    }
    if c.eat(Key::Midnight) || c.attempt(half_night).is_some() {
        return Some(Item::Time(Clock {
            exact: true,
            midnight: true,
            ..Clock::at(0, 0)
        }));
    }
    if let Some((hour, minute)) = c.attempt(|c| four_digits(c, marked)) {
        c.eat(Key::Da);
        return Some(Item::Time(Clock {
            exact: true,
            ..Clock::at(hour, minute)
        }));
    }
    let (hour, digits, case) = match c.eat_number().filter(|(_, digits)| *digits <= 2) {
        Some((hour, digits)) => (hour, digits, Case::Plain),
        None => {
            let (hour, case) = number_word(c)?;
            (u64::from(hour), 0, case)
        }
    };
    if matches!(case, Case::From | Case::To) {
        return None;
    }
    let in_words = digits == 0;
    // "12 noon", "12 midnight".
    if hour == 12 && !in_words {
        if c.eat(Key::Noon) {
            return Some(Item::Time(Clock {
                exact: true,
                ..Clock::at(12, 0)
            }));
        }
        if c.eat(Key::Midnight) {
            return Some(Item::Time(Clock {
                exact: true,
                midnight: true,
                ..Clock::at(0, 0)
            }));
        }
    }
    // "besh yarimda", "soat 10 yarimda", "в 3 с половиной": half past, after words or digits.
    let half = c.attempt(|c| {
        if c.eat(Key::HalfAt) || c.eat_all(&[Key::Half, Key::Da]) {
            return Some(30);
        }
        // "в 2 с половиной раза больше", "2 с половиной часа", "в 9 с половиной группы" (with
        // half the group): no half past; it ends the phrase, or a verb or a time word follows.
        let said = marked && c.eat_all_words(&["с", "половиной"]);
        let counted = c.has_at(c.pos(), Key::Times) || c.is_at(c.pos(), unit_key);
        let ends =
            c.ends_phrase() || c.at_message_end() || before_infinitive(c) || c.is_at(c.pos(), Some);
        (said && !counted && ends).then_some(30)
    });
    // "10:00", "7.30", "10-30": a clock's face, read on the 24-hour clock as everywhere the bot
    // is used.
    let face = (!in_words && half.is_none())
        .then(|| c.attempt(face_minutes))
        .flatten();
    // "обновить 1С до 8.3.24", "v2.1.3": the later parts of a dotted version are no time.
    if c.continues_a_dotted_number(number) {
        return None;
    }
    // "pay electric bill 84.50", "19.99": a dotted number past any hour or minute is a price,
    // no time.
    if face.is_some_and(|minute| hour > 24 || minute > 59) && c.has_punct_at(number + 1, '.') {
        return None;
    }
    // "1:1 with boss", "the bet 3:2": a number joined by a colon to one that makes no clock's
    // face is no hour ("в 10: созвон" still is).
    if face.is_none() && !in_words {
        let mut ahead = c.clone();
        if ahead.eat_adjacent_punct(':') && ahead.eat_adjacent_number().is_some() {
            return None;
        }
    }
    // "в 10.30ч": an hour word after a clock's face changes nothing.
    if face.is_some() {
        c.eat(Key::HourWord);
    }
    let clock_face = face.is_some();
    let mut minute = face
        .or(half)
        .or_else(|| in_words.then(|| c.attempt(minutes_in_words)).flatten());
    // "at 9 30", "в 9 30": minutes after a marked hour, typed with a space for the colon; and
    // after a day, before am/pm ("this fri 5 30 pm"; "room 12 10 am" is room 12 at 10).
    if minute.is_none() && !in_words {
        let before_meridiem = context.has_day && (1..=12).contains(&hour);
        minute = c.attempt(|c| {
            let minute = spaced_minutes(c)?;
            (marked || (before_meridiem && meridiem(&mut c.clone()).is_some())).then_some(minute)
        });
    }
    let hour_word = minute.is_none() && (c.eat(Key::HourWord) || c.eat_all_words(&["o", "clock"]));
    if hour_word {
        // "10 ч 30 мин", and "10ч30" with the minutes joined on.
        minute = c.attempt(|c| {
            let (m, _) = c.eat_number().filter(|(_, digits)| *digits <= 2)?;
            c.eat(Key::Unit(Unit::Minute)).then_some(m)
        });
        minute = minute.or_else(|| {
            c.attempt(|c| {
                c.eat_adjacent_number()
                    .filter(|(m, digits)| *digits == 2 && *m < 60)
            })
            .map(|(m, _)| m)
        });
    }
    let meridiem = meridiem(c);
    c.eat(Key::Sharp);
    // "tonight 8ish": about then.
    let ish = c.eat_adjacent_word("ish");
    // "в 2 раза больше", "at 3 times the price", "завтра 3 дня подряд", and without a marker
    // "завтра 10 штук", "ertaga 3 ta non": a count, no hour ("at 9 pills" is a time).
    let bare = minute.is_none() && !hour_word && meridiem.is_none();
    let times = |k: Key| (k == Key::Times).then_some(());
    let measure = |k: Key| (k == Key::Measure).then_some(());
    // "ertaga 5 dan ortiq odam": more than five, a comparison, no hour.
    let compared = matches!(c.word_at(c.pos()), Some("dan" | "дан"))
        && matches!(
            c.word_at(c.pos() + 1),
            Some("ortiq" | "ko'p" | "kam" | "ошиқ" | "ортиқ" | "кўп" | "кам")
        );
    if bare
        && (compared
            || c.peek_pick(times)
            || (!at && c.peek_pick(measure))
            || (!at && counts_a_noun(c, hour))
            || (c.peek_pick(period_key) && counts(c, number, c.pos())))
    {
        return None;
    }
    // A number past any hour, unmarked and without minutes, is no time ("+998 … 67 ga", not
    // "at 45", an error, or "25:00"); nor is one joined to a word by a dash ("12-bobni",
    // "45-avtobus": chapter 12, bus 45).
    if !marked && minute.is_none() && (hour > 24 || c.attempt(dashed_word).is_some()) {
        return None;
    }
    // Uzbek "soat 22 dan boshlab": from that hour on, where a repeat starts ("soat 9 dan 18
    // gacha" is a range, read before; "5 dan ortiq" without "soat" counts).
    let from_hour = c
        .attempt(|c| {
            let from = c.eat_word("dan") || c.eat_word("дан");
            let started = c.eat_word("boshlab") || c.eat_word("бошлаб");
            (marked && from && (started || !c.peek_number())).then_some(())
        })
        .is_some();
    // Uzbek "soat 18 gacha", "by 18:00", is a deadline at that time. The dative "ga" alone
    // after a number is "to" a place ("kvartira 12 ga"), a time only after "soat" or a day.
    let dative = matches!(c.word_at(c.pos()), Some("ga" | "га"));
    let located = from_hour
        || (c.eat(Key::Da) && (!dative || marked || context.bare_hour))
        || c.eat(Key::UntilSuffix)
        || case == Case::At;
    let cued = marked
        || ish
        || minute.is_some()
        || hour_word
        || meridiem.is_some()
        || located
        || (context.bare_hour && !in_words && !on_a_day)
        || (on_a_day && c.ends_phrase())
        || by
        || (c.peek_pick(period_key) && (1..=12).contains(&hour));
    // "в пятницу после 7 вечера": the hour's part of the day may follow, or a day ("после 19 в
    // пятницу").
    if by && !(c.ends_phrase() || before_infinitive(c) || c.peek_pick(period_key) || day_follows(c))
    {
        return None;
    }
    let small = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    // English writes the afternoon on a 12-hour face: "at 4:30" is either side of noon, as "at
    // 4" is, where Russian and Uzbek "в 4:30", "soat 4:30 da" are 04:30. From 6:00 on, the
    // face is as likely the morning's ("gym 6:30") and stays as written.
    let twelve_hour_face =
        clock_face && digits == 1 && (1..=5).contains(&hour) && c.hint() == Lang::En;
    let exact = (digits == 2 && hour < 10) || (clock_face && !twelve_hour_face);
    cued.then(|| {
        Item::Time(Clock {
            meridiem,
            exact,
            ..Clock::at(small(hour), small(minute.unwrap_or(0)))
        })
    })
}

/// Whether the word at the cursor is a noun that `number` counts, by its ending: an English
/// plural ("tomorrow 3 eggs", "tonight 2 episodes"); in Russian the genitive a number asks for,
/// singular after 2–4 ("вечером 2 серии", "в понедельник 3 отчета") and plural after 5 or more
/// ("5 отчетов", "5 таблеток"); an Uzbek "-lik" ("5 kishilik stol"). A word with a time meaning
/// is none, and neither is a Russian verb ("завтра 3 забери детей" is at 3). A nominative with
/// the genitive's ending counts too ("завтра 3 встреча" is read as "3 урока" is).
fn counts_a_noun(c: &Cursor<'_>, number: u64) -> bool {
    let Some(word) = c.word_at(c.pos()).filter(|_| !c.is_at(c.pos(), Some)) else {
        return false;
    };
    let ends = |endings: &[&str]| endings.iter().any(|end| word.ends_with(end));
    if ends(&["lik", "лик"]) {
        return true;
    }
    if word.chars().any(is_cyrillic) {
        let few = matches!(number % 10, 2..=4) && !matches!(number % 100, 12..=14);
        (few && ends(&["а", "я", "ы", "ии", "ки", "чи"]))
            || (number >= 5 && ends(&["ов", "ев", "ок", "ей"]))
    } else {
        word.chars().count() >= 3 && word.ends_with('s') && !ends(&["ss", "us", "is", "'s"])
    }
}

/// Whether a day comes next, perhaps after "в" or "on" ("в пятницу", "завтра"); nothing is
/// consumed.
fn day_follows(c: &Cursor<'_>) -> bool {
    let mut ahead = c.clone();
    let _ = ahead.eat(Key::At) || ahead.eat(Key::On);
    let day = |k: Key| {
        let named = matches!(k, Key::Today | Key::Tomorrow | Key::DayAfterTomorrow);
        (named || super::calendar::weekday_key(k).is_some()).then_some(())
    };
    ahead.peek_pick(day)
}

/// Whether the word at the cursor is a Russian verb in the infinitive ("отправить", "забрать",
/// "испечь"), which an hour may stand before.
pub(super) fn before_infinitive(c: &Cursor<'_>) -> bool {
    c.word_at(c.pos()).is_some_and(is_infinitive)
}

/// Whether a word is a Russian verb in the infinitive ("отправить", "забрать", "испечь").
pub(in crate::domain::due) fn is_infinitive(word: &str) -> bool {
    word.chars().any(is_cyrillic) && ["ть", "ти", "чь"].iter().any(|e| word.ends_with(e))
}

/// A time as four digits, `HHMM`, after a marker or with a leading zero: "at 1530", "0930",
/// "soat 1030 da" (a bare "1234" stays a number: a flight, a year).
fn four_digits(c: &mut Cursor<'_>, marked: bool) -> Option<(u32, u32)> {
    let (value, _) = c.eat_number().filter(|(_, digits)| *digits == 4)?;
    let (hour, minute) = (
        u32::try_from(value / 100).ok()?,
        u32::try_from(value % 100).ok()?,
    );
    (hour < 24 && minute < 60 && (marked || hour < 10)).then_some((hour, minute))
}

/// A dash and a word of no time meaning right after a number: "12-bobni", "5-sinf".
fn dashed_word(c: &mut Cursor<'_>) -> Option<()> {
    (c.eat_adjacent_punct('-') && c.eat_plain_word()).then_some(())
}

/// English `about` right before a number.
fn about_number(c: &mut Cursor<'_>) -> Option<()> {
    (c.eat_word("about") && c.peek_number()).then_some(())
}

/// The minutes of a clock's face: `:MM` or `.MM` ("10:30", "7.05"), or `-MM` when it cannot be
/// the end of a range of hours ("10-30", "9-00"; "10-12" is no time).
pub(super) fn face_minutes(c: &mut Cursor<'_>) -> Option<u64> {
    let dash = if c.eat_adjacent_punct(':') || c.eat_adjacent_punct('.') {
        false
    } else if c.eat_adjacent_punct('-') {
        true
    } else {
        return None;
    };
    let (minute, _) = c.eat_adjacent_number().filter(|(_, digits)| *digits == 2)?;
    (!dash || minute == 0 || (24..=59).contains(&minute)).then_some(minute)
}

/// Minutes in words after an hour in words: "ten thirty", "десять тридцать", "nine fifteen".
fn minutes_in_words(c: &mut Cursor<'_>) -> Option<u64> {
    let (minute, case) = number_word(c)?;
    (case == Case::Plain && (10..=59).contains(&minute)).then_some(u64::from(minute))
}

/// Minutes typed after an hour with a space for the colon ("at 9 30", "в 9 30", "soat 9 30
/// da"): two digits up to 59 that count nothing ("at 9 30 minutes", "в 10 15 числа", "в 9 30
/// марта" are no minutes).
fn spaced_minutes(c: &mut Cursor<'_>) -> Option<u64> {
    let (minute, digits) = c.eat_number()?;
    let counted = c.peek_pick(|k| {
        matches!(
            k,
            Key::Unit(_)
                | Key::UnitFrom(_)
                | Key::Month(_)
                | Key::HourWord
                | Key::DateNoun
                | Key::OrdinalSuffix
                | Key::Times
        )
        .then_some(())
    });
    (digits == 2 && minute <= 59 && !counted && c.at_word_end()).then_some(minute)
}

/// Whether the number at `number` counts the word at `noun` rather than being an hour: after
/// "for" ("for 1 night", "for 2 days"), or before "дня" without "в" before it ("на 3 дня", "3
/// дня подряд": days). So the part of the day there is no cue that the number is an hour; "в 3
/// дня", "на 5 вечера", "на 9 утра" and "at 9 tonight" are.
fn counts(c: &Cursor<'_>, number: usize, noun: usize) -> bool {
    let before = number.checked_sub(1);
    let after_for = before.is_some_and(|b| c.word_at(b) == Some("for"));
    let after_at = before.is_some_and(|b| c.has_at(b, Key::At));
    after_for || (!after_at && c.word_at(noun) == Some("дня"))
}

/// Whether the word at `pos` is counted by the number before it ([`counts`]): days and nights,
/// not a part of the day.
fn counted_noun(c: &Cursor<'_>, pos: usize) -> bool {
    pos.checked_sub(1)
        .is_some_and(|number| c.is_number_at(number) && counts(c, number, pos))
}

/// Uzbek "yarim tunda", "yarim kechada": midnight.
fn half_night(c: &mut Cursor<'_>) -> Option<()> {
    (c.eat(Key::Half) && c.eat_pick(period_key) == Some(Period::Night)).then_some(())
}

/// Whether a clock's face, an hour with am/pm or one with its part of the day comes next
/// ("3:15", "7pm", "7 pm", "4 in the afternoon"); nothing is consumed.
fn plainly_a_time_follows(c: &Cursor<'_>) -> bool {
    let mut ahead = c.clone();
    if ahead.eat_number().is_none() {
        return false;
    }
    if ahead.eat_adjacent_punct(':') || meridiem(&mut ahead).is_some() {
        return true;
    }
    // "at about 4 in the afternoon".
    if ahead.eat(Key::In) {
        ahead.eat(Key::The);
    }
    ahead.peek_pick(period_key)
}

/// "around", "около", "где-то" before a time: about when, which is the time as said.
fn approximately(c: &mut Cursor<'_>) -> bool {
    c.eat(Key::Approx)
        || c.attempt(|c| {
            (c.eat_word("где") && c.eat_adjacent_punct('-') && c.eat_adjacent_word("то"))
                .then_some(())
        })
        .is_some()
}

/// `[about] [at|в|soat] SPOKEN [am|pm] [da]`: a time said in words around an hour, in any of
/// the three languages.
pub(super) fn spoken_time(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    approximately(c);
    if c.eat(Key::At) || c.eat(Key::By) || c.eat_punct('@') {
        // "at like half ten".
        c.eat_word("like");
    }
    let (hour, minute) = c
        .attempt(english)
        .or_else(|| c.attempt(russian_half))
        .or_else(|| c.attempt(russian_without))
        .or_else(|| c.attempt(uzbek))?;
    let meridiem = meridiem(c);
    c.eat(Key::Da);
    Some(Item::Time(Clock {
        meridiem,
        ..Clock::at(hour, minute)
    }))
}

/// "half past five", "quarter past 5", "a quarter to six", "10 past 5", "twenty to six", and
/// British "half 6", "half ten" (half past).
fn english(c: &mut Cursor<'_>) -> Option<(u32, u32)> {
    if let Some(hour) = c.attempt(|c| {
        let marked = c.pos() > 0 && c.has_at(c.pos() - 1, Key::At);
        let opens_message = c.pos() == 0;
        c.eat_word("half").then_some(())?;
        let hour = hour_number(c)?;
        let unit_next = c.is_at(c.pos(), |k| {
            matches!(k, Key::Unit(_) | Key::Measure).then_some(())
        });
        // "buy half 2 kg of flour", "a half 6 pack": a count, no time; "half 6 pick up Ella"
        // opening a message is a time.
        let counted = c.is_at(c.pos(), |k| {
            matches!(k, Key::Unit(_) | Key::Measure).then_some(())
        }) || (c.word_at(c.pos()).is_some() && !c.is_at(c.pos(), Some));
        (marked || (opens_message && !unit_next) || c.ends_phrase() || !counted).then_some(hour)
    }) {
        return Some((hour, 30));
    }
    if let Some(time) = c.attempt(minutes_to_in_digits) {
        return Some(time);
    }
    let minutes = spoken_minutes(c)?;
    if c.eat(Key::Past) {
        return Some((hour_number(c)?, minutes));
    }
    c.eat(Key::To).then_some(())?;
    before(hour_number(c)?, minutes)
}

/// Whether a time just read ends where the cursor is: at the message's or a clause's end, or
/// before a day or a part of the day ("at 10 to 5 tomorrow"), not before a noun it counts ("at
/// 10 to 5 clients", "at 10 to 4 year 6 classes").
pub(super) fn closes_a_time(c: &Cursor<'_>) -> bool {
    (c.word_at(c.pos()).is_none() && !c.is_number_at(c.pos()))
        || c.is_at(c.pos(), |k| {
            (k.names_a_day() || matches!(k, Key::Period(_) | Key::Meridiem(_))).then_some(())
        })
}

/// "at 10 to 5", "at 20 to 6": minutes to an hour in digits after "at", when the minutes are as
/// people say them (5, 10, 20, 25) and more than the hour, so that no span of hours is meant
/// ("at 5 to 6", "at 10 to 12" are left to the span).
fn minutes_to_in_digits(c: &mut Cursor<'_>) -> Option<(u32, u32)> {
    let marked = c.pos() > 0 && c.has_at(c.pos() - 1, Key::At);
    let (minutes, _) = c
        .eat_number()
        .filter(|(minutes, digits)| *digits <= 2 && matches!(minutes, 5 | 10 | 20 | 25))?;
    c.eat(Key::To).then_some(())?;
    let hour = hour_number(c)?;
    let minutes = u32::try_from(minutes).ok()?;
    // "send the survey at 10 to 5 clients": whom it goes to, not minutes to five.
    (marked && minutes > hour && closes_a_time(c)).then_some(())?;
    before(hour, minutes)
}

/// "полшестого", "в половине шестого", "в четверть шестого" (the hour is the one it is in).
fn russian_half(c: &mut Cursor<'_>) -> Option<(u32, u32)> {
    if let Some(hour) = c.eat_pick(|k| match k {
        Key::HalfBefore(n) => Some(n),
        _ => None,
    }) {
        return before(hour, 30);
    }
    let minutes = if c.eat(Key::HalfOf) {
        c.eat_adjacent_punct('-');
        30
    } else if c.eat(Key::Quarter) {
        15
    } else {
        return None;
    };
    let hour = c.eat_pick(|k| match k {
        Key::HourOrdinal(n) => Some(n),
        _ => None,
    })?;
    before(hour, 60 - minutes)
}

/// "без пятнадцати шесть", "без четверти шесть", "без 10 минут 6", "без пяти час".
fn russian_without(c: &mut Cursor<'_>) -> Option<(u32, u32)> {
    c.eat(Key::Without).then_some(())?;
    if c.eat(Key::Quarter) {
        return hour_after_without(c, 15);
    }
    // "без двадцати семь": the minutes are one word when the hour follows ("двадцати семь" is
    // no 27 here).
    let single = |c: &mut Cursor<'_>| {
        let m = c.eat_pick(|k| match k {
            Key::Count(n) => Some(n),
            _ => None,
        })?;
        hour_after_without(c, m)
    };
    c.attempt(|c| {
        let m = count(c, 59)?;
        c.eat(Key::Unit(Unit::Minute));
        hour_after_without(c, m)
    })
    .or_else(|| c.attempt(single))
}

/// The hour after "без N [минут]": "час" is one.
fn hour_after_without(c: &mut Cursor<'_>, minutes: u32) -> Option<(u32, u32)> {
    let hour = if c.eat_word("час") {
        1
    } else {
        hour_number(c)?
    };
    before(hour, minutes)
}

/// "beshdan o'n besh daqiqa o'tganda", "beshdan chorak o'tganda", "oltiga o'n besh daqiqa
/// qolganda", "oltiga chorak qolganda", "yettiga chorak kam", and in digits "soat 6 ga 15 daqiqa
/// qolganda", "soat 7 ga chorak kam".
fn uzbek(c: &mut Cursor<'_>) -> Option<(u32, u32)> {
    let (hour, case) = number_word(c).or_else(|| c.attempt(hour_in_digits_with_case))?;
    let minutes = if c.eat(Key::Quarter) {
        15
    } else {
        let m = count(c, 59)?;
        c.eat(Key::Unit(Unit::Minute));
        m
    };
    match case {
        Case::From if c.eat(Key::Past) && (1..=23).contains(&hour) => Some((hour, minutes)),
        Case::To if c.eat(Key::To) || c.eat_word("kam") || c.eat_word("кам") => {
            before(hour, minutes)
        }
        _ => None,
    }
}

/// `[soat] 6 ga`, `[soat] 18 dan`: an hour in digits (up to 23) with its dative or ablative typed
/// apart.
fn hour_in_digits_with_case(c: &mut Cursor<'_>) -> Option<(u32, Case)> {
    let _ = c.eat_word("soat") || c.eat_word("соат");
    let hour = count(c, 23).filter(|h| *h > 0)?;
    let case = if c.eat_word("ga") || c.eat_word("га") {
        Case::To
    } else if c.eat_word("dan") || c.eat_word("дан") {
        Case::From
    } else {
        return None;
    };
    Some((hour, case))
}

/// The minutes of an English spoken time: "half", "a quarter", "ten", "10 minutes" (digits
/// need the unit, so that "from 9 to 5" stays a range).
fn spoken_minutes(c: &mut Cursor<'_>) -> Option<u32> {
    if c.eat(Key::Half) {
        return Some(30);
    }
    c.eat(Key::Article);
    if c.eat(Key::Quarter) {
        return Some(15);
    }
    let in_digits = c.peek_number();
    let m = count(c, 59).filter(|m| *m > 0)?;
    let unit = c.eat(Key::Unit(Unit::Minute));
    (unit || !in_digits).then_some(m)
}

/// An hour from 1 to 12 in digits or words.
fn hour_number(c: &mut Cursor<'_>) -> Option<u32> {
    count(c, 12).filter(|h| *h > 0)
}

/// `minutes` before `hour` on a 12-hour clock: 15 before 6 is 5:45, 15 before 1 is 12:45; an
/// hour past 12 (Uzbek "soat 18 ga") is on the 24-hour clock: 15 before 18 is 17:45.
fn before(hour: u32, minutes: u32) -> Option<(u32, u32)> {
    if !(1..=23).contains(&hour) || !(1..=59).contains(&minutes) {
        return None;
    }
    let previous = if hour == 1 { 12 } else { hour - 1 };
    Some((previous, 60 - minutes))
}

/// `am`/`pm`, or `a.m.`/`p.m.` written with dots.
pub(super) fn meridiem(c: &mut Cursor<'_>) -> Option<bool> {
    if let Some(pm) = c.eat_pick(|k| match k {
        Key::Meridiem(pm) => Some(pm),
        _ => None,
    }) {
        return Some(pm);
    }
    c.attempt(|c| {
        let pm = if c.eat_word("a") {
            false
        } else if c.eat_word("p") {
            true
        } else {
            return None;
        };
        // "p.m.", and "p m" as voice typing writes it.
        let dotted = c.eat_adjacent_punct('.') && c.eat_adjacent_word("m");
        if !(dotted || c.eat_word("m")) {
            return None;
        }
        c.eat_adjacent_punct('.');
        Some(pm)
    })
}

/// `[in the|at|this] PERIOD`, plus the `keyin` of Uzbek `tushdan keyin`; lunchtime
/// ("at lunch", "в обед", "к обеду") and after it ("after lunch", "после обеда").
/// "this evening" is today's evening; a part of the day said with a marker or as an adverb
/// ("вечером", "kechqurun") stands for a time by itself.
pub(super) fn period(c: &mut Cursor<'_>, _: Context) -> Option<Item> {
    if let Some(item) = c
        .attempt(lunch)
        .or_else(|| c.attempt(end_of_day))
        .or_else(|| c.attempt(first_thing))
    {
        return Some(item);
    }
    let this = c.eat(Key::This);
    // "с утра" (from the morning on) is the morning, as "утром" is.
    let prefixed = this
        || c.eat_all(&[Key::In, Key::The])
        || c.eat(Key::At)
        || c.attempt(|c| {
            (c.eat_word("с") && c.has_at(c.pos(), Key::Period(Period::Morning))).then_some(())
        })
        .is_some();
    let word_pos = c.pos();
    if !prefixed && counted_noun(c, word_pos) {
        return None;
    }
    // Uzbek "kech" (late) before an hour of the evening is the evening: "bugun kech 9 da", "kech
    // soat 10 da" ("kech 2 soat ishlash" works two hours late; "kech soat 1 da" is the night).
    if c.attempt(|c| {
        let late = c.eat_word("kech") || c.eat_word("кеч");
        let mut ahead = c.clone();
        let _ = ahead.eat_word("soat") || ahead.eat_word("соат");
        let hour = ahead.eat_number().map(|(hour, _)| hour);
        let evening = hour.is_some_and(|hour| (5..=11).contains(&hour));
        let counted = ahead.is_at(ahead.pos(), unit_key);
        (late && evening && !counted).then_some(())
    })
    .is_some()
    {
        return Some(Item::Period {
            period: Period::Evening,
            word: PeriodWord::Noun,
        });
    }
    let period = c.eat_pick(period_key)?;
    // "kechki ovqat(ga)" is dinner, a thing to do, no time ("kechki ovqatga soat 7 da borish");
    // at it and after it ("kechki ovqatda", "kechki ovqat paytida", "kechki ovqatdan keyin")
    // is the evening.
    let meal = c
        .word_at(c.pos())
        .is_some_and(|w| w.starts_with("ovqat") || w.starts_with("овқат"));
    if meal {
        let at_or_after = c.eat_word("ovqatda")
            || c.eat_word("овқатда")
            || c.eat_all_words(&["ovqat", "paytida"])
            || c.eat_all_words(&["овқат", "пайтида"])
            || ((c.eat_word("ovqatdan") || c.eat_word("овқатдан"))
                && (c.eat_word("keyin") || c.eat_word("кейин")));
        return at_or_after.then_some(Item::Period {
            period,
            word: PeriodWord::Alone,
        });
    }
    // "kechki payt", "ertalabki paytda": the time of that part of the day.
    let time_of = ["payt", "paytda", "paytida", "пайт", "пайтда", "пайтида"]
        .iter()
        .any(|word| c.eat_word(word));
    let adverb = time_of || c.has_at(word_pos, Key::TimeAdverb);
    c.eat(Key::Later);
    if this {
        return Some(Item::DayPeriod(DayRef::Today, period));
    }
    let word = if prefixed || adverb {
        PeriodWord::Alone
    } else if c.has_at(word_pos, Key::OfHour) {
        PeriodWord::OfHour
    } else {
        PeriodWord::Noun
    };
    Some(Item::Period { period, word })
}

/// "at lunch", "в обед", "к обеду", "after lunch", "после обеда".
fn lunch(c: &mut Cursor<'_>) -> Option<Item> {
    let period = if c.eat(Key::AfterPrep) {
        Period::Afternoon
    } else if c.eat(Key::At) {
        Period::Lunch
    } else {
        return None;
    };
    c.eat(Key::LunchNoun).then_some(Item::Period {
        period,
        word: PeriodWord::Alone,
    })
}

/// "by the end of the day", "в конце дня", "к концу дня", "kun oxirida", "eod": the evening,
/// whose time the chat says it took. After "until" or "до" the words would end a repeat, which the
/// bot does not read ("каждый час до конца дня").
fn end_of_day(c: &mut Cursor<'_>) -> Option<Item> {
    let evening = Item::Period {
        period: Period::Evening,
        word: PeriodWord::Alone,
    };
    if c.eat_word("eod") {
        return Some(evening);
    }
    let day = |c: &mut Cursor<'_>| c.eat(Key::Unit(Unit::Day)) || c.eat(Key::DayNoun);
    // Not after "until" or "до" in a repeat: "каждый час до конца дня" ends it, which is not
    // read ("до конца дня отправить договор" is by the evening).
    let after_until = c.pos() > 0 && c.has_at(c.pos() - 1, Key::Until);
    if after_until && (0..c.pos()).any(|i| c.has_at(i, Key::Every)) {
        return None;
    }
    let _ = c.eat(Key::At) || c.eat(Key::By);
    if day(c) {
        // Uzbek puts the day first: "kun oxirida", "kun oxirigacha".
        return c.eat(Key::End).then_some(evening);
    }
    c.eat(Key::The);
    if !c.eat(Key::End) {
        return None;
    }
    c.eat(Key::Of);
    let _ = c.eat(Key::The) || c.eat(Key::This);
    (day(c) && !c.peek_number()).then_some(evening)
}

/// "first thing [in the morning]": the morning, whose time the chat says it took; not after "the"
/// or "my" ("the first thing to buy").
fn first_thing(c: &mut Cursor<'_>) -> Option<Item> {
    // "the first thing to buy" is no time.
    let named = c.pos() > 0 && matches!(c.word_at(c.pos() - 1), Some("the" | "a" | "my" | "our"));
    (!named && c.eat_all_words(&["first", "thing"])).then_some(())?;
    let _ = c.eat_all(&[Key::In, Key::The, Key::Period(Period::Morning)])
        || c.eat(Key::Period(Period::Morning));
    Some(Item::Period {
        period: Period::Morning,
        word: PeriodWord::Alone,
    })
}

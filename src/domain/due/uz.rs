//! Uzbek (Latin script) words the due-date grammar understands, and the case
//! endings that may follow a weekday or month name.

use chrono::Weekday::{Fri, Mon, Sat, Sun, Thu, Tue, Wed};

use super::vocab::Key::{self, *};
use super::vocab::Period::{Afternoon, Evening, Morning, Night};
use super::vocab::Unit::{Day as D, Hour as H, Minute as Mi, Month as Mo, Second as S, Week as W};

/// Folded Uzbek words and their meanings (apostrophes folded to `'`).
pub(super) const WORDS: &[(&str, Key)] = &[
    ("bir", Count(1)),
    ("ikki", Count(2)),
    ("uch", Count(3)),
    ("to'rt", Count(4)),
    ("besh", Count(5)),
    ("olti", Count(6)),
    ("yetti", Count(7)),
    ("sakkiz", Count(8)),
    ("to'qqiz", Count(9)),
    ("o'n", Count(10)),
    ("yigirma", Count(20)),
    ("o'ttiz", Count(30)),
    ("qirq", Count(40)),
    ("soniya", Unit(S)),
    ("sekund", Unit(S)),
    ("daqiqa", Unit(Mi)),
    ("minut", Unit(Mi)),
    ("soat", Unit(H)),
    ("kun", Unit(D)),
    ("hafta", Unit(W)),
    ("oy", Unit(Mo)),
    ("soniyadan", UnitFrom(S)),
    ("sekunddan", UnitFrom(S)),
    ("daqiqadan", UnitFrom(Mi)),
    ("minutdan", UnitFrom(Mi)),
    ("soatdan", UnitFrom(H)),
    ("kundan", UnitFrom(D)),
    ("haftadan", UnitFrom(W)),
    ("oydan", UnitFrom(Mo)),
    ("yarim", Half),
    ("keyin", Later),
    ("so'ng", Later),
    ("oldin", Before),
    ("avval", Before),
    ("oldindan", Before),
    ("eslat", Remind),
    ("eslatib", Remind),
    ("eslating", Remind),
    ("menga", Me),
    ("qo'y", Me),
    ("kecha", Yesterday),
    ("bugun", Today),
    ("ertaga", Tomorrow),
    ("indinga", DayAfterTomorrow),
    ("indin", DayAfterTomorrow),
    ("dushanba", Weekday(Mon)),
    ("seshanba", Weekday(Tue)),
    ("chorshanba", Weekday(Wed)),
    ("payshanba", Weekday(Thu)),
    ("juma", Weekday(Fri)),
    ("shanba", Weekday(Sat)),
    ("yakshanba", Weekday(Sun)),
    ("keyingi", Next),
    ("kelasi", Next),
    ("shu", This),
    ("yanvar", Month(1)),
    ("fevral", Month(2)),
    ("mart", Month(3)),
    ("aprel", Month(4)),
    ("may", Month(5)),
    ("iyun", Month(6)),
    ("iyul", Month(7)),
    ("avgust", Month(8)),
    ("sentabr", Month(9)),
    ("sentyabr", Month(9)),
    ("oktabr", Month(10)),
    ("oktyabr", Month(10)),
    ("noyabr", Month(11)),
    ("dekabr", Month(12)),
    ("har", Every),
    ("ish", Working),
    ("kun", DayNoun),
    ("kuni", DayNoun),
    ("kunlari", DayNoun),
    ("hafta", WeekNoun),
    ("oy", MonthNoun),
    ("oyning", MonthNoun),
    ("sana", DateNoun),
    ("sanasi", DateNoun),
    ("soat", At),
    ("va", And),
    ("ertalab", Period(Morning)),
    ("ertalabki", Period(Morning)),
    ("kunduzi", Period(Afternoon)),
    ("tushdan", Period(Afternoon)),
    ("kechqurun", Period(Evening)),
    ("kechki", Period(Evening)),
    ("kechasi", Period(Night)),
    ("tunda", Period(Night)),
    ("tushda", Noon),
    ("yarimtunda", Midnight),
    ("chi", OrdinalSuffix),
    ("inchi", OrdinalSuffix),
    ("yil", YearWord),
    ("yilda", YearWord),
    ("yili", YearWord),
    ("da", Da),
    ("ga", Da),
];

/// Case endings that may follow a weekday or month name: `dushanbaga`,
/// `dekabrda`, `dushanbasi`.
const ENDINGS: &[&str] = &["dagi", "gacha", "ning", "dan", "ga", "da", "ni", "si"];

/// The weekday or month meaning of an inflected Uzbek word, if any.
pub(super) fn inflected(word: &str) -> Option<Key> {
    ENDINGS.iter().find_map(|ending| {
        let stem = word.strip_suffix(ending).filter(|s| !s.is_empty())?;
        WORDS
            .iter()
            .find(|(w, key)| *w == stem && matches!(key, Weekday(_) | Month(_)))
            .map(|(_, key)| *key)
    })
}

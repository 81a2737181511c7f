//! Uzbek (Latin script) words the due-date grammar understands, and the case
//! endings that may follow a weekday or month name.

use chrono::Weekday::{Fri, Mon, Sat, Sun, Thu, Tue, Wed};

use super::keys::Key::{self, *};
use super::keys::Period::{Afternoon, Evening, Lunch, Morning, Night};
use super::keys::Unit::{
    Day as D, Hour as H, Minute as Mi, Month as Mo, Second as S, Week as W, Year as Y,
};

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
    ("ellik", Count(50)),
    ("oltmish", Count(60)),
    ("soniya", Unit(S)),
    ("sekund", Unit(S)),
    ("daqiqa", Unit(Mi)),
    ("minut", Unit(Mi)),
    ("soat", Unit(H)),
    ("kun", Unit(D)),
    ("hafta", Unit(W)),
    ("oy", Unit(Mo)),
    ("yil", Unit(Y)),
    ("soatda", Unit(H)),
    ("kunda", Unit(D)),
    ("haftada", Unit(W)),
    ("oyda", Unit(Mo)),
    ("yilda", Unit(Y)),
    ("soniyadan", UnitFrom(S)),
    ("sekunddan", UnitFrom(S)),
    ("daqiqadan", UnitFrom(Mi)),
    ("minutdan", UnitFrom(Mi)),
    ("soatdan", UnitFrom(H)),
    ("kundan", UnitFrom(D)),
    ("haftadan", UnitFrom(W)),
    ("oydan", UnitFrom(Mo)),
    ("yildan", UnitFrom(Y)),
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
    ("du", WeekdayListed(Mon)),
    ("dush", WeekdayListed(Mon)),
    ("se", WeekdayListed(Tue)),
    ("sesh", WeekdayListed(Tue)),
    ("cho", WeekdayListed(Wed)),
    ("chor", WeekdayListed(Wed)),
    ("pa", WeekdayListed(Thu)),
    ("pay", WeekdayListed(Thu)),
    ("ju", WeekdayListed(Fri)),
    ("sha", WeekdayListed(Sat)),
    ("shan", WeekdayListed(Sat)),
    ("ya", WeekdayListed(Sun)),
    ("yak", WeekdayListed(Sun)),
    ("birinchi", Ordinal(1)),
    ("ikkinchi", Ordinal(2)),
    ("uchinchi", Ordinal(3)),
    ("to'rtinchi", Ordinal(4)),
    ("dam", Rest),
    ("olish", RestTaking),
    ("tashqari", Except),
    ("marta", Times),
    ("marotaba", Times),
    ("bajarilgandan", AfterDone),
    ("bajarilgach", AfterDone),
    ("bajarganimdan", AfterDone),
    ("bajarganimizdan", AfterDone),
    ("gacha", Until),
    ("gacha", UntilSuffix),
    ("haqida", About),
    ("daqiqada", Unit(Mi)),
    ("minutda", Unit(Mi)),
    ("kunlaridan", DaysPlural),
    ("kunidan", DayNoun),
    ("oxirigacha", End),
    ("oxirigacha", UntilSuffix),
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
    ("sanasida", DateNoun),
    ("sanada", DateNoun),
    ("kunida", DayNoun),
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
    ("xayrli", Greeting),
    ("tushda", Noon),
    ("yarimtunda", Midnight),
    ("chi", OrdinalSuffix),
    ("inchi", OrdinalSuffix),
    ("yil", YearWord),
    ("yilda", YearWord),
    ("yili", YearWord),
    ("da", Da),
    ("ga", Da),
    ("chorak", Quarter),
    ("o'tganda", Past),
    ("o'tib", Past),
    ("qolganda", To),
    ("yarimda", HalfAt),
    ("ora", Other),
    ("oxirgi", Last),
    ("oxirida", End),
    ("oxiriga", End),
    ("oxiri", End),
    ("yil", YearNoun),
    ("yili", YearNoun),
    ("kunlari", DaysPlural),
    ("kunlarida", DaysPlural),
    ("kunlarda", DaysPlural),
    ("tushlik", LunchNoun),
    ("tushlikda", Period(Lunch)),
    ("tushlikdan", Period(Afternoon)),
    ("ertalab", TimeAdverb),
    ("kunduzi", TimeAdverb),
    ("tushdan", TimeAdverb),
    ("kechqurun", TimeAdverb),
    ("kechasi", TimeAdverb),
    ("tunda", TimeAdverb),
    ("tushlikda", TimeAdverb),
    ("tushlikdan", TimeAdverb),
    ("haftada", WeekNoun),
    ("kelgusi", Next),
    ("uyg'ot", MorningCue),
    ("nonushta", MorningCue),
    ("nonushtaga", MorningCue),
    ("nonushtada", MorningCue),
    ("nonushtadan", MorningCue),
    ("uyg'otib", MorningCue),
    ("uyg'oting", MorningCue),
    ("uyg'otish", MorningCue),
    ("uyg'on", MorningCue),
    ("uyg'onish", MorningCue),
];

/// Case endings that may follow a weekday or month name: `dushanbaga`,
/// `dekabrda`, `dushanbasi`.
const ENDINGS: &[&str] = &["dagi", "gacha", "ning", "dan", "ga", "da", "ni", "si"];

/// Every word of the list with its meanings, and every inflected form [`inflected`] reads
/// (`dushanbaga`, `beshda`), for building lookups over spellings that differ from these.
pub(super) fn forms() -> impl Iterator<Item = (String, Key)> {
    let inflected = WORDS.iter().flat_map(|(word, _)| {
        ENDINGS.iter().flat_map(move |ending| {
            let form = format!("{word}{ending}");
            inflected(&form)
                .into_iter()
                .map(move |key| (form.clone(), key))
        })
    });
    WORDS
        .iter()
        .map(|(word, key)| ((*word).to_owned(), *key))
        .chain(inflected)
}

/// The meanings of an inflected Uzbek word: a weekday or month name with a case ending (and
/// [`UntilSuffix`] when the ending is `-gacha`, "until": `martgacha`, `jumagacha`), or a number
/// with the locative, ablative or dative ending (`beshda` "at five", `beshdan` "past five",
/// `oltiga` "to six"). Empty when it is none of these.
pub(super) fn inflected(word: &str) -> Vec<Key> {
    let read = ENDINGS.iter().find_map(|ending| {
        let stem = word.strip_suffix(ending).filter(|s| !s.is_empty())?;
        WORDS
            .iter()
            .filter(|(w, _)| *w == stem)
            .find_map(|(_, key)| match (key, *ending) {
                (Weekday(_) | Month(_), _) => Some((*key, *ending)),
                (Count(n), "da") => Some((CountAt(*n), *ending)),
                (Count(n), "dan") => Some((CountFrom(*n), *ending)),
                (Count(n), "ga") => Some((CountTo(*n), *ending)),
                _ => None,
            })
    });
    match read {
        Some((key, "gacha")) => vec![key, UntilSuffix],
        Some((key, _)) => vec![key],
        None => Vec::new(),
    }
}

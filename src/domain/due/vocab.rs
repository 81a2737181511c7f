//! Language-neutral meanings of words, and lookup of a word's meanings in
//! the English, Russian and Uzbek word lists.
//!
//! A word may have several meanings (Russian `часа` is both an hour unit and
//! the "o'clock" after a time); the grammar picks the one its context needs.

use chrono::Weekday;

use crate::domain::lang::Lang;

use super::{en, ru, uz};

/// A unit of a duration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unit {
    /// Elapsed seconds.
    Second,
    /// Elapsed minutes.
    Minute,
    /// Elapsed hours.
    Hour,
    /// Calendar days (wall time kept).
    Day,
    /// Calendar weeks (wall time kept).
    Week,
    /// Calendar months (wall time kept).
    Month,
}

/// A part of the day, which sets am/pm for an hour or a default time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Period {
    /// Morning: hours as on a 12-hour clock before noon.
    Morning,
    /// Afternoon / daytime: 1–11 are after noon.
    Afternoon,
    /// Evening: 1–11 are after noon.
    Evening,
    /// Night: small hours stay, 6–11 are after noon, 12 is midnight.
    Night,
}

/// One meaning of a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Key {
    /// A number word used as a count: `one`, `два`, `besh`.
    Count(u32),
    /// English `a`/`an`, meaning one before a unit.
    Article,
    /// A duration unit: `minutes`, `часа`, `soat`.
    Unit(Unit),
    /// An Uzbek unit in the ablative case: `soatdan` ("from an hour").
    UnitFrom(Unit),
    /// `half`, `yarim`.
    Half,
    /// Russian `полчаса`: half an hour in one word.
    HalfHour,
    /// Russian `полтора`: one and a half.
    OneAndHalf,
    /// Starts a relative time: `in`, `через`, `спустя`.
    In,
    /// Ends a relative time: `later`, `keyin`, `so'ng`.
    Later,
    /// Ends a lead time: `before`, `earlier`, `oldin`.
    Before,
    /// English `advance` in "in advance".
    Advance,
    /// Russian `за`, starting a lead time.
    LeadFor,
    /// Russian `до` after a lead time ("за 30 минут до").
    Until,
    /// A word asking to be reminded: `remind`, `напомни`, `eslat`.
    Remind,
    /// The person reminded: `me`, `мне`, `menga`, and Uzbek `qo'y`.
    Me,
    /// `yesterday`, `вчера`, `kecha`.
    Yesterday,
    /// `today`, `сегодня`, `bugun`.
    Today,
    /// `tomorrow`, `завтра`, `ertaga`.
    Tomorrow,
    /// `overmorrow`, `послезавтра`, `indinga`.
    DayAfterTomorrow,
    /// English `after` in "the day after tomorrow".
    After,
    /// A weekday name.
    Weekday(Weekday),
    /// A plural weekday meaning every such day: `mondays`, `понедельникам`.
    WeekdayPlural(Weekday),
    /// `next`, `следующий`, `keyingi`.
    Next,
    /// `this`, `эту`.
    This,
    /// A month name, 1–12.
    Month(u32),
    /// `every`, `каждый`, `har`.
    Every,
    /// `daily`, `ежедневно`.
    Daily,
    /// `weekly`, `еженедельно`.
    Weekly,
    /// `monthly`, `ежемесячно`.
    Monthly,
    /// Monday to Friday as one word: `weekdays`, `будням`, `будни`.
    WorkingDays,
    /// Adjective for Monday to Friday: `work`, `будний`, `рабочим`, `ish`.
    Working,
    /// `weekend`, `выходным`.
    Weekend,
    /// The noun day: `day`, `день`, `дни`, `kun`, `kuni`, `kunlari`.
    DayNoun,
    /// The noun week: `week`, `неделю`, `hafta`.
    WeekNoun,
    /// The noun month: `month`, `месяца`, `oy`, `oyning`.
    MonthNoun,
    /// A day of the month as a noun: `число`, `числа`, `sana`, `sanasi`.
    DateNoun,
    /// Marks a clock time: `at`, `в`, `к`, `soat`.
    At,
    /// Marks a day: `on`, `на`.
    On,
    /// English `the`.
    The,
    /// English `of`.
    Of,
    /// Joins list items: `and`, `и`, `va`.
    And,
    /// Russian `по` ("по понедельникам").
    Po,
    /// `am` (false) or `pm` (true).
    Meridiem(bool),
    /// A part of the day: `morning`, `вечера`, `kechqurun`.
    Period(Period),
    /// `noon`, `полдень`, `tush`.
    Noon,
    /// `midnight`, `полночь`.
    Midnight,
    /// Follows an hour: `o'clock`, `часов`.
    HourWord,
    /// Follows a day number: `st`, `th`, `го`, `chi`.
    OrdinalSuffix,
    /// Follows a year: `года`, `г`, `yil`.
    YearWord,
    /// Uzbek locative `da`/`ga` after a time or day.
    Da,
}

/// The meanings of a folded word, those of `hint`'s language first, so that
/// where languages disagree the user's language wins.
pub(super) fn meanings(word: &str, hint: Lang) -> Vec<Key> {
    let order = match hint {
        Lang::En => [Lang::En, Lang::Ru, Lang::Uz],
        Lang::Ru => [Lang::Ru, Lang::En, Lang::Uz],
        Lang::Uz | Lang::UzCyrl => [Lang::Uz, Lang::En, Lang::Ru],
    };
    let mut keys = Vec::new();
    for lang in order {
        let table = match lang {
            Lang::En => en::WORDS,
            Lang::Ru => ru::WORDS,
            Lang::Uz | Lang::UzCyrl => uz::WORDS,
        };
        keys.extend(
            table
                .iter()
                .filter(|(w, _)| *w == word)
                .map(|(_, key)| *key),
        );
        if lang == Lang::Uz {
            keys.extend(uz::inflected(word));
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_have_all_their_meanings() {
        let keys = meanings("часа", Lang::Ru);
        assert!(keys.contains(&Key::Unit(Unit::Hour)));
        assert!(keys.contains(&Key::HourWord));
    }

    #[test]
    fn uzbek_case_endings_are_understood() {
        assert_eq!(
            meanings("dushanbaga", Lang::Uz),
            [Key::Weekday(Weekday::Mon)]
        );
        assert_eq!(meanings("dekabrda", Lang::En), [Key::Month(12)]);
    }

    #[test]
    fn hint_language_comes_first() {
        assert_eq!(meanings("may", Lang::Uz).first(), Some(&Key::Month(5)));
        assert!(meanings("xyzzy", Lang::En).is_empty());
    }
}

//! Language-neutral meanings of words: what the English, Russian and Uzbek word lists map
//! their words to, and what the grammar reads. A leaf module, so that the word lists and the
//! lookup over them depend on it and not on each other.
//!
//! A word may have several meanings (Russian `часа` is both an hour unit and the "o'clock"
//! after a time); the grammar picks the one its context needs.

use chrono::Weekday;
use chrono_tz::Tz;

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
    /// Calendar years (twelve months).
    Year,
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
    /// "tonight": the evening and the night after it: 1–4 are the small hours after midnight,
    /// 5–11 after noon, 12 is midnight; 19:00 alone.
    Tonight,
    /// Lunchtime ("в обед", "at lunch", "tushlikda"): read like the afternoon, 13:00 alone.
    Lunch,
}

/// One meaning of a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Key {
    /// A number word used as a count: `one`, `два`, `besh`.
    Count(u32),
    /// An Uzbek number with the locative ending, an hour: `beshda` ("at five").
    CountAt(u32),
    /// An Uzbek number with the ablative ending, the hour a time is past: `beshdan`.
    CountFrom(u32),
    /// An Uzbek number with the dative ending, the hour a time is before: `oltiga`.
    CountTo(u32),
    /// A Russian ordinal in the genitive, the hour a time is in: `шестого` (of the sixth hour).
    HourOrdinal(u32),
    /// Russian `полшестого`: half an hour before this hour, in one word.
    HalfBefore(u32),
    /// `quarter`, `четверть`, `четверти`, `chorak`.
    Quarter,
    /// English `past`, Uzbek `o'tganda`: minutes after an hour.
    Past,
    /// English `to`, Uzbek `qolganda`: minutes before an hour.
    To,
    /// Russian `без`: minutes before an hour.
    Without,
    /// Russian `половине` in "в половине шестого".
    HalfOf,
    /// Uzbek `yarimda`: half past, said after the hour ("besh yarimda").
    HalfAt,
    /// `other` in "every other day", Uzbek `ora` in "kun ora".
    Other,
    /// Russian `раз`, English `once` in "раз в неделю", "once a week".
    Once,
    /// `last`, `последний`, `oxirgi`.
    Last,
    /// `end`, `конце`, `oxirida`.
    End,
    /// The noun year: `year`, `год`, `yil`.
    YearNoun,
    /// Uzbek `kunlari`: the plural of day after weekdays, meaning every such day.
    DaysPlural,
    /// `tonight`: this evening.
    Tonight,
    /// A part of the day said as an adverb, which stands for a time by itself: `вечером`,
    /// `kechqurun` (unlike the noun "evening" of "evening walk").
    TimeAdverb,
    /// A part of the day in the Russian genitive, said after an hour: `утра`, `дня`, `вечера`,
    /// `ночи` ("в 9 вечера", "9:30 утра"). It sets the half of the day of that hour, even one
    /// written as on a clock's face, unlike a noun such as "вечер" or "night".
    OfHour,
    /// A greeting's adjective: `good`, `доброе`, `добрый`, `xayrli`. The word after it ("good
    /// morning", "доброе утро") is no part of the day, and a greeting opening a message is no
    /// task text.
    Greeting,
    /// A greeting or courtesy that opens a message: `hi`, `hello`, `привет`, `здравствуйте`,
    /// `salom`, `assalomu alaykum`. It is no part of the task.
    Hello,
    /// `please`, `пожалуйста`, `iltimos`, around a request to the bot: no part of the task.
    Please,
    /// The word a greeting's adjective greets with ("morning" of "good morning", "tong" of
    /// "xayrli tong"): it loses its other meanings.
    Greeted,
    /// A time zone's abbreviation, said after a time: `мск`, `msk`, `utc`, `gmt`, `est` ("в 19:00
    /// мск", "3pm UTC"): the time is that zone's.
    ZoneAbbrev(Tz),
    /// A city whose time a time may be said in, a zone only after "по" or before "time" /
    /// "vaqti": `москве`, `московскому`, `moscow`, `toshkent` ("по москве", "Moscow time",
    /// "Toshkent vaqti bilan"). Alone it is a place ("flight to Moscow").
    ZoneCity(Tz),
    /// A measure or a counted thing after a number: `pcs`, `kg`, `шт`, `человек`, `ta`,
    /// `dona`, `kishi`. The number before it is no hour ("завтра 10 штук", "ertaga 3 ta non").
    Measure,
    /// `lunch`, `обед`, `tushlik`: a part of the day only after a marker ("в обед").
    LunchNoun,
    /// `after` in "after lunch", Russian `после`.
    AfterPrep,
    /// `yearly`, `annually`, `ежегодно`.
    Yearly,
    /// `hourly`, `ежечасно`.
    Hourly,
    /// `fortnightly`: every two weeks.
    Fortnightly,
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
    /// A short weekday: `mon`, `пн`, `du`, `cho`; a weekday alone only with a marker or a time
    /// after it ("on sat", "пн 10:00"), or in a list ("mon wed fri", "du cho ju").
    WeekdayShort(Weekday),
    /// An Uzbek weekday's short form (`du`, `se`, `cho`, `pa`, `ju`, `sha`, `ya`, `pay`, `yak`),
    /// a weekday only in a list of several ("du cho ju 9:00"): alone, these are other words
    /// ("pay", "я").
    WeekdayListed(Weekday),
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
    /// One weekend, or weekends after "every"/"по": `weekend`, `выходные`, `выходных`.
    Weekend,
    /// Weekends as a plural meaning every weekend: `weekends`, `выходным`.
    WeekendsPlural,
    /// Uzbek `dam` of `dam olish kunlari` (the days of rest, the weekend).
    Rest,
    /// Uzbek `olish` of `dam olish`.
    RestTaking,
    /// `except`, `excluding`, `кроме`, Uzbek `tashqari` (after the days it leaves out).
    Except,
    /// An ordinal of a week in the month, 1–4: `first`, `вторую`, `uchinchi`.
    Ordinal(u8),
    /// `times`, `раз`, `marta` after a count: how many occurrences a repeat has.
    Times,
    /// Being done, after "after": `done`, `completion`, `выполнения`.
    Done,
    /// Uzbek `bajarilgandan`: after being done.
    AfterDone,
    /// `from` in "2 days from now".
    From,
    /// `now` in "2 days from now".
    Now,
    /// A word ending in Uzbek `-gacha` ("until"): `martgacha`, `jumagacha`; the word's other
    /// meanings say until what.
    UntilSuffix,
    /// A weekday or month name ending in Uzbek `-dan` ("from"): `dushanbadan`, `yanvardan`; with
    /// `boshlab` the first day of a repeat.
    FromSuffix,
    /// `about`, `про`, `о`, `haqida`: what a reminder is about, after "remind me".
    About,
    /// English `by` (and `until`, `till` before a time): a deadline ("by 5pm", "until 17:00").
    By,
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
    /// Before a time, about when: `around`, `approximately`, `около`, `примерно`,
    /// `taxminan` ("around 5", "примерно в 5"). The time is read as said.
    Approx,
    /// An unsaid number of units: `few`, `couple`, `several`, `несколько`, `пару`, `necha`
    /// ("in a few days", "bir necha kundan keyin"): no duration the bot can keep.
    Few,
    /// Before or after a time, exactly then: `sharp`, `exactly`, `ровно`, `aynan` ("at 2 pm
    /// sharp", "ровно в 9", "в 14:00 ровно").
    Sharp,
    /// Follows a day number: `st`, `th`, `го`, `chi`.
    OrdinalSuffix,
    /// Follows a year: `года`, `г`, `yil`.
    YearWord,
    /// Uzbek locative `da`/`ga` after a time or day.
    Da,
    /// A word of waking up or of breakfast anywhere in the message, which reads an hour without
    /// am/pm in the morning as a part of the day does: `wake`, `разбуди`, `подъём`,
    /// `uyg'otib`, `breakfast`, `завтрак`, `nonushta`.
    MorningCue,
}

impl Key {
    /// Whether the word names a day: today, tomorrow, the day after or a weekday's full name.
    pub fn names_a_day(self) -> bool {
        matches!(
            self,
            Key::Today | Key::Tomorrow | Key::DayAfterTomorrow | Key::Weekday(_)
        )
    }
}

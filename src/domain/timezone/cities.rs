//! Common cities of the bot's users, in English, Russian and Uzbek spellings.

use chrono_tz::Tz;

/// City names (already [`normalize`]d) and their zones. Cities whose name is
/// the last part of their own IANA name are also found without this table,
/// but are listed for the Russian and Uzbek spellings.
const CITIES: &[(&[&str], Tz)] = &[
    (
        &["tashkent", "toshkent", "ташкент", "тошкент"],
        Tz::Asia__Tashkent,
    ),
    (
        &["samarkand", "samarqand", "самарканд", "самарқанд"],
        Tz::Asia__Samarkand,
    ),
    (
        &["bukhara", "buxoro", "бухара", "бухоро"],
        Tz::Asia__Samarkand,
    ),
    (&["nukus", "нукус"], Tz::Asia__Samarkand),
    (&["namangan", "наманган"], Tz::Asia__Tashkent),
    (
        &["andijan", "andijon", "андижан", "андижон"],
        Tz::Asia__Tashkent,
    ),
    (
        &["fergana", "farg'ona", "фергана", "фарғона"],
        Tz::Asia__Tashkent,
    ),
    (
        &["moscow", "moskva", "москва", "moskov"],
        Tz::Europe__Moscow,
    ),
    (
        &[
            "saint petersburg",
            "st petersburg",
            "sankt peterburg",
            "санкт петербург",
            "петербург",
            "питер",
        ],
        Tz::Europe__Moscow,
    ),
    (&["kazan", "qozon", "казань"], Tz::Europe__Moscow),
    (
        &["yekaterinburg", "ekaterinburg", "екатеринбург"],
        Tz::Asia__Yekaterinburg,
    ),
    (&["novosibirsk", "новосибирск"], Tz::Asia__Novosibirsk),
    (&["berlin", "берлин"], Tz::Europe__Berlin),
    (&["london", "лондон"], Tz::Europe__London),
    (&["paris", "parij", "париж"], Tz::Europe__Paris),
    (&["warsaw", "varshava", "варшава"], Tz::Europe__Warsaw),
    (&["prague", "praga", "прага"], Tz::Europe__Prague),
    (&["kyiv", "kiev", "kiyev", "киев", "київ"], Tz::Europe__Kyiv),
    (&["minsk", "минск"], Tz::Europe__Minsk),
    (&["istanbul", "стамбул"], Tz::Europe__Istanbul),
    (&["dubai", "dubay", "дубай"], Tz::Asia__Dubai),
    (
        &["almaty", "alma ata", "olmaota", "алматы", "алма ата"],
        Tz::Asia__Almaty,
    ),
    (&["astana", "астана"], Tz::Asia__Almaty),
    (&["bishkek", "бишкек"], Tz::Asia__Bishkek),
    (&["dushanbe", "душанбе"], Tz::Asia__Dushanbe),
    (&["ashgabat", "ashxobod", "ашхабад"], Tz::Asia__Ashgabat),
    (&["baku", "boku", "баку"], Tz::Asia__Baku),
    (&["tbilisi", "тбилиси"], Tz::Asia__Tbilisi),
    (&["yerevan", "ереван"], Tz::Asia__Yerevan),
    (&["seoul", "seul", "сеул"], Tz::Asia__Seoul),
    (&["tokyo", "tokio", "токио"], Tz::Asia__Tokyo),
    (
        &["beijing", "pekin", "пекин", "shanghai", "шанхай"],
        Tz::Asia__Shanghai,
    ),
    (
        &["delhi", "new delhi", "dehli", "дели", "mumbai"],
        Tz::Asia__Kolkata,
    ),
    (&["new york", "nyu york", "нью йорк"], Tz::America__New_York),
    (
        &["washington", "вашингтон", "vashington"],
        Tz::America__New_York,
    ),
    (&["chicago", "чикаго"], Tz::America__Chicago),
    (&["los angeles", "лос анджелес"], Tz::America__Los_Angeles),
];

/// Normalizes an already folded name for comparison: hyphens, underscores,
/// dots and commas become spaces and runs of spaces collapse to one.
pub(super) fn normalize(folded: &str) -> String {
    folded
        .split(|c: char| c.is_whitespace() || matches!(c, '-' | '_' | '.' | ','))
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The zone of a city named by an already normalized key.
pub(super) fn lookup(key: &str) -> Option<Tz> {
    CITIES
        .iter()
        .find(|(names, _)| names.contains(&key))
        .map(|(_, tz)| *tz)
}

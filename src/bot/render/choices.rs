//! The choice keyboards of the settings: the common time zones, the languages and the lead
//! times, the chat's current choice ticked.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup};

use super::keyboards::{asking_keyboard, button};
use crate::callback::{Action, Question};
use crate::domain::ids::UserId;
use crate::domain::lang::Lang;
use crate::domain::lead::Lead;
use crate::domain::timezone::{is_fixed_offset, utc_offset};
use crate::i18n::Tr;
use crate::i18n::dates;

/// Zones offered as buttons when the bot asks for a time zone: `(IANA name, key of the city's
/// name)`; a button reads "Tashkent (UTC+5)" in the chat's language, with the offset of the day.
pub const COMMON_ZONES: [(&str, &str); 8] = [
    ("Asia/Tashkent", "zone-tashkent"),
    ("Asia/Samarkand", "zone-samarkand"),
    ("Europe/Moscow", "zone-moscow"),
    ("Asia/Almaty", "zone-almaty"),
    ("Europe/Berlin", "zone-berlin"),
    ("Europe/London", "zone-london"),
    ("America/New_York", "zone-new-york"),
    ("UTC", "zone-utc"),
];

/// The common time zones, two per row: each city in `tr`'s language with its offset at `now`
/// ("Tashkent (UTC+5)"; UTC alone as "UTC").
pub fn zone_keyboard(tr: Tr, now: DateTime<Utc>) -> InlineKeyboardMarkup {
    let buttons: Vec<InlineKeyboardButton> = COMMON_ZONES
        .iter()
        .zip(0u8..)
        .map(|((name, key), index)| {
            let city = tr.t(key);
            let label = match name.parse::<Tz>() {
                Ok(tz) if !is_fixed_offset(tz) => format!("{city} ({})", utc_offset(tz, now)),
                _ => city,
            };
            button(label, Action::Zone { index })
        })
        .collect();
    InlineKeyboardMarkup::new(buttons.chunks(2).map(<[_]>::to_vec))
}

/// The zone question's buttons: the common zones ([`zone_keyboard`]) and a Cancel row that
/// closes the question (onboarding, `/tz`, a task waiting for its zone).
pub fn zone_question_keyboard(tr: Tr, now: DateTime<Utc>) -> InlineKeyboardMarkup {
    zone_asking_keyboard(tr, now, None)
}

/// The zone question's buttons ([`zone_question_keyboard`]), its Cancel naming the `asker` in a
/// group ([`asking_keyboard`]).
pub fn zone_asking_keyboard(
    tr: Tr,
    now: DateTime<Utc>,
    asker: Option<UserId>,
) -> InlineKeyboardMarkup {
    asking_keyboard(
        tr,
        Question::TimeZone,
        asker,
        zone_keyboard(tr, now).inline_keyboard,
    )
}

/// The languages, each in its own name, Uzbek in both scripts; two per row, the chat's
/// `current` one ticked.
pub fn language_keyboard(current: Lang) -> InlineKeyboardMarkup {
    let label = |lang: Lang| match lang {
        Lang::En => "English",
        Lang::Ru => "Русский",
        Lang::Uz => "O'zbekcha",
        Lang::UzCyrl => "Ўзбекча",
    };
    let buttons: Vec<InlineKeyboardButton> = Lang::CHOICES
        .iter()
        .zip(0u8..)
        .map(|(lang, index)| {
            let label = if *lang == current {
                format!("✓ {}", label(*lang))
            } else {
                label(*lang).to_owned()
            };
            button(label, Action::Language { index })
        })
        .collect();
    InlineKeyboardMarkup::new(buttons.chunks(2).map(<[_]>::to_vec))
}

/// The lead times `/settings` offers as buttons, in minutes: none, 5, 15 and 30 minutes, an hour,
/// a day.
pub const LEAD_CHOICES_MINUTES: [u32; 6] = [0, 5, 15, 30, 60, 1440];

/// The lead-time buttons of `/settings`, three per row, the chat's `current` one ticked.
pub fn lead_keyboard(tr: Tr, current: Lead) -> InlineKeyboardMarkup {
    let buttons: Vec<InlineKeyboardButton> = LEAD_CHOICES_MINUTES
        .iter()
        .map(|&minutes| {
            let lead = Lead::from_secs(i64::from(minutes) * 60).unwrap_or_default();
            let label = if minutes == 0 {
                tr.t("button-lead-none")
            } else {
                dates::duration(tr, lead.duration())
            };
            let label = if lead == current {
                format!("✓ {label}")
            } else {
                label
            };
            button(label, Action::Lead { minutes })
        })
        .collect();
    InlineKeyboardMarkup::new(buttons.chunks(3).map(<[_]>::to_vec))
}

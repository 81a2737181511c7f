//! `/agenda`: the chat's morning agenda. `/agenda 8:00` sends the tasks due each local day at
//! that local time (a short note on a day without tasks), `/agenda off` stops it, `/agenda` alone
//! shows the setting. In a group only its administrators change it; a chat without a zone is
//! asked for one first.

use chrono::{NaiveTime, Utc};

use super::context::{Ctx, Turn};
use super::replies::not_allowed_settings;
use super::zone;
use crate::bot::BotError;
use crate::bot::render;
use crate::domain::fold::fold;
use crate::i18n::Arg;
use crate::i18n::dates::Dates;
use crate::store::agenda;

/// What `/agenda <args>` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Setting {
    /// Every day at this local time.
    At(NaiveTime),
    /// No agenda.
    Off,
}

/// Words that turn the agenda off, folded.
const OFF: [&str; 9] = [
    "off",
    "no",
    "stop",
    "выкл",
    "нет",
    "отключить",
    "o'chir",
    "o'chirish",
    "yo'q",
];

/// Reads `/agenda`'s argument: a time of day (`8:00`, `08.30`, `8`, `8am`, `7 pm`) or "off".
pub(crate) fn parse_setting(args: &str) -> Option<Setting> {
    let folded = fold(args.trim());
    if OFF.contains(&folded.as_str()) {
        return Some(Setting::Off);
    }
    let compact: String = folded.chars().filter(|c| !c.is_whitespace()).collect();
    let (clock, afternoon) = match compact.strip_suffix("pm") {
        Some(clock) => (clock, Some(true)),
        None => match compact.strip_suffix("am") {
            Some(clock) => (clock, Some(false)),
            None => (compact.as_str(), None),
        },
    };
    let (hour, minute) = clock.split_once([':', '.']).unwrap_or((clock, "0"));
    let digits = |s: &str, max_len| {
        (!s.is_empty() && s.len() <= max_len && s.chars().all(|c| c.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    let (mut hour, minute) = (digits(hour, 2)?, digits(minute, 2)?);
    match afternoon {
        Some(_) if !(1..=12).contains(&hour) => return None,
        Some(true) if hour < 12 => hour += 12,
        Some(false) if hour == 12 => hour = 0,
        _ => {}
    }
    NaiveTime::from_hms_opt(hour, minute, 0).map(Setting::At)
}

/// `/agenda [time | off]`.
pub(super) async fn command(ctx: &Ctx, turn: &Turn, args: &str) -> Result<(), BotError> {
    let tr = turn.tr;
    if args.trim().is_empty() {
        return show(ctx, turn).await;
    }
    if !ctx.may_change_settings(turn).await? {
        return not_allowed_settings(ctx, turn).await;
    }
    match parse_setting(args) {
        Some(Setting::Off) => {
            agenda::off(&mut *ctx.db().await, turn.chat_id).await?;
            ctx.send_lines(turn, &[tr.t("agenda-turned-off")]).await
        }
        Some(Setting::At(time)) => {
            let Some(zone) = turn.zone() else {
                let ask = render::notice(None, &[tr.t("agenda-needs-zone"), tr.t("tz-ask")])?;
                return zone::ask(ctx, turn, ask, None).await;
            };
            let set =
                agenda::set(&mut *ctx.db().await, ctx.queue(), turn.chat_id, time, zone).await?;
            let when = Dates::new(tr, zone, Utc::now()).moment(set.next_at);
            let line = tr.t_with(
                "agenda-set",
                &[
                    ("time", Arg::Text(&clock(time))),
                    ("when", Arg::Text(&when)),
                ],
            );
            ctx.send_lines(turn, &[line]).await
        }
        None => {
            ctx.send_problem(turn, &tr.t("agenda-bad"), None, "agenda-example")
                .await
        }
    }
}

/// `/agenda` alone: the setting, or how to turn it on.
async fn show(ctx: &Ctx, turn: &Turn) -> Result<(), BotError> {
    let tr = turn.tr;
    let current = agenda::find(&mut *ctx.db().await, turn.chat_id).await?;
    let lines = match current {
        Some(current) => {
            let zone = turn.zone().unwrap_or(current.zone);
            let label = crate::domain::timezone::zone_label(zone, chrono::Utc::now());
            vec![tr.t_with(
                "agenda-current",
                &[
                    ("time", Arg::Text(&clock(current.time))),
                    ("zone", Arg::Text(&label)),
                ],
            )]
        }
        None => vec![tr.t("agenda-off-state"), tr.t("agenda-usage")],
    };
    ctx.send_lines(turn, &lines).await
}

/// A time of day as all three languages write it: `08:00`.
fn clock(time: NaiveTime) -> String {
    time.format("%H:%M").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(h: u32, m: u32) -> Option<Setting> {
        Some(Setting::At(NaiveTime::from_hms_opt(h, m, 0).unwrap()))
    }

    #[test]
    fn times_and_off_in_every_spelling() {
        for (input, expected) in [
            ("8:00", at(8, 0)),
            ("08.30", at(8, 30)),
            ("7", at(7, 0)),
            ("23:59", at(23, 59)),
            ("8am", at(8, 0)),
            ("7 pm", at(19, 0)),
            ("12 am", at(0, 0)),
            ("12pm", at(12, 0)),
            ("off", Some(Setting::Off)),
            ("ВЫКЛ", Some(Setting::Off)),
            ("o‘chirish", Some(Setting::Off)),
            ("24:00", None),
            ("8:60", None),
            ("13pm", None),
            ("tomorrow", None),
            ("8:5:0", None),
            ("99999999999", None),
            ("", None),
        ] {
            assert_eq!(parse_setting(input), expected, "{input}");
        }
    }
}

//! `/settings`: the chat's default lead time (how long before a deadline new tasks remind).

use super::{Ctx, Turn};
use crate::bot::BotError;
use crate::bot::render;
use crate::domain::fold::fold;
use crate::store::chats;

/// The longest default lead time: 30 days.
const MAX_LEAD_SECS: i64 = 30 * 86_400;

/// Shows the default lead time, or sets it from `args` ("30 min", "2 часа", "1 kun", "0").
pub(super) async fn settings(ctx: &Ctx, turn: &Turn, args: &str) -> Result<(), BotError> {
    let tr = turn.tr;
    if args.is_empty() {
        let lead = render::lead_text(tr, i64::from(turn.chat.default_lead_secs));
        let current = tr.t_with(
            "settings-current",
            &[("lead", crate::i18n::Arg::Text(&lead))],
        );
        let example = format!("{} {}", tr.t("example-label"), tr.t("settings-example"));
        return ctx
            .send_lines(turn, &[current, tr.t("settings-usage"), example])
            .await;
    }
    if !ctx.may_change_settings(turn).await? {
        return super::start::not_allowed(ctx, turn).await;
    }
    let Some(secs) = parse_lead(args) else {
        return ctx
            .send_problem(turn, &tr.t("settings-bad"), None, "settings-example")
            .await;
    };
    chats::set_default_lead(&ctx.deps.pool, turn.chat_id, secs as i32).await?;
    let lead = render::lead_text(tr, secs);
    ctx.send_lines(
        turn,
        &[tr.t_with("settings-set", &[("lead", crate::i18n::Arg::Text(&lead))])],
    )
    .await
}

/// Reads a lead time: `0`/`off`, or a number with a unit of minutes, hours or days in English,
/// Russian or Uzbek (`30 min`, `2h`, `2 часа`, `1 kun`); at most 30 days.
pub fn parse_lead(input: &str) -> Option<i64> {
    let folded = fold(input.trim());
    if matches!(folded.as_str(), "0" | "off" | "нет" | "yo'q") {
        return Some(0);
    }
    let digits_end = folded
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(folded.len());
    let (number, unit) = folded.split_at(digits_end);
    let number: i64 = number.parse().ok()?;
    let unit_secs = match unit.trim() {
        "m" | "min" | "mins" | "minute" | "minutes" | "м" | "мин" | "минута" | "минуты"
        | "минут" | "минуту" | "daqiqa" | "daq" => 60,
        "h" | "hr" | "hour" | "hours" | "ч" | "час" | "часа" | "часов" | "soat" => {
            3_600
        }
        "d" | "day" | "days" | "д" | "день" | "дня" | "дней" | "kun" => 86_400,
        _ => return None,
    };
    let secs = number.checked_mul(unit_secs)?;
    (secs <= MAX_LEAD_SECS).then_some(secs)
}

#[cfg(test)]
mod tests {
    use super::parse_lead;

    #[test]
    fn lead_times_in_three_languages() {
        assert_eq!(parse_lead("30 min"), Some(1800));
        assert_eq!(parse_lead("2h"), Some(7200));
        assert_eq!(parse_lead("2 часа"), Some(7200));
        assert_eq!(parse_lead("1 kun"), Some(86_400));
        assert_eq!(parse_lead("0"), Some(0));
        assert_eq!(parse_lead("31 days"), None);
        assert_eq!(parse_lead("soon"), None);
        assert_eq!(parse_lead("99999999999999999999 min"), None);
    }
}

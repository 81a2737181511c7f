//! The answer to `/calendar`: the chat's feed URLs, how to subscribe, and a new URL on request.

use askama::Template;
use teloxide::types::InlineKeyboardMarkup;

use super::finish;
use super::keyboards::button;
use crate::callback::Action;
use crate::feed::FeedUrls;
use crate::i18n::Tr;
use crate::text::RenderError;

#[derive(Template)]
#[template(path = "calendar.html")]
struct CalendarHtml<'a> {
    title: &'a str,
    subscribe: &'a str,
    webcal: &'a str,
    google: &'a str,
    https: &'a str,
    keep_secret: &'a str,
}

/// How to subscribe to the chat's calendar feed at `urls`: the `webcal://` link for Apple
/// Calendar, Outlook and Thunderbird, the `https://` one for Google Calendar, and to keep them
/// secret.
pub fn calendar_links(tr: Tr, urls: &FeedUrls) -> Result<String, RenderError> {
    finish(&CalendarHtml {
        title: &tr.t("calendar-title"),
        subscribe: &tr.t("calendar-subscribe"),
        webcal: &urls.webcal,
        google: &tr.t("calendar-google"),
        https: &urls.https,
        keep_secret: &tr.t("calendar-keep-secret"),
    })
}

/// Under the answer to `/calendar` in a chat that has a feed URL: make a new one.
pub fn calendar_new_keyboard(tr: Tr) -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new([[button(tr.t("button-calendar-new"), Action::CalendarNew)]])
}

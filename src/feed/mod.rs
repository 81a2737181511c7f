//! The calendar feed of `/calendar`: a chat's open tasks as an iCalendar that Google Calendar,
//! Apple Calendar, Outlook and Thunderbird subscribe to, at a secret URL under `PUBLIC_URL`
//! ([`url`]), served by the side-car. Each chat has one live URL; a new one revokes the old at once
//! (only the secret's hash is stored: [`crate::store::calendar_feeds`]). Each answer carries an
//! ETag of the tasks' versions (an unchanged feed is answered 304), each URL is read at most so
//! many times a minute ([`limit`]), and the secret is never logged: the side-car's spans name the
//! route, not the path.

pub mod limit;
mod serve;
pub mod url;

use std::num::NonZeroU32;

use axum::Router;
use axum::routing::get;
use sqlx::PgPool;

pub use limit::FeedLimits;
pub use url::{FeedUrls, PublicUrl, PublicUrlError};

/// What the side-car needs to serve the feeds.
#[derive(Clone, Debug)]
pub struct FeedSettings {
    /// The bot's public base URL; the feeds are served under its path.
    pub public_url: PublicUrl,
    /// Reads of each feed URL a minute (CALENDAR_FEED_RATE_PER_MIN).
    pub per_minute: NonZeroU32,
}

/// The feed route, `<PUBLIC_URL's path>/calendar/{secret}.ics`, over the bot's database.
pub fn router(pool: PgPool, settings: &FeedSettings) -> Router {
    let state = serve::FeedState {
        pool,
        limits: FeedLimits::new(settings.per_minute),
    };
    Router::new()
        .route(&settings.public_url.feed_route(), get(serve::feed))
        .with_state(state)
}

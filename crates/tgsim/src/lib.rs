//! A Telegram Bot API simulator, faithful enough to catch our mistakes: `/bot<token>/<method>`
//! with Telegram's envelope and exact error texts, long polling and webhooks, HTML parse mode,
//! flood control, recipients in every state, fault injection, and a control API (`/__sim`) for
//! tests, the sandbox and benchmarks. Documented in `crates/tgsim/README.md`.

#![warn(missing_docs)]

pub mod bench;
pub mod cli;

mod clock;
mod config;
mod control;
mod delivery;
mod error;
mod faults;
mod handle;
mod html;
mod http_client;
mod limits;
mod methods;
mod paid;
mod params;
mod server;
mod state;
mod stats;
mod text;
pub mod types;
mod updates;
pub mod web_app;
mod world;

pub use clock::{ClockMode, ClockReading};
pub use config::{BotProfile, DEFAULT_TOKEN, FIRST_UPDATE_ID, SimConfig, WebhookSettings};
pub use delivery::SECRET_HEADER;
pub use error::{ApiError, SimError, descriptions};
pub use faults::{ActiveFault, FaultAction, FaultRule};
pub use handle::{SimHandle, Simulator};
pub use html::HtmlError;
pub use http_client::{ClientError, HttpConnection};
pub use limits::{LimitsConfig, Rate, Window};
pub use methods::implemented as implemented_methods;
pub use paid::{PaidBroadcastState, PaidBroadcastUpdate, TENTHS_PER_MESSAGE};
pub use stats::{CallRecord, Counters, ThrottleCounters};
pub use text::{MAX_TEXT_LEN, utf16_len};
pub use web_app::{InitData, WebAppUser};
pub use world::{
    BotMembership, ButtonView, CallbackAnswer, CallbackStatus, ChatInfo, Forward,
    KeyboardButtonView, MemberStatus, NewGroup, NewUser, ReplyKeyboardView, StoredFile,
    TranscriptEntry, UserInfo, UserState,
};

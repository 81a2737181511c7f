//! The simulator's own tests, one integration-test binary with one module per area. They drive it
//! as a bot and a test would: over HTTP (raw requests and teloxide's `Bot`) and through its
//! handle. Nothing here needs the bot or a database.

mod control;
mod documents;
mod errors;
mod faults;
mod fixtures;
mod forwards;
mod html;
mod limits;
mod members;
mod messages;
mod polling;
mod support;
mod web_app;
mod webhook;

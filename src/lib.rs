//! remindbot: a Telegram reminder bot with its own durable job queue in PostgreSQL.
//!
//! The binary (`src/main.rs`) only parses the command line; everything else lives here so that the
//! integration tests and the benchmarks drive the same code.

pub mod admin;
pub mod app;
pub mod bench;
pub mod bot;
pub mod callback;
pub mod cli;
pub mod config;
pub mod db;
pub mod domain;
pub mod http;
pub mod i18n;
pub mod queue;
pub mod sandbox;
pub mod sim;
pub mod store;
pub mod telegram;
pub mod telemetry;

/// The database migrations, embedded at build time; applied at start-up and by `remindbot migrate`.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!();

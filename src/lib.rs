//! remindbot: a Telegram reminder bot with its own durable job queue in PostgreSQL.
//!
//! The binary (`src/main.rs`) only parses the command line; everything else lives here so that the
//! integration tests, the sandbox and the benchmarks drive the same code. The job queue is the
//! `pgqueue` crate; the dev tooling (the sandbox, the app's benchmarks, the Bot API simulator and
//! the private PostgreSQL cluster) lives in crates of its own (`devtools`, `tgsim`, `devdb`) that
//! this crate does not depend on.

pub mod admin;
pub mod app;
pub mod bot;
pub mod callback;
pub mod check;
pub mod cli;
pub mod config;
pub mod db;
pub mod domain;
pub mod egress;
pub mod export;
pub mod feed;
pub mod flags;
pub mod http;
pub mod i18n;
pub mod miniapp;
pub mod store;
pub mod telemetry;
pub mod text;

/// The bot's own migrations (`migrations/`), embedded at build time and recorded in
/// `remindbot_migrations`; [`db::migrate`] applies them after the queue's, at start-up and in
/// `remindbot migrate`.
pub static MIGRATOR: std::sync::LazyLock<sqlx::migrate::Migrator> =
    std::sync::LazyLock::new(|| {
        let mut migrator = sqlx::migrate!();
        migrator.dangerous_set_table_name("remindbot_migrations");
        migrator
    });

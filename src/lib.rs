//! remindbot: a Telegram reminder bot with its own durable job queue in PostgreSQL.
//!
//! The binary (`src/main.rs`) only parses the command line; everything else lives here so that the
//! integration tests and the benchmarks drive the same code.

pub mod cli;
pub mod sim;
pub mod telemetry;

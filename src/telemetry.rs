//! Logging set-up: one tracing subscriber for the whole process, filtered by `RUST_LOG`.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Pretty,
    /// One JSON object per line, for log collectors.
    Json,
}

/// Installs the global subscriber; logs go to standard error so that command output stays parseable.
/// The default filter is `info`; `RUST_LOG` overrides it.
pub fn init(format: LogFormat) {
    init_with_default(format, "info");
}

/// [`init`] with another default filter (e.g. `warn` for the sandbox's terminal chat); `RUST_LOG`
/// still overrides it.
pub fn init_with_default(format: LogFormat, default_filter: &str) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_filter));
    // Colours only for a person at a terminal: piped into a file, a journal or a test's output
    // they would be escape codes.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    let result = match format {
        LogFormat::Pretty => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
    // A second call (tests) keeps the first subscriber.
    drop(result);
}

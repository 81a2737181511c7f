//! The one integration-test binary: one module per area, sharing `support`.

mod queue;
mod queue_runner;
mod support;

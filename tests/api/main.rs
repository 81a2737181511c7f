//! The one integration-test binary: one module per area, sharing `support`.

mod parser_properties;
mod parser_tables;
mod queue;
mod queue_runner;
mod store;
mod support;

//! The one integration-test binary: one module per area, sharing `support`.

mod delivery_errors;
mod delivery_flow;
mod delivery_recovery;
mod delivery_scale;
mod delivery_support;
mod parser_properties;
mod parser_tables;
mod queue;
mod queue_runner;
mod sim_control;
mod sim_errors;
mod sim_faults;
mod sim_fixtures;
mod sim_html;
mod sim_limits;
mod sim_messages;
mod sim_polling;
mod sim_support;
mod sim_webhook;
mod store;
mod support;

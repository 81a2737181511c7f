//! The one integration-test binary: one module per area.

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

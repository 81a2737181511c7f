//! The one integration-test binary: one module per area, sharing `support` (databases, the wait
//! bound, queue probes) and `app` (the one harness: `remindbot run` against the simulator).

mod admin;
mod admin_delivery;
mod admin_web;
mod app;
mod bot_admin;
mod bot_bad_input;
mod bot_chat;
mod bot_e2e;
mod bot_groups;
mod bot_snapshots;
mod bot_store;
mod delivery_errors;
mod delivery_flow;
mod delivery_recovery;
mod delivery_scale;
mod delivery_series;
mod migrations;
mod parser_properties;
mod parser_tables;
mod reachability;
mod sandbox;
mod series;
mod sim_control;
mod sim_errors;
mod sim_faults;
mod sim_fixtures;
mod sim_html;
mod sim_limits;
mod sim_members;
mod sim_messages;
mod sim_polling;
mod sim_support;
mod sim_webhook;
mod store;
mod support;

//! The one integration-test binary: one module per area, sharing `support` (databases, the wait
//! bound, queue probes) and `app` (the one harness: `remindbot run` against the simulator).

mod admin;
mod admin_delivery;
mod admin_web;
mod app;
mod bot_admin;
mod bot_agenda;
mod bot_bad_input;
mod bot_chat;
mod bot_e2e;
mod bot_export;
mod bot_first_contact;
mod bot_forward;
mod bot_groups;
mod bot_misreadings;
mod bot_nag;
mod bot_quote;
mod bot_snapshots;
mod bot_store;
mod bot_trust;
mod delivery_errors;
mod delivery_flow;
mod delivery_recovery;
mod delivery_scale;
mod delivery_series;
mod intake;
mod migrations;
mod operations;
mod outbox;
mod parser_properties;
mod parser_tables;
mod reachability;
mod series;
mod store;
mod support;
mod upgrades;

//! The one integration-test binary: one module per area.

mod sim_errors;
mod sim_fixtures;
mod sim_support;

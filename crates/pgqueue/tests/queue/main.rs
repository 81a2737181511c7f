//! The queue's integration tests, one binary: each test gets a fresh database with the queue's
//! tables alone (see `support`).

mod chain;
mod held;
mod inspect;
mod kinds;
mod presence;
mod priority;
mod queue;
mod runner;
mod serial;
mod support;

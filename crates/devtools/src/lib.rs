//! remindbot's dev tooling, apart from the product: the sandbox (the whole bot offline, with a chat
//! in the terminal), the app's benchmarks (the way in, the way out, delivery, the herd, `/list` and
//! the look-ups on large tables), and the Bot API simulator and the private PostgreSQL cluster
//! behind one command, `remindbot-dev` (`cargo sandbox` runs its sandbox). The queue's own
//! benchmarks are beside the queue (`cargo bench -p pgqueue`).
//!
//! The product crate (`remindbot`) does not depend on this one: its default build is the
//! production build.

pub mod bench;
pub mod cli;
pub mod database;
pub mod readings;
pub mod sandbox;

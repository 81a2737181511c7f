//! Simulated work of a precise length.
//!
//! tokio's timer has millisecond granularity and rounds up, so `tokio::time::sleep(2 ms)` takes about
//! 3 ms, which would cap a benchmark for reasons unrelated to the queue. A blocking-pool thread in
//! `std::thread::sleep` (nanosleep) overshoots by microseconds instead, and burns no CPU, once the
//! thread's timer slack (50 µs by default on Linux) is lowered.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Sleeps for `duration` without blocking the runtime, and adds the time it really took to `total`.
pub async fn simulate(duration: Duration, total: &AtomicU64) {
    if duration.is_zero() {
        return;
    }
    let started = Instant::now();
    tokio::task::spawn_blocking(move || {
        tighten_timer_slack();
        std::thread::sleep(duration)
    })
    .await
    .expect("the sleeping thread panicked");
    total.fetch_add(started.elapsed().as_nanos() as u64, Ordering::Relaxed);
}

/// The mean in milliseconds of `count` units of work that took `total_nanos` together.
pub fn mean_ms(total_nanos: u64, count: u64) -> f64 {
    if count == 0 {
        0.0
    } else {
        total_nanos as f64 / count as f64 / 1e6
    }
}

/// Lowers this thread's timer slack to 1 ns, once per thread, so a sleep ends on time.
fn tighten_timer_slack() {
    thread_local! {
        static TIGHTENED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    TIGHTENED.with(|done| {
        if !done.replace(true) {
            // SAFETY: PR_SET_TIMERSLACK takes one integer argument and only changes how this
            // thread's timers are coalesced; no memory is passed.
            unsafe {
                libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong);
            }
        }
    });
}

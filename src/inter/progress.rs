//! Periodic progress lines on stderr for long searches.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Prints `[inter <elapsed>s] <what>: <message>` at most every `period`, when enabled.
pub(crate) struct Progress {
    enabled: bool,
    what: &'static str,
    start: Instant,
    last: Mutex<Instant>,
    period: Duration,
}

impl Progress {
    pub(crate) fn new(enabled: bool, what: &'static str) -> Self {
        let now = Instant::now();
        Progress { enabled, what, start: now, last: Mutex::new(now), period: Duration::from_secs(2) }
    }

    pub(crate) fn enabled(&self) -> bool {
        self.enabled
    }

    /// A line if the period has passed since the last one.
    pub(crate) fn tick(&self, msg: impl FnOnce() -> String) {
        if !self.enabled {
            return;
        }
        let Ok(mut last) = self.last.lock() else { return };
        if last.elapsed() >= self.period {
            *last = Instant::now();
            self.print(&msg());
        }
    }

    /// A line now (start and end of a phase).
    pub(crate) fn say(&self, msg: impl FnOnce() -> String) {
        if self.enabled {
            self.print(&msg());
        }
    }

    fn print(&self, msg: &str) {
        eprintln!("[inter {:7.2}s] {}: {}", self.start.elapsed().as_secs_f64(), self.what, msg);
    }
}

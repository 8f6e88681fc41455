//! The UCI output channel: every line to stdout goes through [`send`], flushed at once and
//! logged.

use std::io::Write;

/// Writes one line to stdout and flushes it. A closed stdout is logged, not fatal.
pub fn send(line: &str) {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let result = writeln!(lock, "{line}").and_then(|()| lock.flush());
    drop(lock);
    match result {
        Ok(()) => log::debug!(target: "uci", ">> {line}"),
        Err(e) => log::warn!(target: "uci", "cannot write '{line}': {e}"),
    }
}

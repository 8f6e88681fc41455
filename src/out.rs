//! The UCI output channel: every line to stdout goes through [`send`], flushed at once and
//! logged.

use std::io::Write;

/// Writes one line to stdout and flushes it. A closed stdout is logged, not fatal.
pub fn send(line: &str) {
    send_together(&[line]);
}

/// Writes `lines` to stdout in one go (no other output comes between them), flushing after
/// each. A closed stdout is logged, not fatal.
pub fn send_together<S: AsRef<str>>(lines: &[S]) {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    for line in lines {
        let line = line.as_ref();
        match writeln!(lock, "{line}").and_then(|()| lock.flush()) {
            Ok(()) => log::debug!(target: "uci", ">> {line}"),
            Err(e) => log::warn!(target: "uci", "cannot write '{line}': {e}"),
        }
    }
}

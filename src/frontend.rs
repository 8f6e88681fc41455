//! The UCI front end: reads stdin line by line (any line ending, any bytes) and hands each
//! line to the engine until `quit` or end of input.

use std::borrow::Cow;
use std::io::BufRead;

use crate::uci::{Flow, Session};

pub fn run(session: &mut Session) {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::with_capacity(4096);
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {
                let line = decode_line(&buf);
                log::debug!(target: "uci", "<< {line}");
                if session.handle_line(&line) == Flow::Quit {
                    break;
                }
            }
            Err(e) => {
                log::error!("reading stdin failed: {e}");
                break;
            }
        }
    }
    session.shutdown();
}

/// One raw input line as text: invalid UTF-8 becomes U+FFFD, and the line ending (`\n`,
/// `\r\n` or a stray `\r`) is dropped.
pub fn decode_line(raw: &[u8]) -> Cow<'_, str> {
    match String::from_utf8_lossy(raw) {
        Cow::Borrowed(text) => Cow::Borrowed(text.trim_end_matches(['\n', '\r'])),
        Cow::Owned(text) => Cow::Owned(text.trim_end_matches(['\n', '\r']).to_string()),
    }
}

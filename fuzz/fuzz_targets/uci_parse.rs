//! Fuzz target: one input line, any bytes, through line decoding and the UCI parser. The parser
//! must return a command, nothing, or an error message; it must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pivot::frontend::decode_line;
use pivot::uci::parse;

fuzz_target!(|data: &[u8]| {
    for raw in data.split(|&b| b == b'\n') {
        let line = decode_line(raw);
        if let Ok(Some(command)) = parse(&line) {
            // Formatting the parsed command exercises every field it holds.
            let _ = format!("{command:?}");
        }
    }
});

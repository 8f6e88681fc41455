//! The fuzzing regression corpus (`tests/data/fuzz/`): inputs that crashed Pivot once, or that
//! sit at the edges the fuzz targets in `fuzz/` explore (numbers at their limits, invalid
//! UTF-8, crowded boards, long move lists, commands during a search). Each is replayed through
//! the real binary, followed by `stop`, `isready` and `quit`. The engine must answer
//! `readyok`, send exactly one `bestmove` per `go` it read, print only UCI lines, and exit
//! with status 0.

mod common;

use std::path::Path;

use common::{Pivot, bestmoves};
use pivot::frontend::decode_line;
use pivot::uci::{Command, parse};

/// The first word of every line Pivot may print.
const UCI_REPLIES: &[&str] = &["id", "option", "uciok", "readyok", "bestmove", "info"];

/// How many `go` searches the input starts, up to a `quit` (the loop ends there).
fn searches_in(input: &[u8]) -> usize {
    let mut count = 0;
    for raw in input.split(|&b| b == b'\n') {
        match parse(&decode_line(raw)) {
            Ok(Some(Command::Go(_))) => count += 1,
            Ok(Some(Command::Quit)) => break,
            _ => {}
        }
    }
    count
}

fn replay(path: &Path) {
    let input = std::fs::read(path).unwrap();
    let quits = input
        .split(|&b| b == b'\n')
        .any(|raw| matches!(parse(&decode_line(raw)), Ok(Some(Command::Quit))));
    let mut p = Pivot::start();
    p.send_raw(&input);
    p.send_raw(b"\n");
    if !quits {
        p.send("stop");
        p.send("isready");
        p.read_until("readyok");
        p.send("quit");
    }
    while p.next_line().is_some() {}
    let name = path.file_name().unwrap().to_string_lossy();
    for line in &p.seen {
        let first = line.split_whitespace().next().unwrap_or("");
        assert!(UCI_REPLIES.contains(&first), "{name}: not UCI: {line:?}");
    }
    assert_eq!(
        bestmoves(&p.seen),
        searches_in(&input),
        "{name}: {:#?}",
        p.seen
    );
    assert_eq!(p.wait_exit(), Some(0), "{name}");
}

#[test]
fn every_corpus_input_is_handled_and_the_engine_exits_cleanly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 6, "{paths:?}");
    for path in paths {
        replay(&path);
    }
}

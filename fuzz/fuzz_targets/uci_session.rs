//! Fuzz target: a whole UCI session. Each input is split into lines and fed, in order, to one
//! long-lived engine, exactly as the stdin loop would feed them, after a reset to the engine's
//! start-up state (options, position, hash, debug off). Searches run on the engine's own thread
//! and are stopped by the next command or at the end of the input. The engine must never
//! panic, deadlock or lose its search thread. A `quit` in the input is honoured by a fresh
//! engine for the next input.
//!
//! Only what is merely slow is held back: `bench`, `go perft` deeper than 3, Hash sizes above
//! 32 MB (which are valid, and allocated in full), more than 4 threads, and searches longer
//! than 64 nodes (every `go` gets `nodes` capped at 64; its other limits and its
//! ponder/infinite waiting stay).
#![no_main]

use std::sync::Mutex;

use libfuzzer_sys::fuzz_target;
use pivot::frontend::decode_line;
use pivot::options::{self, OptionChange};
use pivot::uci::{Command, Flow, Session, parse};

const NODE_CAP: u64 = 64;

fn too_slow(command: &Command) -> bool {
    match command {
        Command::Bench(_) => true,
        Command::Perft(depth) => *depth > 3,
        Command::SetOption { name, value } => {
            matches!(
                options::parse(name, value.as_deref()),
                Ok(OptionChange::Hash(mb)) if mb > 32
            ) || matches!(
                options::parse(name, value.as_deref()),
                Ok(OptionChange::Threads(n)) if n > 4
            )
        }
        _ => false,
    }
}

/// The start-up state, restored before every input. The table is 1 MB, not 16, only to keep
/// the reset cheap.
const RESET: &[&str] = &[
    "debug off",
    "setoption name Hash value 1",
    "setoption name Move Overhead value 30",
    "setoption name Ponder value false",
    "setoption name Threads value 1",
    "setoption name MultiPV value 1",
    "setoption name UCI_Chess960 value false",
    "setoption name UCI_ShowWDL value false",
    "setoption name SyzygyPath value <empty>",
    "setoption name SyzygyProbeDepth value 1",
    "setoption name Syzygy50MoveRule value true",
    "setoption name SyzygyProbeLimit value 7",
    "ucinewgame",
    "position startpos",
];

static SESSION: Mutex<Option<Session>> = Mutex::new(None);

fuzz_target!(|data: &[u8]| {
    let mut slot = SESSION.lock().unwrap_or_else(|e| e.into_inner());
    let session = slot.get_or_insert_with(Session::new);
    for line in RESET {
        session.handle_line(line);
    }
    let mut quit = false;
    for raw in data.split(|&b| b == b'\n') {
        let line = decode_line(raw);
        let command = match parse(&line) {
            Ok(Some(command)) if too_slow(&command) => continue,
            Ok(Some(Command::Go(mut params))) => {
                params.nodes = Some(params.nodes.map_or(NODE_CAP, |n| n.min(NODE_CAP)));
                Command::Go(params)
            }
            Ok(Some(command)) => command,
            // Errors and empty lines take the same path as on stdin.
            Ok(None) | Err(_) => {
                session.handle_line(&line);
                continue;
            }
        };
        if session.handle(command) == Flow::Quit {
            quit = true;
            break;
        }
    }
    session.finish_search();
    if quit {
        session.shutdown();
        *slot = None;
    }
});

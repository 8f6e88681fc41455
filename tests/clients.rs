//! Real clients against the real binary: a python-chess session (tests/clients/
//! python_chess_session.py) and an xboard-protocol game through PolyGlot. Each test is skipped,
//! with a message saying what to install, when its client is missing.

mod common;

use std::process::{Command, Stdio};

use common::Pivot;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

const PIVOT: &str = env!("CARGO_BIN_EXE_pivot");

/// Whether `program args` can be run and succeeds.
fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn python_chess_session() {
    if !runs("python3", &["-c", "import chess.engine"]) {
        eprintln!("skipped: python-chess is missing (pip install chess)");
        return;
    }
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/clients/python_chess_session.py"
    );
    let out = Command::new("python3")
        .args([script, PIVOT])
        .output()
        .expect("run python3");
    assert!(
        out.status.success(),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// PolyGlot's path: on PATH, or where Debian's package puts it.
fn polyglot() -> Option<String> {
    ["polyglot", "/usr/games/polyglot"]
        .into_iter()
        .find(|p| runs(p, &["-help"]) || std::path::Path::new(p).is_file())
        .map(String::from)
}

/// An xboard session through PolyGlot: handshake, then the engine plays both sides for eight
/// moves (`go`, then `force` and `go` again for the other side), each move legal.
#[test]
fn xboard_game_through_polyglot() {
    let Some(polyglot) = polyglot() else {
        eprintln!("skipped: polyglot is missing (apt-get install polyglot)");
        return;
    };
    let mut p = Pivot::start_program(&polyglot, &["-noini", "-ec", PIVOT, "-log", "false"]);
    p.send("xboard");
    p.send("protover 2");
    loop {
        let line = p.read_until("feature").pop().unwrap();
        if line.contains("done=1") {
            break;
        }
    }
    assert!(
        p.seen.iter().any(|l| l.contains("myname=")),
        "no engine name announced: {:#?}",
        p.seen
    );
    p.send("new");
    p.send("st 1");
    p.send("sd 4");
    let mut pos = Chess::default();
    for _ in 0..8 {
        p.send("go");
        let line = p.read_until("move ").pop().unwrap();
        let text = line.trim_start_matches("move ").trim();
        let m = text
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .unwrap_or_else(|| panic!("illegal move '{text}' in {:#?}", p.seen));
        pos.play_unchecked(m);
        p.send("force");
    }
    let complaints: Vec<&String> = p
        .seen
        .iter()
        .filter(|l| l.contains("Illegal") || l.starts_with("Error"))
        .collect();
    assert!(complaints.is_empty(), "{complaints:?}");
    p.send("quit");
    assert!(p.wait_exit().is_some());
}

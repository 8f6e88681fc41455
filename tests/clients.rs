//! Real clients against the real binary: a python-chess session (tests/clients/
//! python_chess_session.py) and an xboard-protocol game through PolyGlot. Each test is skipped,
//! with a message saying what to install, when its client is missing.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

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
    let mut child = Command::new(&polyglot)
        .args(["-noini", "-ec", PIVOT, "-log", "false"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start polyglot");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut send = |line: &str| {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    };
    let mut seen: Vec<String> = Vec::new();
    let wait_for = |prefix: &str, seen: &mut Vec<String>| -> String {
        loop {
            let line = rx
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no '{prefix}' from polyglot; got {seen:#?}"));
            seen.push(line.clone());
            assert!(
                !line.contains("Illegal") && !line.starts_with("Error"),
                "{line}; {seen:#?}"
            );
            if line.starts_with(prefix) {
                return line;
            }
        }
    };
    send("xboard");
    send("protover 2");
    let done = loop {
        let line = wait_for("feature", &mut seen);
        if line.contains("done=1") {
            break line;
        }
    };
    assert!(done.contains("done=1"));
    assert!(
        seen.iter().any(|l| l.contains("myname=")),
        "no engine name announced: {seen:#?}"
    );
    send("new");
    send("st 1");
    send("sd 4");
    let mut pos = Chess::default();
    for _ in 0..8 {
        send("go");
        let line = wait_for("move ", &mut seen);
        let text = line.trim_start_matches("move ").trim();
        let m = text
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .unwrap_or_else(|| panic!("illegal move '{text}' in {seen:#?}"));
        pos.play_unchecked(m);
        send("force");
    }
    send("quit");
    let status = child.wait().unwrap();
    assert!(status.success() || status.code().is_some(), "{status:?}");
}

//! Drives the real `pivot` binary through pipes, as a GUI would.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// How long to wait for an expected line before declaring the engine hung. A safety net
/// against hangs, not a speed assertion.
const HANG: Duration = Duration::from_secs(60);

pub struct Pivot {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line received so far.
    pub seen: Vec<String>,
}

impl Pivot {
    pub fn start() -> Pivot {
        Self::start_with(&[])
    }

    pub fn start_with(args: &[&str]) -> Pivot {
        Self::start_program(env!("CARGO_BIN_EXE_pivot"), args)
    }

    /// Any program driven the same way (a client such as PolyGlot in front of Pivot).
    pub fn start_program(program: &str, args: &[&str]) -> Pivot {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start pivot");
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
        let stdin = child.stdin.take();
        Pivot {
            child,
            stdin,
            lines: rx,
            seen: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Next line, or None when stdout closed. Panics if nothing arrives in time.
    pub fn next_line(&mut self) -> Option<String> {
        match self.lines.recv_timeout(HANG) {
            Ok(line) => {
                self.seen.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => panic!("pivot hung; lines so far: {:#?}", self.seen),
        }
    }

    /// Lines up to and including the first one starting with `prefix`.
    pub fn read_until(&mut self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let line = self
                .next_line()
                .unwrap_or_else(|| panic!("stdout closed before '{prefix}'; got {out:#?}"));
            let done = line.starts_with(prefix);
            out.push(line);
            if done {
                return out;
            }
        }
    }

    /// Sends `isready` and returns every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until("readyok");
        lines.pop();
        lines
    }

    /// Lines that arrive within `wait` (used to check that nothing unwanted arrives).
    pub fn drain_for(&mut self, wait: Duration) -> Vec<String> {
        let mut out = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(wait) {
            self.seen.push(line.clone());
            out.push(line);
        }
        out
    }

    /// Closes stdin and waits for the process to exit; returns its exit status code.
    pub fn close(mut self) -> Option<i32> {
        self.stdin = None;
        let status = self.child.wait().unwrap();
        status.code()
    }

    pub fn wait_exit(&mut self) -> Option<i32> {
        self.child.wait().unwrap().code()
    }
}

impl Drop for Pivot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// The moves after ` pv ` in an info line.
pub fn pv_of(line: &str) -> Vec<String> {
    match line.split_once(" pv ") {
        Some((_, moves)) => moves.split_whitespace().map(String::from).collect(),
        None => Vec::new(),
    }
}

/// The value after `key` in a space-separated line.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut tokens = line.split_whitespace();
    while let Some(t) = tokens.next() {
        if t == key {
            return tokens.next();
        }
    }
    None
}

/// Whether every move of `pv` is legal in turn from `start`.
pub fn pv_is_legal(start: &Chess, pv: &[String]) -> Result<(), String> {
    let mut pos = start.clone();
    for (i, text) in pv.iter().enumerate() {
        let m = text
            .parse::<UciMove>()
            .map_err(|_| format!("move {i} '{text}' unparsable"))?
            .to_move(&pos)
            .map_err(|_| format!("move {i} '{text}' illegal"))?;
        pos.play_unchecked(m);
    }
    Ok(())
}

/// Asks `pivot` for a move in `start` after `moves` with `go` (say `go nodes 5000`), plays it
/// on `pos` (the position those moves reach) and appends it to `moves`.
pub fn play_engine_move(
    pivot: &mut Pivot,
    start: &str,
    moves: &mut Vec<String>,
    pos: &mut Chess,
    go: &str,
) {
    pivot.send(&format!("position fen {start} moves {}", moves.join(" ")));
    pivot.send(go);
    let lines = pivot.read_until("bestmove");
    let (best, _) = bestmove_of(lines.last().unwrap());
    let m = best.parse::<UciMove>().unwrap().to_move(pos).unwrap();
    pos.play_unchecked(m);
    moves.push(best);
}

/// The `bestmove` line's move and optional ponder move.
pub fn bestmove_of(line: &str) -> (String, Option<String>) {
    let best = field(line, "bestmove").expect("bestmove line").to_string();
    (best, field(line, "ponder").map(String::from))
}

/// How many of `lines` are `bestmove` lines.
pub fn bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

/// The last `info` line that carries a pv.
pub fn last_pv_line(lines: &[String]) -> Option<&String> {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info") && l.contains(" pv "))
}

/// (FEN, [(depth, nodes)]) for every line of a perft EPD (`FEN ;D1 20 ;D2 400 …`).
pub fn perft_lines(text: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut words = p.split_whitespace();
                    let depth = words
                        .next()
                        .unwrap()
                        .trim_start_matches('D')
                        .parse()
                        .unwrap();
                    let nodes = words.next().unwrap().parse().unwrap();
                    (depth, nodes)
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

/// Checks perft counts up to `max_depth` for every `every`-th line of a perft EPD read with
/// [`perft_lines`], its FENs read in `mode`; the suite must have `expected_len` lines.
pub fn check_perft(
    text: &str,
    expected_len: usize,
    mode: CastlingMode,
    max_depth: u32,
    every: usize,
) {
    let suite = perft_lines(text);
    assert_eq!(suite.len(), expected_len);
    for (fen, counts) in suite.iter().step_by(every) {
        let (game, _) = pivot::game::Game::from_fen_in(fen, mode).unwrap_or_else(|e| panic!("{e}"));
        for &(depth, nodes) in counts.iter().filter(|(d, _)| *d <= max_depth) {
            assert_eq!(
                pivot::perft::perft(game.pos(), depth),
                nodes,
                "{fen} depth {depth}"
            );
        }
    }
}

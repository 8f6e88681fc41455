//! Searches that drive the depth and ply high: pawn endings searched past depth 60, long
//! mates, `go depth 200`. The PV table and the stacks must hold: every line stays legal and
//! within `MAX_PLY - 1` moves, and no node lies beyond the cap. (Nodes at the cap itself are
//! tested directly in `src/search/alphabeta.rs`.)

mod common;

use std::sync::Arc;

use common::{Pivot, field, last_pv_line, position, pv_is_legal, pv_of};
use pivot::game::Game;
use pivot::score::MAX_PLY;
use pivot::search::{Collect, Job, Limits, Outcome, PvLine, SearchControl, Searcher};
use pivot::tt::TranspositionTable;
use shakmaty::Position;

/// Runs one silent search and returns its outcome and every line it reported.
fn search(fen: &str, limits: Limits) -> (Outcome, Vec<PvLine>) {
    let (game, _) = Game::from_fen(fen).unwrap();
    let tt = Arc::new(TranspositionTable::new(16).unwrap());
    let mut searcher = Searcher::new(Arc::new(SearchControl::default()));
    let mut collect = Collect::default();
    let job = Job {
        game,
        limits,
        tt,
        move_overhead_ms: 0,
        network: pivot::nnue::embedded(),
    };
    let outcome = searcher.run(job, &mut collect);
    (outcome, collect.lines)
}

fn assert_lines_hold(fen: &str, outcome: &Outcome, lines: &[PvLine]) {
    let root = Game::from_fen(fen).unwrap().0;
    assert!(!lines.is_empty(), "{fen}: no line reported");
    for line in lines {
        assert!(line.pv.len() < MAX_PLY, "{fen}: {} moves", line.pv.len());
        assert!(line.depth < MAX_PLY as i32, "{fen}: depth {}", line.depth);
        let mut pos = root.pos().clone();
        for &m in &line.pv {
            assert!(pos.is_legal(m), "{fen}: illegal {m:?} in {:?}", line.pv);
            pos.play_unchecked(m);
        }
    }
    assert!(
        outcome.seldepth < MAX_PLY,
        "{fen}: seldepth {}",
        outcome.seldepth
    );
    let best = outcome.best.expect("a best move");
    assert!(root.pos().is_legal(best));
}

/// Kings and pawns: iterations run past depth 60 within a few thousand nodes each, until a
/// promotion comes within the horizon.
#[test]
fn pawn_endings_searched_to_high_depth() {
    for fen in [
        "8/8/1p6/8/8/1P6/8/k1K5 w - - 0 1",
        "8/p7/8/8/8/8/P7/K1k5 w - - 0 1",
    ] {
        let (outcome, lines) = search(
            fen,
            Limits {
                depth: Some(200),
                nodes: Some(3_000_000),
                ..Limits::default()
            },
        );
        assert_lines_hold(fen, &outcome, &lines);
    }
}

/// Long mates: a full-length mating PV never outgrows the table.
#[test]
fn long_mates_at_high_depth() {
    for fen in [
        "8/8/8/4k3/8/8/8/KBN5 w - - 0 1",
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        "8/8/8/8/8/8/k7/2K1Q3 w - - 0 1",
    ] {
        let (outcome, lines) = search(
            fen,
            Limits {
                depth: Some(200),
                nodes: Some(2_000_000),
                ..Limits::default()
            },
        );
        assert_lines_hold(fen, &outcome, &lines);
    }
}

/// Through the UCI front end: `go depth 200` is searched to the cap (bare kings settle at once;
/// a rook ending runs under a node limit) and every reported line is legal and in range.
#[test]
fn go_depth_200_over_uci() {
    let mut p = Pivot::start();
    for (fen, extra) in [
        ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", ""),
        ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", " nodes 500000"),
        ("8/8/1p6/8/8/1P6/8/k1K5 w - - 0 1", " nodes 500000"),
    ] {
        p.send(&format!("position fen {fen}"));
        p.send(&format!("go depth 200{extra}"));
        let lines = p.read_until("bestmove");
        let start = position(fen);
        for line in lines.iter().filter(|l| l.contains(" pv ")) {
            let pv = pv_of(line);
            assert!(pv.len() < MAX_PLY, "{line}");
            pv_is_legal(&start, &pv).unwrap();
            for key in ["depth", "seldepth"] {
                let v: usize = field(line, key).unwrap().parse().unwrap();
                assert!(v < MAX_PLY, "{line}");
            }
        }
        assert!(last_pv_line(&lines).is_some(), "{fen}: {lines:?}");
    }
    p.send("position fen 8/8/4k3/8/8/3K4/8/8 w - - 0 1");
    p.send("go depth 200");
    let lines = p.read_until("bestmove");
    assert!(
        last_pv_line(&lines)
            .unwrap()
            .starts_with(&format!("info depth {} ", MAX_PLY - 1)),
        "{lines:?}"
    );
    assert_eq!(p.sync(), Vec::<String>::new());
}

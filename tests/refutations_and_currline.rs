//! `UCI_ShowRefutations` and `UCI_ShowCurrLine` through the real binary, and the refutation
//! lines of Win At Chess searches audited like PVs (`pv-check` does the same on any EPD file).

mod common;

use std::sync::Arc;
use std::time::Instant;

use common::{Pivot, field, last_pv_line, position, pv_is_legal, pv_of};
use pivot::pvcheck::{self, Audit, Budget};
use pivot::search::{SearchControl, Searcher};
use pivot::tt::TranspositionTable;
use shakmaty::Position;

const ITALIAN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

/// The moves of an `info refutation` or `info currline` line, after `skip` words.
fn moves_after(line: &str, skip: usize) -> Vec<String> {
    line.split_whitespace()
        .skip(skip)
        .map(str::to_string)
        .collect()
}

#[test]
fn refutations_cover_every_root_move_after_each_depth() {
    let root = position(ITALIAN);
    let legal: Vec<String> = root
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
        .collect();
    let mut p = Pivot::start();
    p.send("setoption name UCI_ShowRefutations value true");
    p.send(&format!("position fen {ITALIAN}"));
    p.send("go depth 7");
    let lines = p.read_until("bestmove");
    // After each depth's final `info … pv` line, one refutation line per root move.
    for depth in 1..=7 {
        let end = lines
            .iter()
            .rposition(|l| l.contains(" pv ") && field(l, "depth") == Some(&depth.to_string()))
            .unwrap_or_else(|| panic!("no depth {depth} line"));
        let block: Vec<&String> = lines[end + 1..]
            .iter()
            .take_while(|l| l.starts_with("info refutation "))
            .collect();
        let mut refuted: Vec<String> = block.iter().map(|l| moves_after(l, 2)[0].clone()).collect();
        refuted.sort();
        let mut expected = legal.clone();
        expected.sort();
        assert_eq!(refuted, expected, "depth {depth}");
        let pv = pv_of(&lines[end]);
        for line in block {
            let words = moves_after(line, 2);
            let (mv, reply) = (&words[0], &words[1..]);
            assert!(!reply.is_empty(), "depth {depth}: no reply in '{line}'");
            pv_is_legal(&root, &words).unwrap_or_else(|e| panic!("{line}: {e}"));
            // The move that leads the PV gets the PV's continuation (where it has one).
            if *mv == pv[0] && pv.len() > 1 {
                assert_eq!(reply, &pv[1..], "{line}");
            }
        }
    }
    assert!(last_pv_line(&lines).is_some());
}

#[test]
fn currline_reports_every_thread_together_at_most_ten_times_a_second() {
    let root = position(ITALIAN);
    let mut p = Pivot::start();
    p.send("setoption name UCI_ShowCurrLine value true");
    p.send("setoption name Threads value 2");
    p.send(&format!("position fen {ITALIAN}"));
    let started = Instant::now();
    p.send("go movetime 1500");
    let lines = p.read_until("bestmove");
    let elapsed = started.elapsed();
    let currlines: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info currline "))
        .collect();
    assert!(!currlines.is_empty(), "{lines:?}");
    // Two threads: lines come in pairs, cpu 1 then cpu 2, one after the other.
    assert_eq!(currlines.len() % 2, 0, "{currlines:?}");
    for pair in currlines.chunks(2) {
        assert_eq!(field(pair[0], "currline"), Some("1"));
        assert_eq!(field(pair[1], "currline"), Some("2"));
        let at = lines.iter().position(|l| l == pair[0]).unwrap();
        assert_eq!(&lines[at + 1], pair[1], "the pair was split");
    }
    for line in &currlines {
        pv_is_legal(&root, &moves_after(line, 3)).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    // At most ten reports a second (one more for rounding at the ends).
    let reports = currlines.len() / 2;
    let allowed = (elapsed.as_secs_f64() * 10.0).ceil() as usize + 1;
    assert!(reports <= allowed, "{reports} reports in {elapsed:?}");
}

#[test]
fn both_off_by_default_send_neither() {
    let mut p = Pivot::start();
    p.send(&format!("position fen {ITALIAN}"));
    p.send("go depth 7");
    let lines = p.read_until("bestmove");
    assert!(
        lines
            .iter()
            .all(|l| !l.starts_with("info refutation") && !l.starts_with("info currline")),
        "{lines:?}"
    );
    // Switched on and off again: the same search as before, line for line up to the times.
    p.send("setoption name UCI_ShowRefutations value true");
    p.send("setoption name UCI_ShowRefutations value false");
    p.send("ucinewgame");
    p.send(&format!("position fen {ITALIAN}"));
    p.send("go depth 7");
    let again = p.read_until("bestmove");
    let strip = |ls: &[String]| -> Vec<String> {
        ls.iter()
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let mut kept = Vec::new();
                let mut i = 0;
                while i < words.len() {
                    if matches!(words[i], "nps" | "time" | "hashfull") {
                        i += 2;
                    } else {
                        kept.push(words[i]);
                        i += 1;
                    }
                }
                kept.join(" ")
            })
            .collect()
    };
    assert_eq!(strip(&lines), strip(&again));
}

#[test]
fn refutation_lines_of_wac_searches_are_legal_and_hold_a_reply() {
    let tt = Arc::new(TranspositionTable::new(16).unwrap());
    let mut searcher = Searcher::new(Arc::new(SearchControl::default()));
    let mut audit = Audit::default();
    for (i, line) in include_str!("data/wac.epd").lines().step_by(20).enumerate() {
        let root = pvcheck::parse_epd_position(line).unwrap();
        let found = pvcheck::search(&mut searcher, &tt, &root, Budget::Depth(7), true);
        let name = format!("wac {i}");
        audit.add(&name, &root, &found.lines);
        audit.add_refutations(&name, &root, &found.refutations);
        let legal = root.pos().legal_moves().len();
        let depths = found.lines.iter().map(|l| l.depth).max().unwrap_or(0) as usize;
        assert!(
            found.refutations.len() >= legal * depths.min(7).saturating_sub(1),
            "{name}"
        );
    }
    assert_eq!(audit.refutations_illegal, 0, "{:?}", audit.examples);
    assert_eq!(audit.illegal, 0, "{:?}", audit.examples);
    // Only a move that ends the game (mate, stalemate) goes without a reply.
    assert!(
        audit.refutations_empty * 100 <= audit.refutations,
        "{} of {} without a reply",
        audit.refutations_empty,
        audit.refutations
    );
}

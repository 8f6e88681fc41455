//! Every `info … pv` line is legal from its root, and `bestmove`/`ponder` are the first two
//! moves of the last PV printed — over Win At Chess positions (tests/data/wac.epd).

mod common;

use common::{Pivot, bestmove_of, field, last_pv_line, position, pv_is_legal, pv_of};

fn wac_fens(step: usize) -> Vec<String> {
    include_str!("data/wac.epd")
        .lines()
        .step_by(step)
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            format!("{} 0 1", fields.join(" "))
        })
        .collect()
}

#[test]
fn every_pv_is_legal_and_bestmove_matches_it() {
    let mut p = Pivot::start();
    let fens = wac_fens(10);
    assert_eq!(fens.len(), 30);
    let mut lines_checked = 0;
    for fen in &fens {
        let root = position(fen);
        p.send("ucinewgame");
        p.send(&format!("position fen {fen}"));
        p.send("go depth 6");
        let lines = p.read_until("bestmove");
        for line in lines.iter().filter(|l| l.contains(" pv ")) {
            pv_is_legal(&root, &pv_of(line)).unwrap_or_else(|e| panic!("{fen}: {line}: {e}"));
            lines_checked += 1;
        }
        let last = last_pv_line(&lines).unwrap();
        let pv = pv_of(last);
        let (best, ponder) = bestmove_of(lines.last().unwrap());
        assert_eq!(best, pv[0], "{fen}");
        assert_eq!(ponder.as_deref(), pv.get(1).map(String::as_str), "{fen}");
        assert_eq!(field(last, "depth"), Some("6"), "{fen}");
    }
    assert!(lines_checked >= fens.len() * 6);
}

#[test]
fn pvs_stay_legal_when_searches_are_interrupted() {
    let mut p = Pivot::start();
    for fen in wac_fens(25) {
        let root = position(&fen);
        p.send(&format!("position fen {fen}"));
        p.send("go nodes 20000");
        let lines = p.read_until("bestmove");
        for line in lines.iter().filter(|l| l.contains(" pv ")) {
            pv_is_legal(&root, &pv_of(line)).unwrap_or_else(|e| panic!("{fen}: {line}: {e}"));
        }
        let (best, _) = bestmove_of(lines.last().unwrap());
        assert_eq!(best, pv_of(last_pv_line(&lines).unwrap())[0]);
    }
}

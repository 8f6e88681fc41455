//! Every line Pivot sends to the GUI is formatted here.

use std::fmt::Write as _;
use std::time::Duration;

use shakmaty::{CastlingMode, Move};

use crate::score::mate_in_moves;
use crate::tt::Bound;

/// A move in UCI long algebraic notation (`e2e4`, `e7e8q`); castling as `e1g1` in standard
/// chess and as king-takes-rook (`e1h1`) in Chess960.
pub fn uci_move(m: Move, castling: CastlingMode) -> String {
    m.to_uci(castling).to_string()
}

/// `cp <x>` or `mate <n>` (moves; negative when the side to move is mated).
pub fn score(score: i32) -> String {
    match mate_in_moves(score) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {score}"),
    }
}

/// The fields of one `info … pv` line.
pub struct Info<'a> {
    pub multipv: usize,
    pub depth: i32,
    pub seldepth: usize,
    pub score: i32,
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    pub pv: &'a [Move],
    /// Tablebase probes that found an entry; `None` when no tables are loaded.
    pub tbhits: Option<u64>,
    pub castling: CastlingMode,
    /// `wdl <win> <draw> <loss>` per mille, sent after the score when `UCI_ShowWDL` is on.
    pub wdl: Option<(u32, u32, u32)>,
}

pub fn info(i: &Info) -> String {
    let ms = i.elapsed.as_millis() as u64;
    let nps = i.nodes.saturating_mul(1000) / ms.max(1);
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {}",
        i.depth,
        i.seldepth,
        i.multipv,
        score(i.score)
    );
    if let Some((w, d, l)) = i.wdl {
        let _ = write!(line, " wdl {w} {d} {l}");
    }
    match i.bound {
        Some(Bound::Lower) => line.push_str(" lowerbound"),
        Some(Bound::Upper) => line.push_str(" upperbound"),
        _ => {}
    }
    let _ = write!(
        line,
        " nodes {} nps {} hashfull {}",
        i.nodes, nps, i.hashfull
    );
    if let Some(hits) = i.tbhits {
        let _ = write!(line, " tbhits {hits}");
    }
    let _ = write!(line, " time {ms}");
    if !i.pv.is_empty() {
        line.push_str(" pv");
        for m in i.pv {
            line.push(' ');
            line.push_str(&uci_move(*m, i.castling));
        }
    }
    line
}

/// `info depth <d> currmove <m> currmovenumber <n>`.
pub fn currmove(depth: i32, m: Move, number: usize, castling: CastlingMode) -> String {
    format!(
        "info depth {depth} currmove {} currmovenumber {number}",
        uci_move(m, castling)
    )
}

/// `info currline <cpunr> [<move> …]`: the line thread `cpunr` (from 1) is searching.
pub fn currline(cpunr: usize, line: &[Move], castling: CastlingMode) -> String {
    let mut text = format!("info currline {cpunr}");
    for m in line {
        text.push(' ');
        text.push_str(&uci_move(*m, castling));
    }
    text
}

/// `info refutation <move> [<move> …]`: `m` and the line found against it.
pub fn refutation(m: Move, line: &[Move], castling: CastlingMode) -> String {
    let mut text = format!("info refutation {}", uci_move(m, castling));
    for reply in line {
        text.push(' ');
        text.push_str(&uci_move(*reply, castling));
    }
    text
}

/// `bestmove <m> [ponder <m>]`, or `bestmove 0000` when there is no legal move.
pub fn bestmove(best: Option<Move>, ponder: Option<Move>, castling: CastlingMode) -> String {
    match (best, ponder) {
        (Some(b), Some(p)) => format!(
            "bestmove {} ponder {}",
            uci_move(b, castling),
            uci_move(p, castling)
        ),
        (Some(b), None) => format!("bestmove {}", uci_move(b, castling)),
        (None, _) => "bestmove 0000".to_string(),
    }
}

/// `info string <text>`, with any line breaks in `text` turned into spaces.
pub fn info_string(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    format!("info string {flat}")
}

/// `info string error: <text>`.
pub fn error(text: &str) -> String {
    info_string(&format!("error: {text}"))
}

/// `info string warning: <text>`.
pub fn warning(text: &str) -> String {
    info_string(&format!("warning: {text}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::MATE;
    use shakmaty::{Chess, Position};

    #[test]
    fn scores_print_as_centipawns_or_mate_in_moves() {
        assert_eq!(score(37), "cp 37");
        assert_eq!(score(-MATE + 4), "mate -2");
        assert_eq!(score(MATE - 1), "mate 1");
    }

    #[test]
    fn info_line_has_every_field_in_order() {
        let pos = Chess::default();
        let moves = pos.legal_moves();
        let line = info(&Info {
            multipv: 1,
            depth: 3,
            seldepth: 5,
            score: 20,
            bound: Some(Bound::Lower),
            nodes: 2000,
            elapsed: Duration::from_millis(4),
            hashfull: 1,
            pv: &moves[..1],
            tbhits: None,
            castling: CastlingMode::Standard,
            wdl: None,
        });
        assert_eq!(
            line,
            format!(
                "info depth 3 seldepth 5 multipv 1 score cp 20 lowerbound nodes 2000 nps 500000 hashfull 1 time 4 pv {}",
                uci_move(moves[0], CastlingMode::Standard)
            )
        );
    }

    #[test]
    fn info_strings_stay_on_one_line() {
        assert_eq!(info_string("a\nb\r"), "info string a b ");
        assert_eq!(
            bestmove(None, None, CastlingMode::Standard),
            "bestmove 0000"
        );
    }

    #[test]
    fn castling_is_written_for_the_mode() {
        let pos: Chess = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let castles: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_castle())
            .collect();
        let text = |mode| {
            let mut t: Vec<String> = castles.iter().map(|m| uci_move(*m, mode)).collect();
            t.sort();
            t
        };
        assert_eq!(text(CastlingMode::Standard), ["e1c1", "e1g1"]);
        assert_eq!(text(CastlingMode::Chess960), ["e1a1", "e1h1"]);
    }
}

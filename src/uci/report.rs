//! The search's reports as UCI lines: `info … pv`, `info … currmove` and `bestmove`, sent to
//! the GUI as they come.

use std::sync::Arc;

use shakmaty::{CastlingMode, Chess, Move};

use crate::eval::wdl;
use crate::out;
use crate::search::{LineSink, PvReport, Reporter};
use crate::uci::fmt;

/// Sends a search's reports to stdout.
pub struct UciReport {
    /// How the game writes castling moves.
    castling: CastlingMode,
    /// With `UCI_ShowWDL`, the root's game phase for the win/draw/loss model.
    wdl_phase: Option<i32>,
}

impl UciReport {
    /// Reports for a search of `root`, written the way `castling` says; `show_wdl` adds
    /// `wdl w d l` to every line.
    pub fn new(root: &Chess, castling: CastlingMode, show_wdl: bool) -> UciReport {
        UciReport {
            castling,
            wdl_phase: show_wdl.then(|| wdl::phase(root)),
        }
    }
}

impl Reporter for UciReport {
    fn pv(&mut self, line: &PvReport<'_>) {
        out::send(&fmt::info(&fmt::Info {
            multipv: line.multipv,
            depth: line.depth,
            seldepth: line.seldepth,
            score: line.score,
            bound: line.bound,
            nodes: line.nodes,
            elapsed: line.elapsed,
            hashfull: line.hashfull(),
            pv: line.pv,
            tbhits: line.tbhits,
            castling: self.castling,
            wdl: self.wdl_phase.map(|phase| wdl::wdl(line.score, phase)),
        }));
    }

    fn current_move(&mut self, depth: i32, mv: Move, number: usize) {
        out::send(&fmt::currmove(depth, mv, number, self.castling));
    }

    fn line_sink(&mut self) -> Option<Arc<dyn LineSink>> {
        Some(Arc::new(CurrLineOut {
            castling: self.castling,
        }))
    }

    fn refutation(&mut self, _depth: i32, mv: Move, line: &[Move]) {
        out::send(&fmt::refutation(mv, line, self.castling));
    }

    fn best_move(&mut self, best: Option<Move>, ponder: Option<Move>) {
        out::send(&fmt::bestmove(best, ponder, self.castling));
    }
}

/// Sends the threads' current lines as `info currline <cpunr> …`, all of them together.
struct CurrLineOut {
    castling: CastlingMode,
}

impl LineSink for CurrLineOut {
    fn current_lines(&self, lines: &[Vec<Move>]) {
        let text: Vec<String> = lines
            .iter()
            .enumerate()
            .map(|(i, line)| fmt::currline(i + 1, line, self.castling))
            .collect();
        out::send_together(&text);
    }
}

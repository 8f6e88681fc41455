//! How a search tells its caller what it found: the caller hands [`Searcher::run`] a
//! [`Reporter`], and the search calls it with plain values, never with text. The UCI front
//! end turns the calls into `info` and `bestmove` lines; `bench` and the helper threads of a
//! pool ignore them ([`Silent`]); `pv-check`, the tests and the training tools keep the lines
//! ([`Collect`]).
//!
//! [`Searcher::run`]: super::Searcher::run

use std::sync::Arc;
use std::time::Duration;

use shakmaty::Move;

use crate::tt::{Bound, TranspositionTable};

/// One principal variation as the search reports it.
#[derive(Clone, Copy)]
pub struct PvReport<'a> {
    /// 1 for the best line; under MultiPV, the line's rank.
    pub multipv: usize,
    pub depth: i32,
    /// The deepest ply reached so far (at least `depth`).
    pub seldepth: usize,
    /// Centipawns or a mate score, from the side to move at the root.
    pub score: i32,
    /// `None` for an exact score; a bound after an aspiration failure.
    pub bound: Option<Bound>,
    /// Nodes on every thread so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The table searched, for [`PvReport::hashfull`] (sampled only when asked for).
    pub(super) tt: &'a TranspositionTable,
    /// Tablebase probes that found an entry; `None` when no tables are loaded.
    pub tbhits: Option<u64>,
    pub pv: &'a [Move],
}

impl PvReport<'_> {
    /// Permille of the transposition table in use.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }
}

/// What a search reports, as it goes. Every method has an empty default, so a caller
/// implements only what it uses.
pub trait Reporter {
    /// A principal variation: at every completed depth, whenever the root PV changes within
    /// one, and with a bound after an aspiration failure. The last line reported with an exact
    /// score is the one the search's best move comes from.
    fn pv(&mut self, _line: &PvReport<'_>) {}

    /// The root move the search is about to search (only after a second of thinking).
    fn current_move(&mut self, _depth: i32, _mv: Move, _number: usize) {}

    /// With `Limits::show_refutations`, once for every root move after each completed depth:
    /// the line the search found against `mv` (the reply that refuted it and what followed),
    /// or for a move that leads a principal variation its continuation; empty where the
    /// search cut off before any reply (a table, null-move or futility cut).
    fn refutation(&mut self, _depth: i32, _mv: Move, _line: &[Move]) {}

    /// With `Limits::show_currline`: where the lines the threads are searching go (the search
    /// calls it from its main thread, at most ten times a second). `None` turns them off.
    fn line_sink(&mut self) -> Option<Arc<dyn LineSink>> {
        None
    }

    /// The final answer: the best move (`None` with no legal move) and the expected reply.
    /// The search itself never calls it: the caller does, once it may answer (after `stop`
    /// or `ponderhit` where the protocol says so).
    fn best_move(&mut self, _best: Option<Move>, _ponder: Option<Move>) {}
}

/// Receives the line each thread is searching (`UCI_ShowCurrLine`), the main thread's first:
/// the moves from the root to the node being searched, up to any null move.
pub trait LineSink: Send + Sync {
    fn current_lines(&self, lines: &[Vec<Move>]);
}

/// Reports nothing (bench, helper threads).
pub struct Silent;

impl Reporter for Silent {}

/// One principal variation as it was reported, kept by [`Collect`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PvLine {
    pub depth: i32,
    pub score: i32,
    /// `None` for an exact score.
    pub bound: Option<Bound>,
    pub pv: Vec<Move>,
}

impl PvLine {
    pub fn from_report(line: &PvReport<'_>) -> PvLine {
        PvLine {
            depth: line.depth,
            score: line.score,
            bound: line.bound,
            pv: line.pv.to_vec(),
        }
    }
}

/// A root move and the line reported against it at a depth (see [`Reporter::refutation`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refutation {
    pub depth: i32,
    pub mv: Move,
    pub line: Vec<Move>,
}

/// Keeps every line reported, in order (PV audits and tests).
#[derive(Default)]
pub struct Collect {
    pub lines: Vec<PvLine>,
    pub refutations: Vec<Refutation>,
}

impl Reporter for Collect {
    fn pv(&mut self, line: &PvReport<'_>) {
        self.lines.push(PvLine::from_report(line));
    }

    fn refutation(&mut self, depth: i32, mv: Move, line: &[Move]) {
        self.refutations.push(Refutation {
            depth,
            mv,
            line: line.to_vec(),
        });
    }
}

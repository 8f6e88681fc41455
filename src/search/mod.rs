//! Iterative deepening with aspiration windows, the search limits, and what is reported.
//!
//! A [`Searcher`] lives on the search thread and keeps its heuristics between searches. Each
//! `go` becomes a [`Job`]; [`Searcher::run`] deepens until a limit is reached, telling the
//! caller's [`Reporter`] each principal variation, and returns the first two moves of the last
//! one it reported, so the best move always agrees with what the GUI was shown.

mod alphabeta;
mod correction;
pub mod currline;
mod evals;
mod frame;
mod iteration;
mod node_moves;
pub mod ordering;
pub mod params;
mod pruning;
pub mod pv;
mod qsearch;
mod refutations;
pub mod report;
mod root;
pub mod see;
pub mod strength;
pub mod threads;
pub mod time;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use crate::eval::static_eval;
use crate::game::Game;
use crate::nnue::{self, Network, RefreshTable};
use crate::score::{self, DRAW, INFINITY, MATE, MAX_PLY, is_mate};
use crate::tb::{Tablebases, TbSettings};
use crate::tt::{Bound, PackedMove, TranspositionTable};
pub use alphabeta::drawn_by_repetition;
use correction::CorrectionHistory;
pub use correction::splitmix64;
use frame::Frame;
use ordering::{Heuristics, MAX_MOVES, pick_next};
use pv::PvTable;
pub use report::{Collect, LineSink, PvLine, PvReport, Refutation, Reporter, Silent};
use strength::Strength;
use time::{Clock, Progress, TimeLimits};

/// `currmove` lines are sent only after this much thinking.
const CURRMOVE_AFTER: Duration = Duration::from_secs(1);
/// Depth of the search that finds a reply for a refutation line the iteration left empty.
pub(super) const REPLY_DEPTH: i32 = 2;
/// The clock is read, and helpers report their nodes, once per this many nodes.
const CHECK_INTERVAL: u64 = 1024;

/// Flags shared between the UCI front end and the search thread.
#[derive(Default)]
pub struct SearchControl {
    /// Set by `stop` (and by any command that must interrupt the search).
    pub stop: AtomicBool,
    /// True during `go ponder` until `ponderhit`: no time limit, no early `bestmove`.
    pub pondering: AtomicBool,
    /// True during `go infinite`: no `bestmove` before `stop`.
    pub infinite: AtomicBool,
}

impl SearchControl {
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Whether a finished search must hold its `bestmove` back (infinite or ponder).
    pub fn must_wait(&self) -> bool {
        !self.stopped() && (self.pondering() || self.infinite.load(Ordering::Relaxed))
    }
}

/// What a `go` asks for, already resolved against the position.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    /// The clock of the side to move.
    pub clock: Option<Clock>,
    pub infinite: bool,
    pub ponder: bool,
    /// Restricts the root moves; empty means all.
    pub searchmoves: Vec<Move>,
    /// How many best root moves to report, each with its own line (`MultiPV`; 0 counts as 1).
    pub multipv: usize,
    /// Report a refutation line for every root move after each depth (`UCI_ShowRefutations`).
    pub show_refutations: bool,
    /// Report the line each thread is searching, ten times a second (`UCI_ShowCurrLine`).
    pub show_currline: bool,
    /// Play below full strength (`UCI_LimitStrength` and `UCI_Elo`, or `Skill Level`).
    pub strength: Option<Strength>,
    /// Syzygy tables, if loaded, and how to use them.
    pub tb: Option<Arc<Tablebases>>,
    pub tb_settings: TbSettings,
}

/// One search request.
pub struct Job {
    pub game: Game,
    pub limits: Limits,
    pub tt: Arc<TranspositionTable>,
    pub move_overhead_ms: u64,
    /// The network to evaluate with (the embedded one unless `EvalFile` named another).
    pub network: Arc<Network>,
}

/// The result of a search.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    /// The deepest ply any node of this search reached (never more than `MAX_PLY - 1`).
    pub seldepth: usize,
}

/// A root move with the effort it took in the last iteration (for ordering the next one).
#[derive(Clone, Copy)]
struct RootMove {
    mv: Move,
    nodes: u64,
}

pub struct Searcher {
    control: Arc<SearchControl>,
    /// Nodes searched by the helper threads of the current search (Lazy SMP): helpers add to
    /// it, the main searcher reports its own nodes plus these. Zero with one thread.
    pool_nodes: Arc<AtomicU64>,
    /// A helper searches silently, without time limits, until its control is stopped.
    helper: bool,
    /// The job's table during a search, `idle_tt` (one slot) between searches.
    tt: Arc<TranspositionTable>,
    idle_tt: Arc<TranspositionTable>,
    pv: PvTable,
    heur: Heuristics,
    /// Static-evaluation errors by pawn structure, added to later evaluations.
    corr: CorrectionHistory,
    /// The previous iteration's principal variation, searched first (follow-PV).
    prev_pv: Vec<Move>,
    /// Keys of the game's positions and of the current search path, for repetitions.
    keys: Vec<u64>,
    root: Chess,
    root_key: u64,
    /// Where the root's key stands in `keys`: repetitions of positions after it are draws.
    root_index: usize,
    root_moves: Vec<RootMove>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    node_limit: u64,
    time: Option<TimeLimits>,
    /// What the last iteration tells the time manager (used under a game clock).
    progress: Progress,
    /// The best move of the last completed iteration.
    last_best: Option<Move>,
    /// Start of the search (for `time` and `nps`).
    started: Instant,
    /// Start of the time-managed part (reset at `ponderhit`).
    clock_started: Instant,
    was_pondering: bool,
    /// The last line reported, and the last one with an exact score: the best move and the
    /// ponder move are the first two moves of the latter, and the search always ends with it
    /// reported last.
    last: PvLine,
    last_exact: PvLine,
    /// Order the previous iteration's PV first along its path (off only to measure its gain).
    follow_pv: bool,
    /// Score of the best root move completed in the current iteration.
    root_best: i32,
    /// MultiPV: how many lines, the line being searched (its root move stands at that index of
    /// `root_moves`, the moves of the better lines before it), and the last complete depth's
    /// lines, best first.
    multipv: usize,
    /// Syzygy tables for this search, their settings, and the probes that found an entry.
    tb: Option<Arc<Tablebases>>,
    tb_settings: TbSettings,
    tbhits: u64,
    pv_index: usize,
    prev_lines: Vec<PvLine>,
    /// The node at each ply of the current path: accumulators, static evaluation, the move
    /// played from it, the move a singular search leaves out, double extensions so far.
    stack: Vec<Frame>,
    /// The move-ordering scores of the node at each ply, kept between nodes so that no node
    /// zeroes a fresh array (a node writes the scores of its own moves before reading them).
    order_scores: Vec<[i32; MAX_MOVES]>,
    /// The network of the current search.
    net: Arc<Network>,
    /// Its king buckets' last sums, for the king moves that change bucket.
    refresh: RefreshTable,
    /// `UCI_ShowRefutations`: non-PV nodes keep their best line in the PV table too, and
    /// `refutations` holds the line found against each root move in the current iteration.
    collect_lines: bool,
    refutations: Vec<(Move, Vec<Move>)>,
    /// `UCI_ShowCurrLine`: where this thread publishes its line (and the main thread reports).
    currline: Option<Box<currline::CurrLine>>,
    /// A limited strength, and how many lines the user asked for (under a limited strength
    /// the search keeps more, to choose among).
    strength: Option<Strength>,
    shown_lines: usize,
    /// Late-move reductions by remaining depth and move index.
    lmr: Box<[[i32; 64]; 64]>,
    /// Depth of the iteration in progress (extensions stop at twice it).
    root_depth: i32,
}

/// Reductions for late quiet moves: `base + ln(depth) ln(index) / divisor` (`params::lmr_*`),
/// floored.
fn lmr_table() -> [[i32; 64]; 64] {
    let base = f64::from(params::lmr_base_centi()) / 100.0;
    let divisor = f64::from(params::lmr_divisor_centi()) / 100.0;
    let mut table = [[0; 64]; 64];
    for (depth, row) in table.iter_mut().enumerate().skip(1) {
        for (index, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (depth as f64).ln() * (index as f64).ln() / divisor) as i32;
        }
    }
    table
}

impl Searcher {
    pub fn new(control: Arc<SearchControl>) -> Searcher {
        let idle_tt = Arc::new(TranspositionTable::new(0).expect("a one-slot table"));
        Searcher {
            control,
            pool_nodes: Arc::new(AtomicU64::new(0)),
            helper: false,
            tt: Arc::clone(&idle_tt),
            idle_tt,
            pv: PvTable::new(),
            heur: Heuristics::new(),
            corr: CorrectionHistory::default(),
            prev_pv: Vec::with_capacity(MAX_PLY),
            keys: Vec::with_capacity(1024),
            root: Chess::default(),
            root_key: 0,
            root_index: 0,
            root_moves: Vec::with_capacity(256),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            node_limit: u64::MAX,
            time: None,
            progress: Progress::default(),
            last_best: None,
            started: Instant::now(),
            clock_started: Instant::now(),
            was_pondering: false,
            last: PvLine::default(),
            last_exact: PvLine::default(),
            follow_pv: true,
            root_best: -INFINITY,
            multipv: 1,
            tb: None,
            tb_settings: TbSettings::default(),
            tbhits: 0,
            pv_index: 0,
            prev_lines: Vec::new(),
            stack: frame::new_stack(),
            order_scores: vec![[0; MAX_MOVES]; MAX_PLY + 1],
            net: nnue::embedded(),
            refresh: RefreshTable::new(&nnue::embedded()),
            collect_lines: false,
            refutations: Vec::new(),
            currline: None,
            strength: None,
            shown_lines: 1,
            lmr: Box::new(lmr_table()),
            root_depth: 0,
        }
    }

    /// A searcher for a helper thread of a Lazy SMP pool: it adds its nodes to `pool_nodes`.
    pub fn new_helper(control: Arc<SearchControl>, pool_nodes: Arc<AtomicU64>) -> Searcher {
        Searcher {
            pool_nodes,
            helper: true,
            ..Searcher::new(control)
        }
    }

    /// The main searcher of a pool: its reports include the helpers' `pool_nodes`.
    pub fn with_pool_nodes(mut self, pool_nodes: Arc<AtomicU64>) -> Searcher {
        self.pool_nodes = pool_nodes;
        self
    }

    /// Forgets everything learnt from earlier searches (`ucinewgame`).
    pub fn clear(&mut self) {
        self.heur.clear();
        self.corr.clear();
    }

    /// Turns follow-PV ordering on or off (on by default; off only to measure what it saves).
    pub fn set_follow_pv(&mut self, on: bool) {
        self.follow_pv = on;
    }

    /// Runs one search to completion (or until stopped), reporting to `report` as it goes,
    /// and returns its result. (The caller reports the best move when it may answer.)
    pub fn run(&mut self, job: Job, report: &mut dyn Reporter) -> Outcome {
        let outcome = self.search(job, report);
        // Hold no real table between searches: a Hash resize then frees the old one at once.
        self.tt = Arc::clone(&self.idle_tt);
        outcome
    }

    /// A silent search of `game` to `nodes` nodes with `tt`, as `datagen` and `rescore` run
    /// them.
    pub fn run_nodes(&mut self, game: &Game, nodes: u64, tt: &Arc<TranspositionTable>) -> Outcome {
        self.run(
            Job {
                game: game.clone(),
                limits: Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                },
                tt: Arc::clone(tt),
                move_overhead_ms: 0,
                network: Arc::clone(&self.net),
            },
            &mut Silent,
        )
    }

    fn search(&mut self, job: Job, report: &mut dyn Reporter) -> Outcome {
        // A tuning build may have new reduction parameters since the last search.
        #[cfg(feature = "tune")]
        {
            *self.lmr = lmr_table();
        }
        self.prepare(&job);
        let in_check = self.root.is_check();
        if self.root_moves.is_empty() {
            // Checkmate or stalemate at the root: report the final score, no move.
            let score = if in_check { -MATE } else { DRAW };
            self.send_info(report, 0, score, None, &[]);
            return Outcome {
                score,
                ..Outcome::default()
            };
        }

        let max_depth = job
            .limits
            .depth
            .map_or(MAX_PLY as i32 - 1, |d| {
                (d as i32).clamp(1, MAX_PLY as i32 - 1)
            })
            .min(self.strength.map_or(i32::MAX, |s| s.depth() as i32));
        let mut score = 0;
        let mut completed = 0;
        for depth in 1..=max_depth {
            let nodes_before = self.nodes;
            let s = if self.multipv > 1 {
                match self.search_lines(report, depth) {
                    Some(s) => s,
                    None => break,
                }
            } else {
                let s = self.aspiration(report, depth, score);
                if self.stopped {
                    break;
                }
                s
            };
            // Every root move ended in a draw by rule without a node searched: deeper
            // iterations cannot change anything and would only flood the GUI with lines (an
            // explicit `go depth` is still searched to its depth).
            let settled = self.nodes == nodes_before && job.limits.depth.is_none();
            self.note_progress(depth, score, s);
            score = s;
            completed = depth;
            if self.multipv == 1 {
                let line: Vec<Move> = self.pv.row(0).to_vec();
                if !self.is_reported(depth, score, &line) {
                    self.send_info(report, depth, score, None, &line);
                }
                self.prev_pv.clear();
                self.prev_pv.extend_from_slice(&line);
            }
            if self.collect_lines {
                self.report_refutations(report, depth);
            }
            if settled || self.done_after_iteration(&job.limits, depth, score) {
                break;
            }
        }
        if self.last_exact.pv.is_empty() {
            self.report_fallback(report, completed.max(1));
        } else if self.last.bound.is_some() {
            // Stopped after an aspiration failure: end on the last exact line.
            let exact = std::mem::take(&mut self.last_exact);
            self.send_info(report, exact.depth, exact.score, None, &exact.pv);
        }
        self.play_at_strength(report);
        Outcome {
            best: self.last_exact.pv.first().copied(),
            ponder: self.last_exact.pv.get(1).copied(),
            score: self.last_exact.score,
            depth: completed,
            nodes: self.nodes,
            seldepth: self.seldepth,
        }
    }

    /// Resets per-search state and builds the root move list.
    fn prepare(&mut self, job: &Job) {
        self.tt = Arc::clone(&job.tt);
        self.net = Arc::clone(&job.network);
        self.refresh = RefreshTable::new(&self.net);
        self.collect_lines = job.limits.show_refutations && !self.helper;
        self.refutations.clear();
        // One new age per search, however many threads share the table.
        if !self.helper {
            self.tt.new_search();
        }
        self.heur.clear_killers();
        self.root = job.game.pos().clone();
        self.root_key = job.game.key();
        self.keys.clear();
        self.keys.extend_from_slice(job.game.history());
        self.root_index = self.keys.len();
        self.prev_pv.clear();
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.last = PvLine::default();
        self.last_exact = PvLine::default();
        self.strength = job.limits.strength;
        self.node_limit = job
            .limits
            .nodes
            .unwrap_or(u64::MAX)
            .min(self.strength.map_or(u64::MAX, Strength::nodes));
        self.shown_lines = job.limits.multipv.max(1);
        self.multipv = match self.strength {
            Some(s) => self.shown_lines.max(s.candidates()),
            None => self.shown_lines,
        };
        self.tb = job.limits.tb.clone();
        self.tb_settings = job.limits.tb_settings;
        self.tbhits = 0;
        self.pv_index = 0;
        self.prev_lines.clear();
        self.started = Instant::now();
        self.clock_started = self.started;
        self.was_pondering = job.limits.ponder;
        self.last_best = None;
        self.progress = Progress::default();
        self.time = if job.limits.infinite {
            None
        } else if let Some(mt) = job.limits.movetime {
            Some(time::for_movetime(mt))
        } else {
            job.limits
                .clock
                .map(|c| time::for_clock(c, job.move_overhead_ms))
        };

        // Root moves in the order of a depth-0 search: TT move, captures, history.
        let mut moves = self.root.legal_moves();
        if !job.limits.searchmoves.is_empty() {
            moves.retain(|m| job.limits.searchmoves.contains(m));
        }
        // In tablebase territory only the moves that keep the tablebase result are searched.
        if let Some(tables) = &self.tb
            && tables.covers(&self.root, self.tb_settings.probe_limit)
            && let Some((keep, _)) = tables.root_moves(&self.root, self.tb_settings.rule50)
        {
            self.tbhits += 1;
            if moves.iter().any(|m| keep.contains(m)) {
                moves.retain(|m| keep.contains(m));
            }
        }
        let tt_move = self
            .tt
            .probe(self.root_key)
            .map_or(PackedMove::NONE, |e| e.mv);
        let mut scores = [0i32; MAX_MOVES];
        let threats = ordering::threats(&self.root);
        self.heur.score_moves(
            &self.root,
            threats,
            &moves,
            &mut scores,
            0,
            None,
            tt_move,
            [None; 2],
        );
        self.root_moves.clear();
        for i in 0..moves.len() {
            let mv = pick_next(&mut moves, &mut scores, i);
            self.root_moves.push(RootMove { mv, nodes: 0 });
        }
    }

    /// Whether the search should end after completing `depth` with `score`.
    fn done_after_iteration(&mut self, limits: &Limits, depth: i32, score: i32) -> bool {
        if let Some(n) = limits.mate
            && let Some(moves) = score::mate_in_moves(score)
            && moves > 0
            && moves <= n as i32
        {
            return true;
        }
        // On the clock, a mate found well within the searched depth ends the search: deeper
        // iterations could only shorten it through moves the pruning skipped, which is not
        // worth the game's time. A search to a depth, node count or move time goes on, so
        // the shortest mate it can see is found.
        if limits.clock.is_some() && is_mate(score) && depth > MATE - score.abs() + 2 {
            return true;
        }
        if self.root_moves.len() == 1 && self.time.is_some() && limits.clock.is_some() {
            return true;
        }
        match self.time {
            Some(t) if !self.control.pondering() => {
                self.note_ponderhit();
                // Under a game clock, a settled search stops sooner and a troubled one later.
                let soft =
                    if limits.clock.is_some() && limits.movetime.is_none() && self.multipv == 1 {
                        t.soft.mul_f64(time::soft_scale(self.progress)).min(t.hard)
                    } else {
                        t.soft
                    };
                self.clock_started.elapsed() >= soft
            }
            _ => false,
        }
    }

    /// Updates what the time manager knows after completing `depth` with `score` (the
    /// previous depth ended with `prev`).
    fn note_progress(&mut self, depth: i32, prev: i32, score: i32) {
        let best = self.pv.row(0).first().copied();
        // `last_best` is reset for each search, so a first iteration never counts as kept.
        let kept = best.is_some() && best == self.last_best;
        self.last_best = best;
        self.progress.stability = if kept { self.progress.stability + 1 } else { 0 };
        let first = self.pv_index;
        let total: u64 = self.root_moves[first..].iter().map(|r| r.nodes).sum();
        self.progress.best_share = match self.root_moves.get(first) {
            Some(r) if total > 0 && Some(r.mv) == best => r.nodes as f64 / total as f64,
            _ => 0.0,
        };
        self.progress.score_drop = if depth > 1 && !is_mate(prev) && !is_mate(score) {
            (prev - score).max(0)
        } else {
            0
        };
    }

    /// Restarts the time-managed clock once when a ponder search becomes a normal one.
    fn note_ponderhit(&mut self) {
        if self.was_pondering {
            self.was_pondering = false;
            self.clock_started = Instant::now();
        }
    }

    /// Counts a node and reports whether the search must unwind now.
    #[inline]
    fn abort_check(&mut self, ply: usize) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
            return true;
        }
        self.nodes += 1;
        // The stop flag is read at every node, so `bestmove` follows `stop` at once: a relaxed
        // load of a flag that is written once per search costs next to nothing.
        let clock_due = self.nodes.is_multiple_of(CHECK_INTERVAL);
        if clock_due && self.helper {
            self.pool_nodes.fetch_add(CHECK_INTERVAL, Ordering::Relaxed);
        }
        if clock_due && self.currline.is_some() {
            self.publish_line(ply);
        }
        if self.control.stopped() {
            self.stopped = true;
        } else if clock_due
            && let Some(t) = self.time
            && !self.control.pondering()
        {
            self.note_ponderhit();
            if self.clock_started.elapsed() >= t.hard {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Nodes of this search on every thread (as far as the helpers have reported them).
    fn total_nodes(&self) -> u64 {
        if self.helper {
            self.nodes
        } else {
            self.nodes + self.pool_nodes.load(Ordering::Relaxed)
        }
    }

    fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    fn is_reported(&self, depth: i32, score: i32, line: &[Move]) -> bool {
        let r = &self.last;
        r.depth == depth && r.score == score && r.bound.is_none() && r.pv == line
    }

    /// Reports the first (or only) principal variation; see [`Searcher::send_line`].
    fn send_info(
        &mut self,
        report: &mut dyn Reporter,
        depth: i32,
        score: i32,
        bound: Option<Bound>,
        line: &[Move],
    ) {
        self.send_line(report, 1, depth, score, bound, line);
    }

    /// Reports principal variation number `multipv`; line 1 is remembered, as the best move
    /// and the ponder move come from it.
    fn send_line(
        &mut self,
        report: &mut dyn Reporter,
        multipv: usize,
        depth: i32,
        score: i32,
        bound: Option<Bound>,
        line: &[Move],
    ) {
        let entry = PvLine {
            depth,
            score,
            bound,
            pv: line.to_vec(),
        };
        if multipv == 1 {
            if bound.is_none() {
                self.last_exact.clone_from(&entry);
            }
            self.last.clone_from(&entry);
        }
        report.pv(&PvReport {
            multipv,
            depth,
            seldepth: self.seldepth.max(depth.max(0) as usize),
            score,
            bound,
            nodes: self.total_nodes(),
            elapsed: self.elapsed(),
            tt: &self.tt,
            tbhits: self.tb.as_ref().map(|_| self.tbhits),
            pv: line,
        });
    }

    /// Under a limited strength: chooses the move to play among the last complete depth's
    /// lines and, if it is not the best one, reports its line last, so that the best move
    /// comes from it as always.
    fn play_at_strength(&mut self, report: &mut dyn Reporter) {
        let Some(strength) = self.strength else {
            return;
        };
        let seed = splitmix64(self.root_key ^ (u64::from(strength.elo()) << 48));
        let chosen = strength.pick(&self.prev_lines, seed);
        if chosen > 0
            && let Some(line) = self.prev_lines.get(chosen).cloned()
        {
            self.send_info(report, line.depth, line.score, None, &line.pv);
        }
    }

    /// When stopped before any line was shown: show the best root move known so far.
    fn report_fallback(&mut self, report: &mut dyn Reporter, depth: i32) {
        let line: Vec<Move> = if self.pv.row(0).is_empty() {
            vec![self.root_moves[0].mv]
        } else {
            self.pv.row(0).to_vec()
        };
        let score = if self.pv.row(0).is_empty() {
            static_eval(&self.net, &self.root)
        } else {
            self.root_best
        };
        self.send_info(report, depth, score, None, &line);
    }
}

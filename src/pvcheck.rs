//! `pv-check`: audits the principal variations Pivot reports — every move legal, exact lines
//! as long as their depth, and the leaf of each iteration's final PV reproducing its score.

use std::sync::Arc;

use shakmaty::{CastlingMode, Move, Position};

use crate::eval::static_eval;
use crate::game::Game;
use crate::nnue;
use crate::score::{DRAW, mate_in_moves};
use crate::search::{
    Collect, Job, Limits, PvLine, Refutation, SearchControl, Searcher, drawn_by_repetition,
};
use crate::tt::TranspositionTable;

/// How long each position is searched.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    Depth(u32),
    MoveTimeMs(u64),
}

/// Counts over all audited positions.
#[derive(Clone, Debug, Default)]
pub struct Audit {
    pub positions: usize,
    /// Every `info … pv` line.
    pub lines: usize,
    /// Lines with a move that is not legal where it stands.
    pub illegal: usize,
    /// Exact (non-bound) lines, and those shorter than their depth although the game goes on.
    pub exact: usize,
    pub short: usize,
    /// Exact lines shorter than their depth whose last move ends the game.
    pub short_game_over: usize,
    /// Final PVs of completed iterations with centipawn scores, and those whose leaf evaluation
    /// (0 for a drawn leaf) equals the reported score.
    pub final_cp: usize,
    pub sound: usize,
    /// Final PVs with mate scores, and those ending in checkmate after exactly the announced
    /// number of plies.
    pub final_mate: usize,
    pub mate_complete: usize,
    /// Refutation lines (`UCI_ShowRefutations`, one per root move and depth), those with a
    /// move that is not legal, those without a reply, and their moves in all.
    pub refutations: usize,
    pub refutations_illegal: usize,
    pub refutations_empty: usize,
    pub refutation_moves: usize,
    /// Refutation lines of three moves or more.
    pub refutations_long: usize,
    /// A few descriptions of failures, for the report.
    pub examples: Vec<String>,
}

/// The position at the end of a PV, or the index of its first illegal move.
struct Replay {
    leaf: Game,
    /// The leaf is checkmate.
    mated: bool,
    /// The leaf is drawn by rule (stalemate, fifty moves, repetition, insufficient material),
    /// as the search scores it.
    drawn: bool,
}

fn replay(root: &Game, pv: &[Move]) -> Result<Replay, usize> {
    // The root's key stands after the game's earlier positions in the leaf's history.
    let root_index = root.history().len();
    let mut game = root.clone();
    for (i, &m) in pv.iter().enumerate() {
        if !game.pos().is_legal(m) {
            return Err(i);
        }
        game.play(m);
    }
    let pos = game.pos();
    let no_moves = pos.legal_moves().is_empty();
    let mated = no_moves && pos.is_check();
    let drawn = !mated
        && (no_moves
            || pos.halfmoves() >= 100
            || pos.is_insufficient_material()
            || drawn_by_repetition(game.history(), game.key(), pos.halfmoves(), root_index));
    Ok(Replay {
        leaf: game,
        mated,
        drawn,
    })
}

fn describe(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl Audit {
    /// Checks every line one search printed from `root`.
    pub fn add(&mut self, name: &str, root: &Game, lines: &[PvLine]) {
        self.positions += 1;
        for line in lines {
            self.lines += 1;
            let replayed = match replay(root, &line.pv) {
                Ok(r) => r,
                Err(i) => {
                    self.illegal += 1;
                    self.example(format!(
                        "{name}: illegal move {i} in pv {}",
                        describe(&line.pv)
                    ));
                    continue;
                }
            };
            if line.bound.is_some() {
                continue;
            }
            self.exact += 1;
            if (line.pv.len() as i32) < line.depth {
                if replayed.mated || replayed.drawn {
                    self.short_game_over += 1;
                } else {
                    self.short += 1;
                    self.example(format!(
                        "{name}: depth {} pv has {} moves: {}",
                        line.depth,
                        line.pv.len(),
                        describe(&line.pv)
                    ));
                }
            }
        }
        // The final line of each completed depth (lines arrive in depth order).
        let finals = lines.iter().enumerate().filter(|(i, l)| {
            l.bound.is_none()
                && !lines[i + 1..]
                    .iter()
                    .any(|later| later.bound.is_none() && later.depth == l.depth)
        });
        for (_, line) in finals {
            let Ok(replayed) = replay(root, &line.pv) else {
                continue;
            };
            match mate_in_moves(line.score) {
                Some(n) => {
                    self.final_mate += 1;
                    let plies = if n > 0 { 2 * n - 1 } else { -2 * n };
                    if replayed.mated && line.pv.len() as i32 == plies {
                        self.mate_complete += 1;
                    } else {
                        self.example(format!(
                            "{name}: depth {} mate {n} but pv ({} plies{}) {}",
                            line.depth,
                            line.pv.len(),
                            if replayed.mated { ", mate" } else { "" },
                            describe(&line.pv)
                        ));
                    }
                }
                None => {
                    self.final_cp += 1;
                    let leaf_score = if replayed.drawn {
                        DRAW
                    } else {
                        static_eval(nnue::network(), replayed.leaf.pos())
                    };
                    let expected = if line.pv.len() % 2 == 0 {
                        leaf_score
                    } else {
                        -leaf_score
                    };
                    if expected == line.score {
                        self.sound += 1;
                    } else {
                        self.example(format!(
                            "{name}: depth {} score {} but leaf gives {expected}: {}",
                            line.depth,
                            line.score,
                            describe(&line.pv)
                        ));
                    }
                }
            }
        }
    }

    /// Checks every refutation line one search reported from `root`: the root move and the
    /// line after it legal in turn.
    pub fn add_refutations(&mut self, name: &str, root: &Game, refutations: &[Refutation]) {
        for r in refutations {
            self.refutations += 1;
            self.refutation_moves += r.line.len();
            if r.line.is_empty() {
                self.refutations_empty += 1;
            }
            if r.line.len() >= 3 {
                self.refutations_long += 1;
            }
            let mut full = vec![r.mv];
            full.extend_from_slice(&r.line);
            if let Err(i) = replay(root, &full) {
                self.refutations_illegal += 1;
                self.example(format!(
                    "{name}: depth {} illegal move {i} in refutation {}",
                    r.depth,
                    describe(&full)
                ));
            }
        }
    }

    fn example(&mut self, text: String) {
        if self.examples.len() < 20 {
            self.examples.push(text);
        }
    }

    /// The summary printed by `pivot pv-check`.
    pub fn summary(&self) -> Vec<String> {
        let pct = |a: usize, b: usize| {
            if b == 0 {
                100.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        [
            format!("positions {}", self.positions),
            format!("pv lines {}, illegal {}", self.lines, self.illegal),
            format!(
                "exact lines {}, shorter than their depth {} (and {} that end the game)",
                self.exact, self.short, self.short_game_over
            ),
            format!(
                "final cp PVs sound {}/{} ({:.1} %)",
                self.sound,
                self.final_cp,
                pct(self.sound, self.final_cp)
            ),
            format!(
                "final mate PVs complete {}/{}",
                self.mate_complete, self.final_mate
            ),
        ]
        .into_iter()
        .chain((self.refutations > 0).then(|| {
            format!(
                "refutation lines {}, illegal {}, without a reply {}, mean length {:.1} moves, \
                 3 moves or more {:.1} %",
                self.refutations,
                self.refutations_illegal,
                self.refutations_empty,
                self.refutation_moves as f64 / self.refutations as f64,
                pct(self.refutations_long, self.refutations)
            )
        }))
        .collect()
    }
}

/// A position from an EPD or FEN line: its first four fields (plus counters when given).
pub fn parse_epd_position(line: &str) -> Result<Game, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!("not an EPD line: '{line}'"));
    }
    let counters = match fields.get(4..6) {
        Some(c) if c.iter().all(|f| f.parse::<u32>().is_ok()) => c.join(" "),
        _ => "0 1".to_string(),
    };
    Game::from_fen(&format!("{} {counters}", fields[..4].join(" "))).map(|(g, _)| g)
}

/// Searches `root` with `budget` and returns the lines the search reported.
pub fn search_lines(
    searcher: &mut Searcher,
    tt: &Arc<TranspositionTable>,
    root: &Game,
    budget: Budget,
) -> Vec<PvLine> {
    search(searcher, tt, root, budget, false).lines
}

/// Searches `root` with `budget` from a clear table and returns everything the search
/// reported, with a refutation line for every root move and depth if `refutations`.
pub fn search(
    searcher: &mut Searcher,
    tt: &Arc<TranspositionTable>,
    root: &Game,
    budget: Budget,
    refutations: bool,
) -> Collect {
    tt.clear();
    searcher.clear();
    let limits = match budget {
        Budget::Depth(d) => Limits {
            depth: Some(d),
            show_refutations: refutations,
            ..Limits::default()
        },
        Budget::MoveTimeMs(ms) => Limits {
            movetime: Some(ms),
            show_refutations: refutations,
            ..Limits::default()
        },
    };
    let mut collect = Collect::default();
    let job = Job {
        game: root.clone(),
        limits,
        tt: Arc::clone(tt),
        move_overhead_ms: 0,
        network: nnue::embedded(),
    };
    searcher.run(job, &mut collect);
    collect
}

/// Audits every position of an EPD text (lines starting with `#` are skipped); with
/// `refutations`, the searches also report a refutation line for every root move and depth
/// (`UCI_ShowRefutations`), audited too.
pub fn run(epd: &str, budget: Budget, hash_mb: usize, refutations: bool) -> Result<Audit, String> {
    let control = Arc::new(SearchControl::default());
    let tt = Arc::new(TranspositionTable::new(hash_mb)?);
    let mut searcher = Searcher::new(control);
    let mut audit = Audit::default();
    for (number, line) in epd.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let root = parse_epd_position(line).map_err(|e| format!("line {}: {e}", number + 1))?;
        let found = search(&mut searcher, &tt, &root, budget, refutations);
        let name = format!("line {}", number + 1);
        audit.add(&name, &root, &found.lines);
        audit.add_refutations(&name, &root, &found.refutations);
    }
    Ok(audit)
}

//! Principal variation search: the root move loop and the recursive negamax.

use shakmaty::{Chess, Move, MoveList, Position, Role};

use super::ordering::{MAX_MOVES, is_good_tactical, is_plain_quiet, pick_next};
use super::params::{
    DOUBLE_EXTENSION_LIMIT, DOUBLE_EXTENSION_MARGIN, FUTILITY_BASE, FUTILITY_MARGIN,
    FUTILITY_MAX_DEPTH, IIR_MIN_DEPTH, LMP_BASE, LMP_MAX_DEPTH, LMR_MIN_DEPTH, LMR_MIN_INDEX,
    LMR_MIN_INDEX_PV, NULL_MOVE_BASE_REDUCTION, NULL_MOVE_DEPTH_DIVISOR, NULL_MOVE_MIN_DEPTH,
    QUIET_SEE_MARGIN, RFP_MARGIN, RFP_MAX_DEPTH, SEE_PRUNE_MARGIN, SEE_PRUNE_MAX_DEPTH,
    SINGULAR_MARGIN, SINGULAR_MIN_DEPTH, SINGULAR_TT_DEPTH_GAP,
};
use super::see::see_ge;
use super::{CURRMOVE_AFTER, Reporter, Searcher};
use crate::game::{key_after, key_of, repeats};
use crate::nnue::{self, Accumulator};
use crate::score::MAX_PLY;
use crate::score::{DRAW, INFINITY, MATE, MATE_BOUND, NO_EVAL, TB_WIN};
use crate::tb;
use crate::tt::{Bound, PackedMove, TtEntry, score_from_tt, score_to_tt};

impl Searcher {
    /// Searches every root move at `depth` within (alpha, beta). The first move gets the full
    /// window, the rest a null window with a re-search when they beat alpha. Whenever the root
    /// PV changes (a new best move, or a new line for the first move) an `info` line goes out
    /// at once.
    pub(super) fn search_root(
        &mut self,
        report: &mut dyn Reporter,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv.clear_row(0);
        self.root_best = -INFINITY;
        self.root_depth = depth;
        self.evals[0] = NO_EVAL;
        self.double_extensions[1] = 0;
        let root = self.root.clone();
        self.accs[0] = Accumulator::from_position(nnue::network(), &root);
        let root_key = self.root_key;
        self.keys.push(root_key);
        // Under MultiPV, the moves of the lines already found at this depth stand before
        // `first` and are left out.
        let first = self.pv_index;
        let follow = self.prev_pv.first().copied().filter(|_| self.follow_pv);
        // Search the previous iteration's best move first.
        if let Some(lead) = follow
            && let Some(i) = self.root_moves[first..].iter().position(|r| r.mv == lead)
        {
            self.root_moves[first..=first + i].rotate_right(1);
        }
        let mut best = -INFINITY;
        for i in first..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if self.elapsed() >= CURRMOVE_AFTER {
                report.current_move(depth, m, i + 1);
            }
            let mut child = root.clone();
            child.play_unchecked(m);
            let child_key = key_after(&root, root_key, m, &child);
            self.tt.prefetch(child_key);
            self.push_accumulator(0, &root, &m);
            self.path_moves[0] = Some(m);
            let follows = follow == Some(m);
            let nodes_before = self.nodes;
            // Searches the child with the parent's window (lo, hi).
            let search = |s: &mut Searcher, lo: i32, hi: i32, pv: bool| {
                -s.negamax(&child, child_key, depth - 1, -hi, -lo, 1, pv, follows)
            };
            let score = if i == first {
                search(self, alpha, beta, true)
            } else {
                let s = search(self, alpha, alpha + 1, false);
                if s > alpha && !self.stopped {
                    search(self, alpha, beta, true)
                } else {
                    s
                }
            };
            self.root_moves[i].nodes = self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                self.pv.update(0, m);
                self.root_best = score;
                // The new best move leads the next iteration.
                self.root_moves[first..=i].rotate_right(1);
                if score >= beta {
                    break;
                }
                alpha = score;
                // The root PV changed: a new best move, or a new line for the first one.
                // (MultiPV lines go out together once the depth is complete.)
                if self.multipv == 1 && (i > 0 || self.pv.row(0) != self.last.pv.as_slice()) {
                    let line: Vec<Move> = self.pv.row(0).to_vec();
                    self.send_info(report, depth, score, None, &line);
                }
            }
        }
        self.keys.pop();
        // The rest by effort spent, most first: a stable sort keeps the best move in front.
        if self.root_moves.len() > first + 2 {
            self.root_moves[first + 1..].sort_by_key(|r| std::cmp::Reverse(r.nodes));
        }
        best
    }

    /// Negamax alpha-beta with PVS. `pv_node` marks nodes searched with an open window;
    /// `follow` says the path so far equals the previous PV's prefix.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        follow: bool,
    ) -> i32 {
        self.pv.clear_row(ply);
        let in_check = pos.is_check();
        // Check extension.
        let depth = if in_check { depth + 1 } else { depth };
        // Draws by rule first, also where quiescence takes over: a quiet move of the main
        // search may have repeated a position, and a PV must not end in an unnoticed draw.
        if let Some(score) = self.draw_score(pos, key, in_check) {
            return score;
        }
        if depth <= 0 {
            return self.qsearch(pos, key, alpha, beta, ply, pv_node);
        }
        if self.abort_check() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.incremental_eval(pos, ply);
        }
        // Mate-distance pruning: no line from here beats a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // A singular-extension search of this node leaves one move out: its result must not
        // come from or go into the table (so it has no entry and starts no singular search of
        // its own), and no pruning before the moves applies to it.
        let excluded = self.excluded[ply];
        let entry = if excluded.is_none() {
            self.tt.probe(key)
        } else {
            None
        };
        let tt_move = entry.map_or(PackedMove::NONE, |e| e.mv);
        if let Some(e) = entry
            && !pv_node
            && e.depth >= depth
        {
            let s = score_from_tt(e.score, ply);
            if e.bound.cuts(s, alpha, beta) {
                return s;
            }
        }

        // Tablebases, right after a capture or pawn move (where the WDL tables are exact). PV
        // nodes are searched on, so that the PV stays a full line of real moves.
        if !pv_node
            && excluded.is_none()
            && depth >= self.tb_settings.probe_depth
            && pos.halfmoves() == 0
            && let Some(tables) = &self.tb
            && tables.covers(pos, self.tb_settings.probe_limit)
            && let Some(wdl) = tables.probe_wdl(pos)
        {
            self.tbhits += 1;
            let score = tb::score(wdl, ply, self.tb_settings.rule50);
            let bound = if score > DRAW + 1 {
                Bound::Lower
            } else if score < DRAW - 1 {
                Bound::Upper
            } else {
                Bound::Exact
            };
            if bound.cuts(score, alpha, beta) {
                self.tt.store(
                    key,
                    PackedMove::NONE,
                    score_to_tt(score, ply),
                    (depth + 6).min(MAX_PLY as i32),
                    bound,
                    NO_EVAL,
                );
                return score;
            }
        }

        // Internal iterative reduction: off the PV, a deep node without a move from the TT is
        // searched a ply shallower; the best move it stores leads the next visit.
        let iir =
            !pv_node && excluded.is_none() && depth >= IIR_MIN_DEPTH && tt_move == PackedMove::NONE;
        let depth = depth - i32::from(iir);

        // The static evaluation, and whether it rose since our previous move (two plies up;
        // unknown counts as not improving).
        // (A singular-extension search reuses the one its own node just stored.) The table
        // keeps the network's own evaluation; off the PV the search uses it corrected by the
        // errors found in positions with the same pawns. (On the PV it stays as it is, so that
        // a PV's score is the evaluation of its last position.)
        let (raw_eval, static_eval) = if excluded.is_some() {
            (NO_EVAL, self.evals[ply])
        } else {
            let raw = self.node_static_eval(pos, ply, entry, in_check);
            (raw, self.search_eval(pos, raw, pv_node))
        };
        self.evals[ply] = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.evals[ply - 2] != NO_EVAL
            && static_eval > self.evals[ply - 2];
        // For pruning, a stored score whose bound lies beyond the static evaluation in its own
        // direction is the better estimate.
        let eval = match entry {
            Some(e) if !in_check => {
                let s = score_from_tt(e.score, ply);
                if e.bound.cuts(s, static_eval, static_eval) && s.abs() < MATE_BOUND {
                    s
                } else {
                    static_eval
                }
            }
            _ => static_eval,
        };

        // Reverse futility pruning: far enough above beta, a quiet position keeps its margin.
        if !pv_node
            && !in_check
            && excluded.is_none()
            && depth <= RFP_MAX_DEPTH
            && beta.abs() < MATE_BOUND
            && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
        {
            return eval;
        }

        // Null-move pruning: if passing still fails high, a real move will too (zugzwang aside,
        // hence only with pieces besides pawns).
        if !pv_node
            && !in_check
            && depth >= NULL_MOVE_MIN_DEPTH
            && excluded.is_none()
            && self.path_moves[ply - 1].is_some()
            && beta.abs() < MATE_BOUND
            && has_pieces(pos)
            && eval >= beta
            && let Ok(passed) = pos.clone().swap_turn()
        {
            let r = NULL_MOVE_BASE_REDUCTION + depth / NULL_MOVE_DEPTH_DIVISOR;
            let passed_key = key_of(&passed);
            self.tt.prefetch(passed_key);
            self.keys.push(key);
            self.path_moves[ply] = None;
            self.accs[ply + 1] = self.accs[ply];
            self.double_extensions[ply + 1] = self.double_extensions[ply];
            let score = -self.negamax(
                &passed,
                passed_key,
                depth - 1 - r,
                -beta,
                -beta + 1,
                ply + 1,
                false,
                false,
            );
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if score >= beta {
                return if score >= MATE_BOUND { beta } else { score };
            }
        }

        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }

        // Singular extension: when the TT move's lower bound stands and every other move, at
        // half the depth, fails low against a margin below it, the TT move is the only good one
        // and is searched a ply deeper. When the others reach beta even with the margin, several
        // moves refute the parent and a non-PV node returns at once (multi-cut).
        // The TT move's extension: +1 when singular, +2 when clearly so (off the PV, a few times
        // a path), −1 when not singular but its score already beats beta elsewhere.
        let mut extended_move = None;
        let mut tt_extension = 0;
        if let Some(e) = entry
            && depth >= SINGULAR_MIN_DEPTH
            && ply < 2 * self.root_depth as usize
            && matches!(e.bound, Bound::Lower | Bound::Exact)
            && e.depth >= depth - SINGULAR_TT_DEPTH_GAP
            && let tt_score = score_from_tt(e.score, ply)
            && tt_score.abs() < MATE_BOUND
            && let Some(&candidate) = moves.iter().find(|m| tt_move.matches(**m))
        {
            let singular_beta = tt_score - SINGULAR_MARGIN * depth;
            self.excluded[ply] = Some(candidate);
            let score = self.negamax(
                pos,
                key,
                (depth - 1) / 2,
                singular_beta - 1,
                singular_beta,
                ply,
                false,
                false,
            );
            self.excluded[ply] = None;
            if self.stopped {
                return 0;
            }
            extended_move = Some(candidate);
            if score < singular_beta {
                tt_extension = if !pv_node
                    && score < singular_beta - DOUBLE_EXTENSION_MARGIN
                    && self.double_extensions[ply] < DOUBLE_EXTENSION_LIMIT
                {
                    2
                } else {
                    1
                };
            } else if !pv_node && singular_beta >= beta {
                return singular_beta;
            } else if tt_score >= beta {
                tt_extension = -1;
            }
        }

        let follow_move = if follow {
            self.prev_pv.get(ply).copied()
        } else {
            None
        };
        let prev_move = self.path_moves[ply - 1];
        let mut scores = [0i32; MAX_MOVES];
        self.heur.score_moves(
            pos,
            &moves,
            &mut scores,
            ply,
            follow_move,
            tt_move,
            prev_move,
        );

        let mut best_score = -INFINITY;
        let mut best_move: Option<Move> = None;
        let mut raised_alpha = false;
        let mut quiets_tried = MoveList::new();
        // Shallow non-PV nodes out of check may skip quiet moves that cannot matter: past a
        // move count (late-move pruning), or when even a margin above the static evaluation
        // stays below alpha (futility pruning).
        let may_prune = !pv_node && !in_check;
        let lmp_limit = ((LMP_BASE + depth * depth) / (2 - i32::from(improving))) as usize;
        let futile =
            depth <= FUTILITY_MAX_DEPTH && eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha;
        self.keys.push(key);
        for i in 0..moves.len() {
            let m = pick_next(&mut moves, &mut scores, i);
            if excluded == Some(m) {
                continue;
            }
            let quiet = !m.is_capture() && m.promotion().is_none();
            // Shallow moves that lose material in the exchange on their target square are
            // skipped: captures losing more than a pawn a ply, quiets more than
            // `QUIET_SEE_MARGIN` a ply. A capture that passed the exchange test for ordering
            // passes it here too. Quiet moves past the late-move or futility limit go unless they
            // give check, which needs the move played, so their exchange test waits for that.
            let see_margin = if quiet {
                QUIET_SEE_MARGIN
            } else {
                SEE_PRUNE_MARGIN
            };
            let may_see_prune = may_prune
                && depth <= SEE_PRUNE_MAX_DEPTH
                && best_score > -MATE_BOUND
                && !is_good_tactical(scores[i]);
            let past_limit = may_prune
                && quiet
                && best_score > -MATE_BOUND
                && ((depth <= LMP_MAX_DEPTH && quiets_tried.len() >= lmp_limit) || futile);
            let loses_exchange = || may_see_prune && !see_ge(pos, m, -see_margin * depth);
            if !past_limit && loses_exchange() {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            if past_limit && (!child.is_check() || loses_exchange()) {
                continue;
            }
            let child_key = key_after(pos, key, m, &child);
            self.tt.prefetch(child_key);
            self.push_accumulator(ply, pos, &m);
            let child_follow = follow_move == Some(m);
            self.path_moves[ply] = Some(m);
            let extension = if extended_move == Some(m) {
                tt_extension
            } else {
                0
            };
            let new_depth = depth - 1 + extension;
            self.double_extensions[ply + 1] =
                self.double_extensions[ply] + u8::from(extension == 2);
            // Late-move reduction for quiet moves ordered late.
            let min_index = if pv_node {
                LMR_MIN_INDEX_PV
            } else {
                LMR_MIN_INDEX
            };
            let reduction = if depth >= LMR_MIN_DEPTH
                && i >= min_index
                && !in_check
                && is_plain_quiet(scores[i])
                && !child.is_check()
            {
                let r = self.lmr[(depth as usize).min(63)][i.min(63)] - i32::from(pv_node);
                r.clamp(0, depth - 2)
            } else {
                0
            };
            // Searches the child to depth `d` with the parent's window (lo, hi).
            let search = |s: &mut Searcher, d: i32, lo: i32, hi: i32, pv: bool| {
                -s.negamax(&child, child_key, d, -hi, -lo, ply + 1, pv, child_follow)
            };
            let score = if best_move.is_none() {
                search(self, new_depth, alpha, beta, pv_node)
            } else {
                let mut s = search(self, new_depth - reduction, alpha, alpha + 1, false);
                if reduction > 0 && s > alpha && !self.stopped {
                    s = search(self, new_depth, alpha, alpha + 1, false);
                }
                if pv_node && s > alpha && !self.stopped {
                    search(self, new_depth, alpha, beta, true)
                } else {
                    s
                }
            };
            if self.stopped {
                self.keys.pop();
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    raised_alpha = true;
                    if pv_node {
                        self.pv.update(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            quiets_tried.push(m);
                            self.heur.record_cutoff(
                                pos.turn(),
                                ply,
                                depth,
                                m,
                                &quiets_tried,
                                prev_move,
                            );
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet {
                quiets_tried.push(m);
            }
        }
        self.keys.pop();
        if excluded.is_some() {
            // The left-out move was the only legal one: nothing speaks against its being singular.
            return if best_score == -INFINITY {
                alpha
            } else {
                best_score
            };
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if raised_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_move = if raised_alpha { best_move } else { None };
        self.tt.store(
            key,
            stored_move.map_or(PackedMove::NONE, PackedMove::pack),
            score_to_tt(best_score, ply),
            depth,
            bound,
            raw_eval,
        );
        // The evaluation's error, where the result says more than it: not in check, not
        // decided by a capture or promotion, not a bound on the evaluation's own side.
        if raw_eval != NO_EVAL
            && best_move.is_none_or(|m| !m.is_capture() && m.promotion().is_none())
            && best_score.abs() < TB_WIN - MAX_PLY as i32
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.corr.update(pos, depth, raw_eval, best_score);
        }
        best_score
    }

    /// The score of a draw by rule at a non-root node (fifty moves, repetition, insufficient
    /// material), or `None`.
    fn draw_score(&self, pos: &Chess, key: u64, in_check: bool) -> Option<i32> {
        if pos.halfmoves() >= 100 {
            // Checkmate on the hundredth half-move still wins.
            if in_check && pos.legal_moves().is_empty() {
                return None;
            }
            return Some(DRAW);
        }
        if repeats(&self.keys, key, pos.halfmoves()) {
            return Some(DRAW);
        }
        if insufficient_material(pos) {
            return Some(DRAW);
        }
        None
    }
}

impl Searcher {
    /// The static evaluation of `pos` at `ply`: from its TT entry when that has one, `NO_EVAL`
    /// in check.
    #[inline]
    pub(super) fn node_static_eval(
        &self,
        pos: &Chess,
        ply: usize,
        entry: Option<TtEntry>,
        in_check: bool,
    ) -> i32 {
        match entry {
            _ if in_check => NO_EVAL,
            Some(e) if e.eval != NO_EVAL => e.eval,
            _ => self.incremental_eval(pos, ply),
        }
    }

    /// The evaluation the search works with at a node whose static evaluation is `raw`: off
    /// the PV, corrected by the correction history; on the PV (and in check) `raw` itself.
    #[inline]
    pub(super) fn search_eval(&self, pos: &Chess, raw: i32, pv_node: bool) -> i32 {
        if raw == NO_EVAL || pv_node {
            raw
        } else {
            self.corr.correct(pos, raw)
        }
    }

    /// The evaluation of `pos`, the node at `ply`, from its accumulators (or, with a queen or
    /// rook against a bare king, the mating score that `eval::static_eval` gives too).
    #[inline]
    pub(super) fn incremental_eval(&self, pos: &Chess, ply: usize) -> i32 {
        if let Some(score) = crate::eval::mopup::bare_king(pos) {
            return score;
        }
        // Unit tests check every incrementally kept accumulator the search reads.
        #[cfg(test)]
        assert!(
            self.accs[ply] == Accumulator::from_position(nnue::network(), pos),
            "stale accumulator at ply {ply}"
        );
        self.accs[ply].network_output(nnue::network(), pos)
    }

    /// Sets the accumulators of the child reached by `m` from `pos`, the node at `ply`.
    #[inline]
    pub(super) fn push_accumulator(&mut self, ply: usize, pos: &Chess, m: &Move) {
        let (done, next) = self.accs.split_at_mut(ply + 1);
        next[0].set_after(&done[ply], nnue::network(), pos, m);
    }
}

/// Neither side can mate (cheap test first: only positions with few pieces qualify).
#[inline]
pub(super) fn insufficient_material(pos: &Chess) -> bool {
    pos.board().occupied().count() <= 4 && pos.is_insufficient_material()
}

/// Whether the side to move has a piece other than pawns and king.
fn has_pieces(pos: &Chess) -> bool {
    (pos.us() & !pos.our(Role::Pawn) & !pos.our(Role::King)).any()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::game::Game;
    use crate::search::SearchControl;

    /// Nodes searched at the last plies the table has: each returns, and its PV row stays within
    /// the row's capacity and legal. Positions with checks and captures, so that extensions and
    /// quiescence both push past the cap.
    #[test]
    fn nodes_at_the_ply_cap_return_without_overflowing_the_pv_table() {
        let mut searcher = Searcher::new(Arc::new(SearchControl::default()));
        for fen in [
            "r1b1k2r/pppp1ppp/8/8/8/8/PPPP1PPP/R1BQK2R w KQkq - 0 1",
            "6k1/5p1p/6p1/8/8/8/q4PPP/1Q4K1 w - - 0 1",
            "4k3/8/8/8/8/8/3q4/Q3K3 w - - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
        ] {
            let game = Game::from_fen(fen).unwrap().0;
            for ply in MAX_PLY - 8..MAX_PLY {
                for depth in [0, 1, 4] {
                    searcher.keys.clear();
                    searcher.keys.extend_from_slice(game.history());
                    searcher.accs[ply] = Accumulator::from_position(nnue::network(), game.pos());
                    let score = searcher.negamax(
                        game.pos(),
                        game.key(),
                        depth,
                        -INFINITY,
                        INFINITY,
                        ply,
                        true,
                        false,
                    );
                    assert!(score.abs() <= MATE, "{fen} ply {ply}: {score}");
                    let row = searcher.pv.row(ply);
                    assert!(row.len() <= MAX_PLY - ply, "{fen} ply {ply}");
                    let mut pos = game.pos().clone();
                    for &m in row {
                        assert!(pos.is_legal(m), "{fen} ply {ply}: {row:?}");
                        pos.play_unchecked(m);
                    }
                    assert!(searcher.seldepth < MAX_PLY);
                }
            }
        }
    }

    /// Every evaluation a search reads comes from an accumulator equal to a rebuild
    /// (`evaluate_at` asserts it in tests): root moves, quiet and tactical moves, null moves,
    /// quiescence, with a TT warmed by the shallower iterations.
    #[test]
    fn searches_read_only_up_to_date_accumulators() {
        let tt = Arc::new(crate::tt::TranspositionTable::new(16).unwrap());
        let mut searcher = Searcher::new(Arc::new(SearchControl::default()));
        for line in include_str!("../../tests/data/wac.epd").lines().step_by(30) {
            let game = crate::pvcheck::parse_epd_position(line).unwrap();
            let lines = crate::pvcheck::search_lines(
                &mut searcher,
                &tt,
                &game,
                crate::pvcheck::Budget::Depth(7),
            );
            assert!(!lines.is_empty(), "{line}");
        }
    }
}

//! Principal variation search below the root: the recursive negamax, its move loop, and what a
//! searched node leaves in the table.

use shakmaty::{Bitboard, Chess, Move, MoveList, Position};

use super::Searcher;
use super::evals::Evals;
use super::node_moves::NodeMoves;
use super::ordering::{
    self, FOLLOW_PV, PriorMoves, TT_MOVE, is_good_tactical, is_plain_quiet, pick_next,
    quiet_history,
};
use super::params;
use super::pruning::{Singular, TtExtension};
use super::see::see_ge;
use crate::cycle::upcoming_repetition;
use crate::game::{repeats, repeats_since};
use crate::movegen::CheckInfo;
use crate::score::{DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY, NO_EVAL, TB_WIN};
use crate::tt::{Bound, PackedMove, TtEntry, score_from_tt, score_to_tt};

impl Searcher {
    /// Negamax alpha-beta with PVS. `pv_node` marks nodes searched with an open window;
    /// `follow` says the path so far equals the previous PV's prefix.
    ///
    /// In order: draws by rule, quiescence at the horizon, mate-distance pruning, the table,
    /// the tablebases, then the node's evaluation and the prunings it allows before any move
    /// (reverse futility, null move, ProbCut), the singular-extension test of the table's move, the
    /// move loop, and last the result into the table and the correction history.
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
        if self.abort_check(ply) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.incremental_eval(pos, ply);
        }
        // Upcoming repetition: off the PV, where a draw would beat beta and the side to move can
        // bring back an earlier position with one move, that draw is a lower bound that cuts.
        if !pv_node
            && beta <= DRAW
            && params::upcoming_repetition() > 0
            && self.stack[ply].excluded.is_none()
        {
            let lookback = (pos.halfmoves() as usize).min(self.plies_since_null(ply));
            if upcoming_repetition(pos, key, &self.keys, lookback) {
                return DRAW;
            }
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
        let excluded = self.stack[ply].excluded;
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
        if !pv_node
            && excluded.is_none()
            && let Some(score) = self.probe_tablebases(pos, key, depth, alpha, beta, ply)
        {
            return score;
        }

        // Internal iterative reduction: off the PV, a deep node without a move from the TT is
        // searched a ply shallower; the best move it stores leads the next visit.
        let iir = !pv_node
            && excluded.is_none()
            && depth >= params::iir_min_depth()
            && tt_move == PackedMove::NONE;
        let node = Node {
            pos,
            key,
            depth: depth - i32::from(iir),
            ply,
            pv_node,
            tt_pv: pv_node || entry.is_some_and(|e| e.pv),
            in_check,
            excluded,
            entry,
            tt_move,
            tt_capture: params::lmr_tt_capture() > 0 && is_capture_or_promotion(pos, tt_move),
            eval: self.node_evals(pos, ply, entry, in_check, pv_node, excluded.is_some()),
        };
        let Evals {
            eval, improving, ..
        } = node.eval;
        let depth = node.depth;

        // Reverse futility pruning: far enough above beta, a quiet position keeps its margin.
        if !pv_node
            && !in_check
            && excluded.is_none()
            && depth <= params::rfp_max_depth()
            && beta.abs() < MATE_BOUND
            && eval - params::rfp_margin() * (depth - i32::from(improving)) >= beta
        {
            return eval;
        }
        if let Some(score) = self.null_move_cutoff(&node, beta) {
            return score;
        }
        if self.stopped {
            return 0;
        }

        let mut moves = NodeMoves::new(pos, tt_move, params::tt_move_first() > 0);
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        if let Some(score) = self.probcut(&node, &mut moves, beta) {
            return score;
        }
        if self.stopped {
            return 0;
        }
        let extension = match self.singular_extension(&node, &mut moves, beta) {
            Singular::Cut(score) => return score,
            Singular::Extend(extension) => Some(extension),
            Singular::Untested => None,
        };
        if self.stopped {
            return 0;
        }
        let follow_move = if follow {
            self.prev_pv.get(ply).copied()
        } else {
            None
        };
        let result = self.search_moves(&node, &mut moves, alpha, beta, follow_move, extension);
        if self.stopped {
            return 0;
        }
        if excluded.is_some() {
            // The left-out move was the only legal one: nothing speaks against its being singular.
            return if result.best_score == -INFINITY {
                alpha
            } else {
                result.best_score
            };
        }
        self.store_result(&node, beta, &result);
        result.best_score
    }

    /// The move loop: every legal move in order, with the prunings of shallow non-PV nodes,
    /// late-move reductions and PVS re-searches. A table move that waits in `moves` (see
    /// [`NodeMoves`]) is searched before the others are generated, where it would come first
    /// anyway. Returns the best score and move found (and whether one raised alpha); the caller
    /// checks for a stop.
    #[inline]
    fn search_moves(
        &mut self,
        node: &Node,
        moves: &mut NodeMoves,
        alpha: i32,
        beta: i32,
        follow_move: Option<Move>,
        extension: Option<TtExtension>,
    ) -> MovesResult {
        let Node {
            pos,
            key,
            depth,
            ply,
            pv_node,
            in_check,
            ..
        } = *node;
        let Evals {
            eval, improving, ..
        } = node.eval;
        // Shallow non-PV nodes out of check may skip quiet moves that cannot matter: past a
        // move count (late-move pruning), or when even a margin above the static evaluation
        // stays below alpha (futility pruning).
        let mut state = MoveLoop {
            alpha,
            beta,
            // The opponent's move into this node and the side's own move before it.
            prior: [
                self.stack[ply - 1].mv,
                ply.checked_sub(2).and_then(|p| self.stack[p].mv),
            ],
            follow_move,
            extension,
            may_prune: !pv_node && !in_check,
            lmp_limit: ((params::lmp_base() + depth * depth) / (2 - i32::from(improving))) as usize,
            futile: futile(eval, depth, alpha),
            result: MovesResult {
                best_score: -INFINITY,
                best_move: None,
                raised_alpha: false,
            },
            threats: ordering::threats(pos),
            quiets_tried: MoveList::new(),
            tacticals_tried: MoveList::new(),
            check_info: None,
        };
        self.keys.push(key);
        // The table's move first, before the list, unless the previous PV's move goes first.
        let mut searched = None;
        if let Some(m) = moves.deferred()
            && follow_move.is_none_or(|f| f == m)
        {
            let order = if follow_move == Some(m) {
                FOLLOW_PV
            } else {
                TT_MOVE
            };
            searched = Some(m);
            if self.search_move(node, &mut state, 0, m, order) {
                self.keys.pop();
                return state.result;
            }
        }
        let list = moves.all(pos);
        self.heur.score_moves(
            pos,
            state.threats,
            list,
            &mut self.order_scores[ply],
            ply,
            follow_move,
            node.tt_move,
            state.prior,
        );
        // The move searched already takes the first place, as its score would have given it.
        let first = usize::from(searched.is_some());
        if let Some(m) = searched
            && let Some(k) = list.iter().position(|x| *x == m)
        {
            list.swap(0, k);
            self.order_scores[ply].swap(0, k);
        }
        for i in first..list.len() {
            let m = pick_next(list, &mut self.order_scores[ply], i);
            let order = self.order_scores[ply][i];
            if self.search_move(node, &mut state, i, m, order) {
                break;
            }
        }
        self.keys.pop();
        state.result
    }

    /// One move of the loop: `m`, the `index`-th in order with ordering score `order`, pruned
    /// or searched, and the loop's state updated. Returns whether the loop ends here (a beta
    /// cutoff, or the search stopped).
    #[inline(always)]
    fn search_move(
        &mut self,
        node: &Node,
        state: &mut MoveLoop,
        index: usize,
        m: Move,
        order: i32,
    ) -> bool {
        let Node {
            pos,
            key,
            depth,
            ply,
            pv_node,
            ..
        } = *node;
        if node.excluded == Some(m) {
            return false;
        }
        let quiet = !m.is_capture() && m.promotion().is_none();
        // Shallow moves that lose material in the exchange on their target square are
        // skipped: captures losing more than a pawn a ply, quiets more than
        // `quiet_see_margin` a ply. A capture that passed the exchange test for ordering
        // passes it here too. Quiet moves past the late-move or futility limit, or with a
        // history too poor for the depth, go unless they give check (asked before the
        // exchange test, which costs more).
        let see_margin = if quiet {
            params::quiet_see_margin()
        } else {
            params::see_prune_margin()
        };
        // The depth a quiet move is judged at: the node's, or (`prune_at_reduced_depth`) what
        // its late-move reduction would leave.
        let judged_depth = if quiet && state.may_prune && params::prune_at_reduced_depth() > 0 {
            depth - self.planned_reduction(node, index, order)
        } else {
            depth
        };
        let futile = if judged_depth < depth {
            futile(node.eval.eval, judged_depth, state.alpha)
        } else {
            state.futile
        };
        let may_see_prune = state.may_prune
            && depth <= params::see_prune_max_depth()
            && state.result.best_score > -MATE_BOUND
            && !is_good_tactical(order);
        let past_limit = state.may_prune
            && quiet
            && state.result.best_score > -MATE_BOUND
            && ((depth <= params::lmp_max_depth() && state.quiets_tried.len() >= state.lmp_limit)
                || futile
                || (params::history_prune_margin() > 0
                    && depth <= params::history_prune_max_depth()
                    && quiet_history(order)
                        .is_some_and(|h| h < -params::history_prune_margin() * depth)));
        if past_limit
            && !state
                .check_info
                .get_or_insert_with(|| CheckInfo::of(pos))
                .gives_check(pos, m)
        {
            return false;
        }
        if may_see_prune && !see_ge(pos, m, -see_margin * judged_depth) {
            return false;
        }
        let (child, child_key) = self.enter_child(pos, key, ply, m);
        let child_follow = state.follow_move == Some(m);
        let extension = match state.extension {
            Some(e) if e.mv == m => e.plies,
            _ => 0,
        };
        let new_depth = depth - 1 + extension;
        self.stack[ply + 1].double_extensions =
            self.stack[ply].double_extensions + u8::from(extension == 2);
        let reduction = self.late_move_reduction(node, index, order, &child);
        // Searches the child to depth `d` with the parent's window (lo, hi).
        let search = |s: &mut Searcher, d: i32, lo: i32, hi: i32, pv: bool| {
            -s.negamax(&child, child_key, d, -hi, -lo, ply + 1, pv, child_follow)
        };
        let (alpha, beta) = (state.alpha, state.beta);
        let score = if state.result.best_move.is_none() {
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
            return true;
        }
        let result = &mut state.result;
        if score > result.best_score {
            result.best_score = score;
            result.best_move = Some(m);
            // For refutation lines: off the PV too, the best move so far and its line.
            if self.collect_lines && !pv_node && node.excluded.is_none() {
                self.pv.update(ply, m);
            }
            if score > alpha {
                result.raised_alpha = true;
                if pv_node {
                    self.pv.update(ply, m);
                }
                if score >= beta {
                    if quiet {
                        state.quiets_tried.push(m);
                        self.heur.record_cutoff(
                            pos.turn(),
                            state.threats,
                            ply,
                            depth,
                            m,
                            &state.quiets_tried,
                            state.prior,
                        );
                    } else {
                        state.tacticals_tried.push(m);
                    }
                    if params::capture_history_percent() > 0 {
                        self.heur.record_tactical_cutoff(
                            pos.turn(),
                            depth,
                            (!quiet).then_some(m),
                            &state.tacticals_tried,
                        );
                    }
                    return true;
                }
                state.alpha = score;
            }
        }
        if quiet {
            state.quiets_tried.push(m);
        } else {
            state.tacticals_tried.push(m);
        }
        false
    }

    /// The late-move reduction of a quiet move ordered late (at `index`, with ordering score
    /// `order_score`) that leads to `child`: none for early, tactical or checking moves.
    #[inline]
    fn late_move_reduction(
        &self,
        node: &Node,
        index: usize,
        order_score: i32,
        child: &Chess,
    ) -> i32 {
        let r = self.planned_reduction(node, index, order_score);
        if r > 0 && child.is_check() { 0 } else { r }
    }

    /// The late-move reduction of the `index`-th move with ordering score `order_score`, as
    /// long as it does not give check (the caller knows): none for early or tactical moves.
    #[inline]
    fn planned_reduction(&self, node: &Node, index: usize, order_score: i32) -> i32 {
        let Node { depth, pv_node, .. } = *node;
        let min_index = if pv_node {
            params::lmr_min_index_pv() as usize
        } else {
            params::lmr_min_index() as usize
        };
        if depth >= params::lmr_min_depth()
            && index >= min_index
            && !node.in_check
            && is_plain_quiet(order_score)
        {
            let mut r = self.lmr[(depth as usize).min(63)][index.min(63)]
                - i32::from(pv_node)
                - i32::from(node.tt_pv) * params::tt_pv_reduction()
                + i32::from(!node.eval.improving) * params::lmr_not_improving()
                + i32::from(node.tt_capture) * params::lmr_tt_capture();
            // A quiet move with a good history is reduced less, one with a bad history more.
            let weight = params::lmr_history_percent();
            if weight > 0
                && let Some(history) = quiet_history(order_score)
            {
                r -= history * weight / LMR_HISTORY_UNIT;
            }
            r.clamp(0, depth - 2)
        } else {
            0
        }
    }

    /// Stores a searched node's result in the table and, where the result says more than the
    /// static evaluation, the evaluation's error in the correction history.
    #[inline(always)]
    fn store_result(&mut self, node: &Node, beta: i32, result: &MovesResult) {
        let MovesResult {
            best_score,
            best_move,
            raised_alpha,
        } = *result;
        let Evals {
            raw, static_eval, ..
        } = node.eval;
        let bound = if best_score >= beta {
            Bound::Lower
        } else if raised_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_move = if raised_alpha { best_move } else { None };
        self.tt.store(
            node.key,
            stored_move.map_or(PackedMove::NONE, PackedMove::pack),
            score_to_tt(best_score, node.ply),
            node.depth,
            bound,
            raw,
            node.tt_pv,
        );
        // The evaluation's error, where the result says more than it: not in check, not
        // decided by a capture or promotion, not a bound on the evaluation's own side.
        if raw != NO_EVAL
            && best_move.is_none_or(|m| !m.is_capture() && m.promotion().is_none())
            && best_score.abs() < TB_WIN - MAX_PLY as i32
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.corr.update(node.pos, node.depth, raw, best_score);
        }
    }

    /// The plies the path to the node at `ply` has gone since its last null move (all of them,
    /// and the game's moves before the root, when there is none): how far back a position
    /// can be reached again by real moves.
    #[inline]
    fn plies_since_null(&self, ply: usize) -> usize {
        self.stack[..ply]
            .iter()
            .rev()
            .position(|frame| frame.mv.is_none())
            .unwrap_or(usize::MAX)
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
        if drawn_by_repetition(&self.keys, key, pos.halfmoves(), self.root_index) {
            return Some(DRAW);
        }
        if insufficient_material(pos) {
            return Some(DRAW);
        }
        None
    }
}

/// Whether a search from the position at index `root` of `history` scores `key` as a draw by
/// repetition, by the rule `repetition_since_root` chooses (`pv-check` judges PV leaves by it).
#[inline]
pub fn drawn_by_repetition(history: &[u64], key: u64, halfmoves: u32, root: usize) -> bool {
    if params::repetition_since_root() > 0 {
        repeats_since(history, key, halfmoves, root)
    } else {
        repeats(history, key, halfmoves)
    }
}

/// At `lmr_history_percent` 100, the history (with continuation histories) that changes a
/// late move's reduction by one ply, times 100.
const LMR_HISTORY_UNIT: i32 = 8_192 * 100;

/// One node of the main search, as its parts see it.
#[derive(Clone, Copy)]
pub(super) struct Node<'a> {
    pub pos: &'a Chess,
    pub key: u64,
    /// Remaining depth (after the check extension and internal iterative reduction).
    pub depth: i32,
    pub ply: usize,
    pub pv_node: bool,
    /// The node is on the PV or its position has been (its table entry says so).
    pub tt_pv: bool,
    pub in_check: bool,
    /// The move a singular-extension search leaves out.
    pub excluded: Option<Move>,
    pub entry: Option<TtEntry>,
    pub tt_move: PackedMove,
    /// The table's move captures or promotes (found only when `lmr_tt_capture` reads it).
    pub tt_capture: bool,
    pub eval: Evals,
}

/// The state of a node's move loop between its moves.
struct MoveLoop {
    alpha: i32,
    beta: i32,
    /// The opponent's move into the node and the side's own move before it.
    prior: PriorMoves,
    follow_move: Option<Move>,
    extension: Option<TtExtension>,
    /// Whether quiet moves may be pruned here (off the PV, out of check), past which count
    /// (late-move pruning), and whether all of them may (futility).
    may_prune: bool,
    lmp_limit: usize,
    futile: bool,
    result: MovesResult,
    quiets_tried: MoveList,
    tacticals_tried: MoveList,
    /// The squares the opponent attacks, by which the quiet history is kept apart.
    threats: Bitboard,
    /// Found the first time a move past the pruning limits asks whether it gives check.
    check_info: Option<CheckInfo>,
}

/// What a node's move loop found.
#[derive(Clone, Copy)]
struct MovesResult {
    best_score: i32,
    best_move: Option<Move>,
    raised_alpha: bool,
}

/// Futility: whether a quiet move searched to `depth` with the evaluation `eval` stays at or
/// below `alpha` even with the futility margin.
#[inline]
fn futile(eval: i32, depth: i32, alpha: i32) -> bool {
    depth <= params::futility_max_depth()
        && eval + params::futility_base() + params::futility_margin() * depth <= alpha
}

/// Whether `packed`, a move of `pos` as the table keeps it, lands on an opponent's piece or
/// promotes (an en passant capture counts as quiet here).
#[inline]
fn is_capture_or_promotion(pos: &Chess, packed: PackedMove) -> bool {
    packed
        .parts()
        .is_some_and(|(_, to, promotion)| promotion.is_some() || pos.them().contains(to))
}

/// Neither side can mate (cheap test first: only positions with few pieces qualify).
#[inline]
pub(super) fn insufficient_material(pos: &Chess) -> bool {
    pos.board().occupied().count() <= 4 && pos.is_insufficient_material()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::nnue::{self, Accumulator};

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
                    searcher.stack[ply].acc =
                        Accumulator::from_position(nnue::network(), game.pos());
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
    /// (`incremental_eval` asserts it in tests): root moves, quiet and tactical moves, null moves,
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

//! What a node of the main search decides before its move loop: a cut on the tablebases'
//! result, a cut by the null move, a cut by a capture's shallow search (ProbCut), and the
//! singular-extension test of the table's move (with its multi-cut).

use shakmaty::{Chess, Move, MoveList, Position, Role};

use super::Searcher;
use super::alphabeta::Node;
use super::node_moves::NodeMoves;
use super::ordering::{MAX_MOVES, MoveParts, TT_MOVE, pick_next};
use super::params;
use super::see::see_ge;
use crate::game::key_of;
use crate::score::{DRAW, MATE_BOUND, MAX_PLY, NO_EVAL};
use crate::tb;
use crate::tt::{Bound, PackedMove, score_from_tt, score_to_tt};

/// What the singular-extension test decided.
pub(super) enum Singular {
    /// Not tried (no fitting table entry, or stopped).
    Untested,
    /// The table's move gets this extension (possibly 0 or −1).
    Extend(TtExtension),
    /// Several moves beat beta: the node returns this score (multi-cut).
    Cut(i32),
}

/// The extension, in plies, of the table's move.
#[derive(Clone, Copy)]
pub(super) struct TtExtension {
    pub mv: Move,
    pub plies: i32,
}

impl Searcher {
    /// Tablebases, right after a capture or pawn move (where the WDL tables are exact): the
    /// score when the table's result settles the window (PV nodes are searched on, so that the
    /// PV stays a full line of real moves; the caller probes only off the PV).
    #[inline(always)]
    pub(super) fn probe_tablebases(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        if depth < self.tb_settings.probe_depth || pos.halfmoves() != 0 {
            return None;
        }
        let tables = self.tb.as_ref()?;
        if !tables.covers(pos, self.tb_settings.probe_limit) {
            return None;
        }
        let wdl = tables.probe_wdl(pos)?;
        self.tbhits += 1;
        let score = tb::score(wdl, ply, self.tb_settings.rule50);
        let bound = if score > DRAW + 1 {
            Bound::Lower
        } else if score < DRAW - 1 {
            Bound::Upper
        } else {
            Bound::Exact
        };
        if !bound.cuts(score, alpha, beta) {
            return None;
        }
        self.tt.store(
            key,
            PackedMove::NONE,
            score_to_tt(score, ply),
            (depth + 6).min(MAX_PLY as i32),
            bound,
            NO_EVAL,
            false,
        );
        Some(score)
    }

    /// Null-move pruning: if passing still fails high, a real move will too (zugzwang aside,
    /// hence only with pieces besides pawns). The score to return when it cuts; `None` (also
    /// when stopped meanwhile, which the caller checks) otherwise.
    #[inline]
    pub(super) fn null_move_cutoff(&mut self, node: &Node, beta: i32) -> Option<i32> {
        let Node {
            pos,
            key,
            depth,
            ply,
            ..
        } = *node;
        if node.pv_node
            || node.in_check
            || depth < params::null_move_min_depth()
            || node.excluded.is_some()
            || self.stack[ply - 1].mv.is_none()
            || beta.abs() >= MATE_BOUND
            || !has_pieces(pos)
            || node.eval.eval < beta
        {
            return None;
        }
        let passed = pos.clone().swap_turn().ok()?;
        let r = params::null_move_base_reduction() + depth / params::null_move_depth_divisor();
        let passed_key = key_of(&passed);
        self.tt.prefetch(passed_key);
        self.keys.push(key);
        self.stack[ply].mv = None;
        self.stack[ply + 1].acc = self.stack[ply].acc;
        self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
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
        if self.stopped || score < beta {
            return None;
        }
        Some(if score >= MATE_BOUND { beta } else { score })
    }

    /// ProbCut: off the PV, when a capture or promotion that wins enough material in the
    /// exchange beats `beta + probcut_margin` in quiescence and then in a search a few plies
    /// shallower, the full search would almost surely fail high too. The score to return
    /// when it cuts (stored in the table as a lower bound at the shallow search's depth).
    #[inline]
    pub(super) fn probcut(&mut self, node: &Node, moves: &mut NodeMoves, beta: i32) -> Option<i32> {
        let Node {
            pos,
            key,
            depth,
            ply,
            ..
        } = *node;
        let margin = params::probcut_margin();
        if margin == 0
            || node.pv_node
            || node.in_check
            || node.excluded.is_some()
            || depth < params::probcut_min_depth()
            || beta.abs() >= MATE_BOUND
        {
            return None;
        }
        let probcut_beta = beta + margin;
        // The children's depth; the result is stored a ply deeper, as the node's own.
        let shallow = depth - params::probcut_depth_reduction();
        // A table entry as deep as that which stays below the raised beta says the captures
        // will not reach it either.
        if let Some(e) = node.entry
            && e.depth > shallow
            && score_from_tt(e.score, ply) < probcut_beta
            && matches!(e.bound, Bound::Upper | Bound::Exact)
        {
            return None;
        }
        // Captures and promotions that keep at least the margin over the static evaluation in
        // the exchange; the table's move first, then by MVV-LVA.
        let threshold = probcut_beta - node.eval.static_eval;
        let mut candidates = MoveList::new();
        let mut order = [0i32; MAX_MOVES];
        for &m in moves.all(pos).iter() {
            if let Some(t) = MoveParts::of(m).tactical_score()
                && see_ge(pos, m, threshold)
            {
                order[candidates.len()] = if node.tt_move.matches(m) { TT_MOVE } else { t };
                candidates.push(m);
            }
        }
        self.keys.push(key);
        let mut cut = None;
        for i in 0..candidates.len() {
            let m = pick_next(&mut candidates, &mut order, i);
            let (child, child_key) = self.enter_child(pos, key, ply, m);
            self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
            let window = (-probcut_beta, -probcut_beta + 1);
            let mut score = -self.qsearch(&child, child_key, window.0, window.1, ply + 1, false);
            if score >= probcut_beta && !self.stopped && shallow > 0 {
                score = -self.negamax(
                    &child,
                    child_key,
                    shallow,
                    window.0,
                    window.1,
                    ply + 1,
                    false,
                    false,
                );
            }
            if self.stopped {
                break;
            }
            if score >= probcut_beta {
                self.tt.store(
                    key,
                    PackedMove::pack(m),
                    score_to_tt(score, ply),
                    shallow + 1,
                    Bound::Lower,
                    node.eval.raw,
                    false,
                );
                cut = Some(if score >= MATE_BOUND { beta } else { score });
                break;
            }
        }
        self.keys.pop();
        cut
    }

    /// Singular extension: when the TT move's lower bound stands and every other move, at half
    /// the depth, fails low against a margin below it, the TT move is the only good one and is
    /// searched a ply deeper. When the others reach beta even with the margin, several moves
    /// refute the parent and a non-PV node returns at once (multi-cut).
    /// The TT move's extension: +1 when singular, +2 when clearly so (off the PV, a few times
    /// a path), −1 when not singular but its score already beats beta elsewhere.
    #[inline]
    pub(super) fn singular_extension(
        &mut self,
        node: &Node,
        moves: &mut NodeMoves,
        beta: i32,
    ) -> Singular {
        let Node {
            pos,
            key,
            depth,
            ply,
            pv_node,
            ..
        } = *node;
        let Some(e) = node.entry else {
            return Singular::Untested;
        };
        if depth < params::singular_min_depth()
            || ply >= 2 * self.root_depth as usize
            || !matches!(e.bound, Bound::Lower | Bound::Exact)
            || e.depth < depth - params::singular_tt_depth_gap()
        {
            return Singular::Untested;
        }
        let tt_score = score_from_tt(e.score, ply);
        if tt_score.abs() >= MATE_BOUND {
            return Singular::Untested;
        }
        // A table move that waits in `moves` is legal and needs no list.
        let candidate = match moves.deferred() {
            Some(m) => m,
            None => match moves.all(pos).iter().find(|m| node.tt_move.matches(**m)) {
                Some(&m) => m,
                None => return Singular::Untested,
            },
        };
        let singular_beta = tt_score - params::singular_margin() * depth;
        self.stack[ply].excluded = Some(candidate);
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
        self.stack[ply].excluded = None;
        if self.stopped {
            return Singular::Untested;
        }
        let extension = if score < singular_beta {
            if !pv_node
                && score < singular_beta - params::double_extension_margin()
                && i32::from(self.stack[ply].double_extensions) < params::double_extension_limit()
            {
                2
            } else {
                1
            }
        } else if !pv_node && singular_beta >= beta {
            return Singular::Cut(singular_beta);
        } else if tt_score >= beta {
            -1
        } else {
            0
        };
        Singular::Extend(TtExtension {
            mv: candidate,
            plies: extension,
        })
    }
}

/// Whether the side to move has a piece other than pawns and king.
fn has_pieces(pos: &Chess) -> bool {
    (pos.us() & !pos.our(Role::Pawn) & !pos.our(Role::King)).any()
}

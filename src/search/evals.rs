//! The search's evaluations of a node: the network's from the per-ply accumulators (kept up to
//! date move by move), the one the table stored, the correction history's adjustment, and the
//! estimate the prunings read; and the step into a child node that keeps those accumulators
//! (with the child's key and the move on the stack) up to date.

use shakmaty::{Chess, Move, Position};

use super::Searcher;
use crate::game::key_after;
#[cfg(test)]
use crate::nnue::Accumulator;
use crate::score::{MATE_BOUND, NO_EVAL};
use crate::tt::{TtEntry, score_from_tt};

/// A node's evaluations (see `Searcher::node_evals`).
#[derive(Clone, Copy)]
pub(super) struct Evals {
    /// The network's (what the table keeps); `NO_EVAL` in check or in a singular search.
    pub raw: i32,
    /// The one the search uses: corrected off the PV.
    pub static_eval: i32,
    /// The estimate the prunings read: the table's score where its bound says more.
    pub eval: i32,
    /// The static evaluation rose since the side's previous move.
    pub improving: bool,
}

impl Searcher {
    /// The node's raw static evaluation (what the table keeps), the corrected one the search
    /// uses off the PV, the estimate prunings read, and whether the position improved.
    #[inline(always)]
    pub(super) fn node_evals(
        &mut self,
        pos: &Chess,
        ply: usize,
        entry: Option<TtEntry>,
        in_check: bool,
        pv_node: bool,
        singular_search: bool,
    ) -> Evals {
        // The static evaluation, and whether it rose since our previous move (two plies up;
        // unknown counts as not improving).
        // (A singular-extension search reuses the one its own node just stored.) The table
        // keeps the network's own evaluation; off the PV the search uses it corrected by the
        // errors found in positions with the same pawns. (On the PV it stays as it is, so that
        // a PV's score is the evaluation of its last position.)
        let (raw, static_eval) = if singular_search {
            (NO_EVAL, self.stack[ply].eval)
        } else {
            let raw = self.node_static_eval(pos, ply, entry, in_check);
            (raw, self.search_eval(pos, raw, pv_node))
        };
        self.stack[ply].eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].eval != NO_EVAL
            && static_eval > self.stack[ply - 2].eval;
        // For pruning, a stored score whose bound lies beyond the static evaluation in its own
        // direction is the better estimate.
        let eval = match entry {
            Some(e) if !in_check => refined_by_table(e, ply, static_eval),
            _ => static_eval,
        };
        Evals {
            raw,
            static_eval,
            eval,
            improving,
        }
    }

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
            self.stack[ply].acc == Accumulator::from_position(&self.net, pos),
            "stale accumulator at ply {ply}"
        );
        crate::eval::fifty_move_scaled(
            self.stack[ply].acc.network_output(&self.net, pos),
            pos.halfmoves(),
        )
    }

    /// Plays `m` from `pos`, the node at `ply` with key `key`: the child and its key, with the
    /// child's table slot prefetched, its accumulators set and `m` noted as the move played
    /// from `ply`.
    #[inline(always)]
    pub(super) fn enter_child(
        &mut self,
        pos: &Chess,
        key: u64,
        ply: usize,
        m: Move,
    ) -> (Chess, u64) {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let child_key = key_after(pos, key, m, &child);
        self.tt.prefetch(child_key);
        self.push_accumulator(ply, pos, &child, &m);
        self.stack[ply].mv = Some(m);
        (child, child_key)
    }

    /// Sets the accumulators of `child`, reached by `m` from `pos`, the node at `ply`.
    #[inline]
    pub(super) fn push_accumulator(&mut self, ply: usize, pos: &Chess, child: &Chess, m: &Move) {
        let (done, next) = self.stack.split_at_mut(ply + 1);
        next[0].acc.set_after(
            &done[ply].acc,
            &self.net,
            (pos, child),
            m,
            &mut self.refresh,
        );
    }
}

/// `static_eval` of the node at `ply`, or the score its table entry `e` stored where that
/// entry's bound lies beyond the static evaluation in its own direction (and is no mate).
#[inline]
pub(super) fn refined_by_table(e: TtEntry, ply: usize, static_eval: i32) -> i32 {
    let s = score_from_tt(e.score, ply);
    if e.bound.cuts(s, static_eval, static_eval) && s.abs() < MATE_BOUND {
        s
    } else {
        static_eval
    }
}

//! Quiescence search: captures and promotions that do not lose material in the exchange,
//! after a stand-pat; all evasions when in check.
//! At PV nodes it extends the principal variation in the same triangular table, so a printed
//! PV ends in a quiet position (or where the side to move chose to stand pat).

use shakmaty::{Chess, MoveList, Position};

use super::Searcher;
use super::alphabeta::insufficient_material;
use super::evals::refined_by_table;
use super::ordering::{TT_MOVE, pick_next};
use super::params;
use super::see::see_ge;
use crate::movegen::{has_legal_move, noisy_moves};
use crate::score::{DRAW, INFINITY, MATE, MAX_PLY};
use crate::tt::{Bound, PackedMove, score_from_tt, score_to_tt};

impl Searcher {
    pub(super) fn qsearch(
        &mut self,
        pos: &Chess,
        key: u64,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv.clear_row(ply);
        if self.abort_check(ply) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.incremental_eval(pos, ply);
        }
        let in_check = pos.is_check();
        // A capture may leave bare kings; an evasion may reach the fiftieth move (where mate
        // still counts, so that waits for the moves).
        if !in_check && (pos.halfmoves() >= 100 || insufficient_material(pos)) {
            return DRAW;
        }
        let entry = self.tt.probe(key);
        if let Some(e) = entry
            && !pv_node
        {
            let s = score_from_tt(e.score, ply);
            if e.bound.cuts(s, alpha, beta) {
                return s;
            }
        }
        let tt_move = entry.map_or(PackedMove::NONE, |e| e.mv);
        let raw_eval = self.node_static_eval(pos, ply, entry, in_check);
        let static_eval = self.search_eval(pos, raw_eval, pv_node);
        // With `qs_tt_stand_pat`, off the PV a stored score whose bound lies beyond the static
        // evaluation in its own direction is the better stand-pat.
        let static_eval = match entry {
            Some(e) if !in_check && !pv_node && params::qs_tt_stand_pat() > 0 => {
                refined_by_table(e, ply, static_eval)
            }
            _ => static_eval,
        };
        // Off the PV, a stand-pat cut needs no moves. (On it, the moves come first, so that a
        // stalemate is scored as the draw it is and the PV's leaf reproduces its score.)
        if !in_check && !pv_node && static_eval >= beta {
            self.tt.store(
                key,
                PackedMove::NONE,
                static_eval,
                0,
                Bound::Lower,
                raw_eval,
                false,
            );
            return static_eval;
        }
        // In check every evasion is searched; otherwise only captures and promotions, generated
        // without the quiet moves (a position with none of them may still be stalemate).
        // The list is filled in place: returned by value it would be copied on the way.
        let mut moves = MoveList::new();
        if in_check {
            moves = pos.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
        } else {
            noisy_moves(pos, &mut moves);
            if moves.is_empty() && !has_legal_move(pos) {
                return DRAW;
            }
        }
        if in_check && (pos.halfmoves() >= 100 || insufficient_material(pos)) {
            return DRAW;
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        if !in_check {
            if static_eval >= beta {
                return static_eval;
            }
            alpha = alpha.max(static_eval);
            best = static_eval;
            moves.retain(|m| see_ge(pos, *m, 0));
        }
        let scores = &mut self.order_scores[ply];
        let side = pos.turn();
        for (m, s) in moves.iter().zip(scores.iter_mut()) {
            *s = if tt_move.matches(*m) {
                TT_MOVE
            } else {
                self.heur.quiescence_score(side, *m)
            };
        }
        let mut best_move = PackedMove::NONE;
        for i in 0..moves.len() {
            let m = pick_next(&mut moves, &mut self.order_scores[ply], i);
            let (child, child_key) = self.enter_child(pos, key, ply, m);
            let score = -self.qsearch(&child, child_key, -beta, -alpha, ply + 1, pv_node);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if self.collect_lines && !pv_node {
                    self.pv.update(ply, m);
                }
                if score > alpha {
                    best_move = PackedMove::pack(m);
                    if pv_node {
                        self.pv.update(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move,
            score_to_tt(best, ply),
            0,
            bound,
            raw_eval,
            pv_node,
        );
        best
    }
}

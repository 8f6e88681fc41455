//! Quiescence search: captures and promotions that do not lose material in the exchange,
//! after a stand-pat; all evasions when in check.
//! At PV nodes it extends the principal variation in the same triangular table, so a printed
//! PV ends in a quiet position (or where the side to move chose to stand pat).

use shakmaty::{Chess, Position};

use super::Searcher;
use super::alphabeta::insufficient_material;
use super::ordering::{MAX_MOVES, pick_next, tactical_score};
use super::pv::MAX_PLY;
use super::score::{DRAW, INFINITY, MATE};
use super::see::see_ge;
use crate::eval::evaluate;

impl Searcher {
    pub(super) fn qsearch(
        &mut self,
        pos: &Chess,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv.clear_row(ply);
        if self.abort_check() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        let in_check = pos.is_check();
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        // A capture may leave bare kings; an evasion may reach the fiftieth move.
        if pos.halfmoves() >= 100 || insufficient_material(pos) {
            return DRAW;
        }
        let mut best = -INFINITY;
        if !in_check {
            let stand_pat = evaluate(pos);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            moves.retain(|m| (m.is_capture() || m.promotion().is_some()) && see_ge(pos, *m, 0));
        }
        let mut scores = [0i32; MAX_MOVES];
        for (m, s) in moves.iter().zip(scores.iter_mut()) {
            *s = tactical_score(*m).unwrap_or(0);
        }
        for i in 0..moves.len() {
            let m = pick_next(&mut moves, &mut scores, i);
            let mut child = pos.clone();
            child.play_unchecked(m);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, pv_node);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
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
        best
    }
}

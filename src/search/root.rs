//! The root of each iteration: every root move searched in turn, the best one leading, and a
//! report whenever the root PV changes.

use shakmaty::{Chess, Move};

use super::{CURRMOVE_AFTER, Reporter, Searcher};
use crate::nnue::Accumulator;
use crate::score::{INFINITY, NO_EVAL};

impl Searcher {
    /// Sets the root's stack frame for a search of its moves: its accumulators, no static
    /// evaluation (so no child counts as improving on it), no double extension yet.
    pub(super) fn prepare_root_frame(&mut self, root: &Chess) {
        self.stack[0].acc = Accumulator::from_position(&self.net, root);
        self.stack[0].eval = NO_EVAL;
        self.stack[1].double_extensions = 0;
    }

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
        let root = self.root.clone();
        self.prepare_root_frame(&root);
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
            let (child, child_key) = self.enter_child(&root, root_key, 0, m);
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
            if self.collect_lines {
                self.keep_refutation(m, &child, child_key);
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
}

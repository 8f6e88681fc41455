//! One depth of iterative deepening: the root searched within an aspiration window around the
//! last score, widened until the score falls inside; under MultiPV, one such search per line
//! over the root moves the better lines left.

use shakmaty::Move;

use super::params;
use super::{PvLine, Reporter, RootMove, Searcher};
use crate::score::{INFINITY, is_mate};
use crate::tt::Bound;

impl Searcher {
    /// MultiPV: searches one depth line by line, each line over the root moves not taken by the
    /// better lines, then sends the lines together, best first. Returns the best score, or
    /// `None` if stopped before every line was complete (the previous depth's lines stand).
    pub(super) fn search_lines(&mut self, report: &mut dyn Reporter, depth: i32) -> Option<i32> {
        let count = self.multipv.min(self.root_moves.len());
        let mut lines: Vec<PvLine> = Vec::with_capacity(count);
        for k in 0..count {
            self.pv_index = k;
            let prev = self.prev_lines.get(k);
            let prev_score = prev.map_or(0, |l| l.score);
            self.prev_pv.clear();
            if let Some(line) = prev {
                self.prev_pv.extend_from_slice(&line.pv);
            }
            let score = self.aspiration(report, depth, prev_score);
            if self.stopped {
                self.pv_index = 0;
                return None;
            }
            lines.push(PvLine {
                depth,
                score,
                bound: None,
                pv: self.pv.row(0).to_vec(),
            });
        }
        self.pv_index = 0;
        // Best first (a stable sort keeps search order among equal scores), and the root
        // moves in the same order for the next depth.
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        let ordered: Vec<RootMove> = lines
            .iter()
            .filter_map(|l| {
                self.root_moves[..count]
                    .iter()
                    .find(|r| l.pv.first() == Some(&r.mv))
                    .copied()
            })
            .collect();
        if ordered.len() == count {
            self.root_moves[..count].copy_from_slice(&ordered);
        }
        // Under a limited strength only the lines asked for are shown.
        for (k, line) in lines.iter().enumerate().take(self.shown_lines) {
            self.send_line(report, k + 1, line.depth, line.score, None, &line.pv);
        }
        let best = lines[0].score;
        self.prev_lines = lines;
        Some(best)
    }

    /// Searches one depth, widening the window around `prev` until the score falls inside.
    pub(super) fn aspiration(&mut self, report: &mut dyn Reporter, depth: i32, prev: i32) -> i32 {
        let mut delta = params::aspiration_delta();
        let (mut alpha, mut beta) = if depth >= params::aspiration_min_depth() && !is_mate(prev) {
            ((prev - delta).max(-INFINITY), (prev + delta).min(INFINITY))
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.search_root(report, depth, alpha, beta);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                // Fail low: no move reached alpha, so the line shown stays the last one.
                if self.multipv == 1 {
                    let line = self.last_exact.pv.clone();
                    self.send_info(report, depth, score, Some(Bound::Upper), &line);
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                // Fail high: the move that failed high leads; search it first next time.
                let line: Vec<Move> = self.pv.row(0).to_vec();
                if self.multipv == 1 {
                    self.send_info(report, depth, score, Some(Bound::Lower), &line);
                }
                self.prev_pv.clear();
                self.prev_pv.extend_from_slice(&line);
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta += delta / 2;
        }
    }
}

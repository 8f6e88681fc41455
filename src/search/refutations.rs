//! `UCI_ShowRefutations`: after each completed depth, the line found against every root move.
//! With it on, nodes off the PV keep their best line in the PV table as PV nodes do (see
//! `alphabeta.rs` and `qsearch.rs`), so the root finds each move's refutation one ply down.

use shakmaty::{Chess, Move, Position};

use super::{REPLY_DEPTH, Reporter, Searcher};
use crate::game::key_after;
use crate::score::INFINITY;
use crate::tt::PackedMove;

impl Searcher {
    /// After a completed depth, the line against every root move: for a move that leads a
    /// principal variation its continuation, for the others the reply that refuted them and
    /// what followed, as the iteration's last search of each found it.
    pub(super) fn report_refutations(&mut self, report: &mut dyn Reporter, depth: i32) {
        let leading: Vec<Vec<Move>> = if self.multipv > 1 {
            self.prev_lines.iter().map(|l| l.pv.clone()).collect()
        } else {
            vec![self.pv.row(0).to_vec()]
        };
        let moves: Vec<Move> = self.root_moves.iter().map(|r| r.mv).collect();
        for mv in moves {
            let found = match leading.iter().find(|pv| pv.first() == Some(&mv)) {
                Some(pv) => pv[1..].to_vec(),
                None => self
                    .refutations
                    .iter()
                    .find(|(m, _)| *m == mv)
                    .map(|(_, line)| line.clone())
                    .unwrap_or_default(),
            };
            let line = if found.is_empty() && !self.stopped {
                self.reply_line(mv)
            } else {
                found
            };
            report.refutation(depth, mv, &line);
        }
    }

    /// The principal variation of a short search after root move `mv`: the reply for a
    /// refutation line where the iteration cut the move off before searching any (a null-move,
    /// futility or table cut one ply down), or for a PV that ends with its first move (the
    /// first iterations). Empty after a move that ends the game.
    fn reply_line(&mut self, mv: Move) -> Vec<Move> {
        let root = self.root.clone();
        let mut child = root.clone();
        child.play_unchecked(mv);
        if child.legal_moves().is_empty() {
            return Vec::new();
        }
        let child_key = key_after(&root, self.root_key, mv, &child);
        self.prepare_root_frame(&root);
        self.stack[0].mv = Some(mv);
        self.push_accumulator(0, &root, &child, &mv);
        self.keys.push(self.root_key);
        self.negamax(
            &child,
            child_key,
            REPLY_DEPTH,
            -INFINITY,
            INFINITY,
            1,
            true,
            false,
        );
        self.keys.pop();
        self.pv.row(1).to_vec()
    }

    /// Keeps the line found against root move `mv`, which leads to `child` (see
    /// `collect_lines`): the child's row of the PV table, or where the child was cut off
    /// before it searched a move, the reply its table entry holds.
    pub(super) fn keep_refutation(&mut self, mv: Move, child: &Chess, child_key: u64) {
        let mut line = self.pv.row(1).to_vec();
        if line.is_empty()
            && let Some(e) = self.tt.probe(child_key)
            && e.mv != PackedMove::NONE
            && let Some(reply) = child.legal_moves().into_iter().find(|m| e.mv.matches(*m))
        {
            line.push(reply);
        }
        match self.refutations.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, kept)) => *kept = line,
            None => self.refutations.push((mv, line)),
        }
    }
}

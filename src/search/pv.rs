//! The triangular principal-variation table: one flat array holding a row of moves per ply.
//!
//! With `N = MAX_PLY`, the row for `ply` holds at most `N - ply` moves and starts at
//! `ply * (2N + 1 - ply) / 2`, so all rows together take `N (N + 1) / 2` moves. A node clears
//! its own row on entry; when a move raises alpha it writes that move at the head of its row and
//! copies the child's row (one ply deeper) behind it. The root row is then the principal
//! variation.

use shakmaty::{Move, Role, Square};

use crate::score::MAX_PLY;

/// Number of moves in the whole table: N (N + 1) / 2.
pub const TABLE_SIZE: usize = MAX_PLY * (MAX_PLY + 1) / 2;

/// Index of the first move of the row for `ply`: ½·ply·(2N+1−ply).
pub const fn row_start(ply: usize) -> usize {
    ply * (2 * MAX_PLY + 1 - ply) / 2
}

/// Number of moves the row for `ply` can hold.
pub const fn row_capacity(ply: usize) -> usize {
    MAX_PLY - ply
}

/// A placeholder for slots that no row length covers; it is never read as a move.
const EMPTY: Move = Move::Put {
    role: Role::Pawn,
    to: Square::A1,
};

/// The triangular table itself.
pub struct PvTable {
    moves: Box<[Move]>,
    len: [usize; MAX_PLY],
}

impl Default for PvTable {
    fn default() -> Self {
        Self::new()
    }
}

impl PvTable {
    pub fn new() -> Self {
        PvTable {
            moves: vec![EMPTY; TABLE_SIZE].into_boxed_slice(),
            len: [0; MAX_PLY],
        }
    }

    /// Empties the row of `ply` (called by every node on entry).
    #[inline]
    pub fn clear_row(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    /// Makes `m` followed by the child's row the new row of `ply`.
    #[inline]
    pub fn update(&mut self, ply: usize, m: Move) {
        let start = row_start(ply);
        let child_len = if ply + 1 < MAX_PLY {
            self.len[ply + 1]
        } else {
            0
        };
        debug_assert!(child_len < row_capacity(ply));
        self.moves[start] = m;
        if child_len > 0 {
            let child = row_start(ply + 1);
            self.moves.copy_within(child..child + child_len, start + 1);
        }
        self.len[ply] = 1 + child_len;
    }

    /// The moves of the row for `ply`, the best line from the node at that ply.
    #[inline]
    pub fn row(&self, ply: usize) -> &[Move] {
        let start = row_start(ply);
        &self.moves[start..start + self.len[ply]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Move, Role, Square};

    fn mv(from: Square, to: Square) -> Move {
        Move::Normal {
            role: Role::Knight,
            from,
            capture: None,
            to,
            promotion: None,
        }
    }

    #[test]
    fn rows_tile_the_table_without_overlap() {
        assert_eq!(row_start(0), 0);
        assert_eq!(row_start(1), MAX_PLY);
        assert_eq!(row_start(2), MAX_PLY + MAX_PLY - 1);
        for ply in 0..MAX_PLY - 1 {
            assert_eq!(row_start(ply + 1) - row_start(ply), row_capacity(ply));
        }
        assert_eq!(
            row_start(MAX_PLY - 1) + row_capacity(MAX_PLY - 1),
            TABLE_SIZE
        );
        assert_eq!(row_start(MAX_PLY), TABLE_SIZE);
    }

    #[test]
    fn formula_matches_the_closed_form_in_the_docs() {
        let n = MAX_PLY;
        for ply in 0..n {
            // ½·ply·(2N+1−ply), computed in floating point as written in the docs.
            let expected = 0.5 * ply as f64 * (2.0 * n as f64 + 1.0 - ply as f64);
            assert_eq!(row_start(ply) as f64, expected);
        }
    }

    #[test]
    fn update_copies_the_child_row_behind_the_move() {
        let mut pv = PvTable::new();
        let a = mv(Square::B1, Square::C3);
        let b = mv(Square::G8, Square::F6);
        let c = mv(Square::G1, Square::F3);
        pv.clear_row(3);
        pv.update(3, c);
        pv.update(2, b);
        pv.update(1, a);
        assert_eq!(pv.row(1), &[a, b, c]);
        assert_eq!(pv.row(2), &[b, c]);
        pv.clear_row(2);
        pv.update(1, a);
        assert_eq!(pv.row(1), &[a]);
    }

    #[test]
    fn the_deepest_row_holds_exactly_one_move_and_a_full_line_fits_at_the_root() {
        let mut pv = PvTable::new();
        let a = mv(Square::B1, Square::C3);
        pv.clear_row(MAX_PLY - 1);
        pv.update(MAX_PLY - 1, a);
        assert_eq!(pv.row(MAX_PLY - 1).len(), 1);
        for ply in (0..MAX_PLY - 1).rev() {
            pv.update(ply, a);
            assert_eq!(pv.row(ply).len(), MAX_PLY - ply);
        }
        assert_eq!(pv.row(0).len(), MAX_PLY);
    }
}

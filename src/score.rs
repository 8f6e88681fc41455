//! The shared vocabulary of every layer: the score scale (centipawns, with mate and tablebase
//! scores counted in plies from the root) and the deepest ply a search reaches.
//!
//! This module imports nothing from the crate: scores, the transposition table, the tablebases,
//! the evaluation, the search and the UCI text all build on it.

/// Deepest ply a search may reach; no node is ever searched at `ply >= MAX_PLY`.
pub const MAX_PLY: usize = 128;

/// Score of delivering mate at the root; mate in `p` plies scores `MATE - p`.
pub const MATE: i32 = 30_000;
/// Larger than any score; the bounds of a full window.
pub const INFINITY: i32 = 31_000;
/// Scores at or beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// A tablebase win at the root; `TB_WIN - ply` at `ply`. Above any evaluation, below any mate.
pub const TB_WIN: i32 = 20_000;
/// Marks a missing static evaluation (the side to move is in check).
pub const NO_EVAL: i32 = -INFINITY;
/// Score of a drawn position.
pub const DRAW: i32 = 0;

/// Whether `score` announces a forced mate for either side.
pub const fn is_mate(score: i32) -> bool {
    score >= MATE_BOUND || score <= -MATE_BOUND
}

/// Mate distance in moves as UCI counts it: positive when the side to move mates, negative
/// when it is mated. `None` for ordinary scores.
pub const fn mate_in_moves(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances_in_moves() {
        assert_eq!(mate_in_moves(MATE - 1), Some(1));
        assert_eq!(mate_in_moves(MATE - 3), Some(2));
        assert_eq!(mate_in_moves(-MATE + 2), Some(-1));
        assert_eq!(mate_in_moves(-MATE + 4), Some(-2));
        assert_eq!(mate_in_moves(-MATE), Some(0));
        assert_eq!(mate_in_moves(250), None);
        assert!(is_mate(MATE - 100) && !is_mate(1000));
    }
}

//! The evaluation the engine plays with: the network's (see `nnue`), except where a queen or
//! rook stands against a bare king and the mating score of [`mopup`] takes over; plus the
//! win/draw/loss model that turns a score into expected results ([`wdl`]).
//!
//! The search reads the same figures from its incrementally updated accumulators
//! (`Searcher::incremental_eval`); [`static_eval`] rebuilds them from scratch for everything
//! else (a search stopped before its first line, `pv-check`, the `eval` command).

pub mod mopup;
pub mod wdl;

use shakmaty::{Chess, Position};

use crate::nnue::Network;

/// The static evaluation of `pos` in centipawns, from the side to move: the bare-king mating
/// score where it applies, `net`'s output otherwise (shrunk as the fifty-move count grows,
/// see [`fifty_move_scaled`]).
pub fn static_eval(net: &Network, pos: &Chess) -> i32 {
    mopup::bare_king(pos)
        .unwrap_or_else(|| fifty_move_scaled(net.eval_from_scratch(pos), pos.halfmoves()))
}

/// With `FIFTY_MOVE_SCALE` above 0, the network's `score` shrinks towards a draw as the
/// half-moves since the last capture or pawn move rise: times
/// `(FIFTY_MOVE_SCALE − halfmoves) / FIFTY_MOVE_SCALE`, so that an advantage that is not
/// being made into progress counts for less. 0 leaves the score as it is.
#[inline]
pub fn fifty_move_scaled(score: i32, halfmoves: u32) -> i32 {
    shrunk_by_halfmoves(score, halfmoves, FIFTY_MOVE_SCALE)
}

/// `score` times `(scale − halfmoves) / scale` (never below 0), or `score` itself at scale 0.
#[inline]
fn shrunk_by_halfmoves(score: i32, halfmoves: u32, scale: i32) -> i32 {
    if scale == 0 {
        return score;
    }
    let left = (scale - halfmoves.min(100) as i32).max(0);
    score * left / scale
}

/// See [`fifty_move_scaled`].
const FIFTY_MOVE_SCALE: i32 = 0;

#[cfg(test)]
mod tests {
    use super::*;

    /// The score shrinks in proportion to the half-moves, alike for both signs, to half at
    /// the fiftieth move with scale 200; scale 0 leaves it alone.
    #[test]
    fn scores_shrink_with_the_fifty_move_count() {
        assert_eq!(shrunk_by_halfmoves(300, 0, 200), 300);
        assert_eq!(shrunk_by_halfmoves(300, 50, 200), 225);
        assert_eq!(shrunk_by_halfmoves(-300, 50, 200), -225);
        assert_eq!(shrunk_by_halfmoves(300, 100, 200), 150);
        assert_eq!(shrunk_by_halfmoves(300, 150, 200), 150);
        assert_eq!(shrunk_by_halfmoves(300, 100, 100), 0);
        assert_eq!(shrunk_by_halfmoves(300, 77, 0), 300);
        assert_eq!(
            fifty_move_scaled(123, 60),
            shrunk_by_halfmoves(123, 60, FIFTY_MOVE_SCALE)
        );
    }
}

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
    if FIFTY_MOVE_SCALE == 0 {
        return score;
    }
    let left = (FIFTY_MOVE_SCALE - halfmoves.min(100) as i32).max(0);
    score * left / FIFTY_MOVE_SCALE
}

/// See [`fifty_move_scaled`].
const FIFTY_MOVE_SCALE: i32 = 0;

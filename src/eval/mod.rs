//! The evaluation the engine plays with: the network's (see `nnue`), except where a queen or
//! rook stands against a bare king and the mating score of [`mopup`] takes over; plus the
//! win/draw/loss model that turns a score into expected results ([`wdl`]).
//!
//! The search reads the same figures from its incrementally updated accumulators
//! (`Searcher::incremental_eval`); [`static_eval`] rebuilds them from scratch for everything
//! else (a search stopped before its first line, `pv-check`, the `eval` command).

pub mod mopup;
pub mod wdl;

use shakmaty::Chess;

use crate::nnue::Network;

/// The static evaluation of `pos` in centipawns, from the side to move: the bare-king mating
/// score where it applies, `net`'s output otherwise.
pub fn static_eval(net: &Network, pos: &Chess) -> i32 {
    mopup::bare_king(pos).unwrap_or_else(|| net.eval_from_scratch(pos))
}

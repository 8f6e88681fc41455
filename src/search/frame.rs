//! The search stack: what the search keeps for the node at each ply of the path it is on.

use shakmaty::{Chess, Move};

use crate::nnue::{self, Accumulator};
use crate::score::{MAX_PLY, NO_EVAL};

/// The state of the node at one ply of the current path.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    /// The network's accumulators of the node (both sides' hidden layers).
    pub acc: Accumulator,
    /// The node's static evaluation as the search uses it (`NO_EVAL` in check).
    pub eval: i32,
    /// The move played from the node to the next ply (`None` for a null move).
    pub mv: Option<Move>,
    /// The move a singular-extension search of the node leaves out (`None` outside one).
    pub excluded: Option<Move>,
    /// Double extensions on the path down to the node.
    pub double_extensions: u8,
}

/// One frame per ply from the root (ply 0) to `MAX_PLY`.
pub(super) fn new_stack() -> Vec<Frame> {
    let frame = Frame {
        acc: Accumulator::from_position(nnue::network(), &Chess::default()),
        eval: NO_EVAL,
        mv: None,
        excluded: None,
        double_extensions: 0,
    };
    vec![frame; MAX_PLY + 1]
}

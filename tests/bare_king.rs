//! Mating a bare king: with a queen or a rook against a lone king, Pivot playing both sides at
//! 5,000 nodes a move (as `datagen` does) mates well within the fifty-move rule.

mod common;

use common::{Pivot, play_engine_move, position};
use shakmaty::Position;

/// Plays `fen` out with `go nodes 5000` for both sides and returns the number of moves of the
/// stronger side until mate, or `None` if 60 moves pass without one.
fn moves_to_mate(fen: &str) -> Option<usize> {
    let mut pivot = Pivot::start();
    pivot.send("uci");
    pivot.read_until("uciok");
    let mut pos = position(fen);
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..120usize {
        if pos.is_checkmate() {
            return Some(ply.div_ceil(2));
        }
        if pos.legal_moves().is_empty() || pos.halfmoves() >= 100 {
            return None;
        }
        play_engine_move(&mut pivot, fen, &mut moves, &mut pos, "go nodes 5000");
    }
    None
}

#[test]
fn a_rook_or_queen_mates_a_lone_king() {
    for fen in [
        "8/8/8/3k4/8/8/8/R3K3 w - - 0 1",
        "8/8/8/4k3/8/8/2K5/7R b - - 0 1",
        "8/8/8/3k4/8/8/8/4KQ2 w - - 0 1",
        "7K/8/8/8/3k4/8/8/1q6 b - - 0 1",
    ] {
        let moves = moves_to_mate(fen);
        assert!(moves.is_some_and(|n| n <= 40), "{fen}: {moves:?}");
    }
}

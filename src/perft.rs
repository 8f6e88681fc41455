//! Perft: counting the leaf nodes of the legal move tree (move generator verification).

use shakmaty::{Chess, Move, Position};

/// Number of legal move sequences of length `depth` from `pos` (bulk-counted at the last ply).
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            perft(&child, depth - 1)
        })
        .sum()
}

/// Perft split by root move ("divide").
pub fn divide(pos: &Chess, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn count(fen: &str, depth: u32) -> u64 {
        perft(Game::from_fen(fen).unwrap().0.pos(), depth)
    }

    #[test]
    fn start_position() {
        assert_eq!(perft(&Chess::default(), 4), 197_281);
    }

    #[test]
    fn divide_sums_to_perft() {
        let game = Game::default();
        let parts = divide(game.pos(), 3);
        assert_eq!(parts.len(), 20);
        assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), 8_902);
    }

    #[test]
    fn kiwipete_and_classic_traps() {
        // Counts from the Chess Programming Wiki "Perft Results" page.
        assert_eq!(
            count(
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                3
            ),
            97_862
        );
        assert_eq!(
            count("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
            674_624
        );
        assert_eq!(
            count(
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                4
            ),
            422_333
        );
        assert_eq!(
            count(
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                3
            ),
            62_379
        );
    }
}

//! Mating a bare king: with a queen or rook against a lone king, a score that rises as the lone
//! king is driven to the edge and the kings close in, in place of the network's.
//!
//! The network learned these endings from self-play at a few thousand nodes a move, which often
//! failed to mate and drew by the fifty-move rule; it rates them a couple of pawns up with no
//! sense of direction. This score leads a shallow search to the mate and marks the ending as won.

use shakmaty::{Board, Chess, Color, Position, Role, Square};

/// The base score of a won bare-king ending, above `datagen`'s adjudication threshold.
const WON: i32 = 2_000;
/// Per step of the lone king's distance from the centre (0 to 6).
const EDGE: i32 = 40;
/// Per step the kings are closer than the farthest possible (0 to 6).
const CLOSE: i32 = 10;

/// Material of one side's pieces and pawns in centipawns (pawn 100, knight and bishop 300, rook
/// 500, queen 900).
fn material(board: &Board, color: Color) -> i32 {
    let pawns = (board.by_color(color) & board.pawns()).count() as i32;
    100 * (pieces_value(board, color) + pawns)
}

/// Material of one side's pieces (no pawns) in pawns: knight and bishop 3, rook 5, queen 9.
fn pieces_value(board: &Board, color: Color) -> i32 {
    let ours = board.by_color(color);
    [
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ]
    .into_iter()
    .map(|(role, v)| v * (ours & board.by_role(role)).count() as i32)
    .sum()
}

/// Manhattan distance of `sq` from the four centre squares.
fn centre_distance(sq: Square) -> i32 {
    let file = i32::from(sq.file() as u8);
    let rank = i32::from(sq.rank() as u8);
    (3 - file).max(file - 4) + (3 - rank).max(rank - 4)
}

/// The score of `pos` for the side to move when one side has only its king and the other a
/// queen or rook; `None` otherwise.
#[inline]
pub fn bare_king(pos: &Chess) -> Option<i32> {
    let board = pos.board();
    let strong = Color::ALL.into_iter().find(|&c| {
        board.by_color(!c).count() == 1 && (board.by_color(c) & board.rooks_and_queens()).any()
    })?;
    let lone = board.king_of(!strong)?;
    let king = board.king_of(strong)?;
    let closeness = 7 - king.distance(lone) as i32;
    let score = WON + material(board, strong) + EDGE * centre_distance(lone) + CLOSE * closeness;
    Some(if pos.turn() == strong { score } else { -score })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn score(fen: &str) -> Option<i32> {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        bare_king(&pos)
    }

    #[test]
    fn only_a_queen_or_rook_against_a_lone_king_counts() {
        assert_eq!(
            score("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").map(i32::signum),
            Some(1)
        );
        assert_eq!(
            score("4k3/8/8/8/8/8/8/R3K3 b - - 0 1").map(i32::signum),
            Some(-1)
        );
        assert_eq!(
            score("4k3/8/8/8/8/8/8/q3K3 w - - 0 1").map(i32::signum),
            Some(-1)
        );
        assert_eq!(score("4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1"), None);
        assert_eq!(score("4k3/p7/8/8/8/8/8/R3K3 w - - 0 1"), None);
        assert_eq!(
            score("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            None
        );
    }

    /// The lone king on the edge, and the kings close together, score higher.
    #[test]
    fn the_score_leads_towards_the_mate() {
        let centre = score("8/8/8/3k4/8/8/8/R3K3 w - - 0 1").unwrap();
        let edge = score("3k4/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        let corner = score("k7/8/8/8/8/8/8/1R2K3 w - - 0 1").unwrap();
        assert!(centre < edge && edge < corner, "{centre} {edge} {corner}");
        let far = score("k7/8/8/8/8/8/8/1R5K w - - 0 1").unwrap();
        let near = score("k7/8/1K6/8/8/8/8/1R6 w - - 0 1").unwrap();
        assert!(far < near, "{far} {near}");
        assert!(corner < crate::score::TB_WIN);
    }
}

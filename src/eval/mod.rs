//! Static evaluation: tapered PeSTO material and piece-square tables, from the side to move.

mod pesto;
pub mod wdl;

use shakmaty::{Chess, Color, Position, Role, Square};

use pesto::{EG_TABLE, EG_VALUE, MG_TABLE, MG_VALUE, PHASE_WEIGHT};

/// Game phase with all minor and major pieces on the board.
const FULL_PHASE: i32 = 24;

/// Index into a PeSTO table (a8 first) for a piece of `color` on `sq`.
#[inline]
fn table_index(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.to_usize() ^ 56,
        Color::Black => sq.to_usize(),
    }
}

/// The game phase: 24 with every knight, bishop, rook and queen on the board, 0 with none
/// (knights and bishops count 1, rooks 2, queens 4; capped at 24).
pub fn phase(pos: &Chess) -> i32 {
    let board = pos.board();
    Role::ALL
        .iter()
        .map(|&role| PHASE_WEIGHT[role as usize - 1] * board.by_role(role).count() as i32)
        .sum::<i32>()
        .min(FULL_PHASE)
}

/// Evaluates `pos` in centipawns from the point of view of the side to move.
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    let mut phase = 0;
    for color in Color::ALL {
        let side = color as usize;
        let ours = board.by_color(color);
        for role in Role::ALL {
            let r = role as usize - 1;
            for sq in ours & board.by_role(role) {
                let i = table_index(color, sq);
                mg[side] += MG_VALUE[r] + MG_TABLE[r][i];
                eg[side] += EG_VALUE[r] + EG_TABLE[r][i];
                phase += PHASE_WEIGHT[r];
            }
        }
    }
    let us = pos.turn() as usize;
    let them = 1 - us;
    let mg_phase = phase.min(FULL_PHASE);
    let mg_score = mg[us] - mg[them];
    let eg_score = eg[us] - eg[them];
    (mg_score * mg_phase + eg_score * (FULL_PHASE - mg_phase)) / FULL_PHASE
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, EnPassantMode, FromSetup};

    use crate::game::test_position as pos;

    /// The same position with colours swapped and the board mirrored top to bottom.
    fn flipped(p: &Chess) -> Chess {
        let mut setup = p.to_setup(EnPassantMode::Legal);
        setup.mirror();
        Chess::from_setup(setup, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Chess::default()), 0);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            "8/8/4k3/8/2N5/8/3PK3/8 b - - 0 1",
        ] {
            let p = pos(fen);
            assert_eq!(evaluate(&p), evaluate(&flipped(&p)), "{fen}");
        }
    }

    #[test]
    fn extra_material_is_good_for_its_owner() {
        let white_up_a_queen = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert!(evaluate(&white_up_a_queen) > 800);
        let black_to_move = pos("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
        assert!(evaluate(&black_to_move) < -800);
    }
}

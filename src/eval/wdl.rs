//! Win/draw/loss model: the expected result, per mille, of a score in a given game phase
//! (`UCI_ShowWDL`).
//!
//! With `s` the score in centipawns for the side to move and `m` the phase (0 with only kings
//! and pawns, 24 with every piece; see [`phase`]):
//!
//! ```text
//! win  = 1 / (1 + exp((a(m) - s) / b(m)))      a(m) = A0 + A1 m / 24
//! loss = 1 / (1 + exp((a(m) + s) / b(m)))      b(m) = B0 + B1 m / 24
//! draw = 1 - win - loss
//! ```
//!
//! The parameters were fitted by maximum likelihood with `scripts/fit_wdl.py` on Pivot's own
//! games (see that script for how samples are taken); the fit is described in the README.

use shakmaty::{Chess, Position, Role};

use crate::score::{MATE_BOUND, mate_in_moves};

const A0: f64 = FIT[0];
const A1: f64 = FIT[1];
const B0: f64 = FIT[2];
const B1: f64 = FIT[3];
const FIT: [f64; 4] = [246.6, -208.1, 145.0, -83.0];

/// Game phase with all minor and major pieces on the board.
pub const FULL_PHASE: i32 = 24;
/// Contribution of each piece kind to the game phase: pawn, knight, bishop, rook, queen, king.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// The game phase the model reads: 24 with every knight, bishop, rook and queen on the board,
/// 0 with none (knights and bishops count 1, rooks 2, queens 4; capped at 24).
pub fn phase(pos: &Chess) -> i32 {
    let board = pos.board();
    Role::ALL
        .iter()
        .map(|&role| PHASE_WEIGHT[role as usize - 1] * board.by_role(role).count() as i32)
        .sum::<i32>()
        .min(FULL_PHASE)
}

/// `(win, draw, loss)` per mille for `score` (side to move) at `phase` (0 to 24); the three
/// add up to 1000. Mate scores are certain results.
pub fn wdl(score: i32, phase: i32) -> (u32, u32, u32) {
    if score.abs() >= MATE_BOUND {
        return match mate_in_moves(score) {
            Some(n) if n < 0 => (0, 0, 1000),
            _ => (1000, 0, 0),
        };
    }
    let m = f64::from(phase.clamp(0, 24)) / 24.0;
    let a = A0 + A1 * m;
    let b = (B0 + B1 * m).max(1.0);
    let s = f64::from(score);
    let win = 1.0 / (1.0 + ((a - s) / b).exp());
    let loss = 1.0 / (1.0 + ((a + s) / b).exp());
    let w = (win * 1000.0).round().clamp(0.0, 1000.0) as u32;
    let l = ((loss * 1000.0).round().clamp(0.0, 1000.0) as u32).min(1000 - w);
    (w, 1000 - w - l, l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::MATE;

    #[test]
    fn sums_to_a_thousand_and_is_symmetric() {
        for phase in [0, 12, 24] {
            for score in [-2000, -300, -50, 0, 50, 300, 2000] {
                let (w, d, l) = wdl(score, phase);
                assert_eq!(w + d + l, 1000, "{score} {phase}");
                let (w2, _, l2) = wdl(-score, phase);
                assert!(
                    w.abs_diff(l2) <= 1 && l.abs_diff(w2) <= 1,
                    "{score} {phase}"
                );
            }
        }
    }

    #[test]
    fn more_score_means_more_wins_and_mates_are_certain() {
        let mut last = 0;
        for score in (-1000..=1000).step_by(50) {
            let (w, _, _) = wdl(score, 12);
            assert!(w >= last);
            last = w;
        }
        assert_eq!(wdl(MATE - 5, 12), (1000, 0, 0));
        assert_eq!(wdl(-MATE + 4, 12), (0, 0, 1000));
    }
}

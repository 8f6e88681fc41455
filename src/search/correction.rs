//! Correction history: how far search results have strayed from the static evaluation in
//! positions with the same pawns, kept per side and added to later evaluations of such positions.
//! With `nonpawn_correction_percent` above 0, the same is kept by each colour's pieces other
//! than pawns (king included), and their mean is added with that weight.

use shakmaty::{Bitboard, Chess, Color, Position};

use super::params;
use crate::score::MATE_BOUND;

/// Slots per side (a power of two).
const SLOTS: usize = 16_384;
/// Fixed-point units per centipawn in the table.
const GRAIN: i32 = 256;
/// Largest correction, in centipawns.
const MAX_CORRECTION: i32 = 64;
/// A search result of depth `d` moves its slot `min(d + 1, MAX_WEIGHT) / WEIGHT_SCALE` of the
/// way towards its own error.
const WEIGHT_SCALE: i32 = 256;
const MAX_WEIGHT: i32 = 16;

pub struct CorrectionHistory {
    /// By side to move and pawn structure.
    table: Box<[[i32; SLOTS]; 2]>,
    /// By side to move, then by the white and the black pieces other than pawns.
    nonpawn: Box<[[[i32; SLOTS]; 2]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            table: Box::new([[0; SLOTS]; 2]),
            nonpawn: Box::new([[[0; SLOTS]; 2]; 2]),
        }
    }
}

impl CorrectionHistory {
    pub fn clear(&mut self) {
        for side in self.table.iter_mut() {
            side.fill(0);
        }
        for side in self.nonpawn.iter_mut().flatten() {
            side.fill(0);
        }
    }

    /// `raw`, the static evaluation of `pos` for its side to move, corrected by what searches
    /// of positions with the same pawns (and, with a weight, the same other pieces) found.
    #[inline]
    pub fn correct(&self, pos: &Chess, raw: i32) -> i32 {
        let side = pos.turn() as usize;
        let mut correction = self.table[side][pawn_slot(pos)];
        let percent = params::nonpawn_correction_percent();
        if percent > 0 {
            let [white, black] = nonpawn_slots(pos);
            let pieces = self.nonpawn[side][0][white] + self.nonpawn[side][1][black];
            correction += pieces / 2 * percent / 100;
        }
        (raw + correction / GRAIN).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Records that a search of `pos` to `depth` scored `score` where the uncorrected static
    /// evaluation said `raw`.
    #[inline]
    pub fn update(&mut self, pos: &Chess, depth: i32, raw: i32, score: i32) {
        let error = (score - raw).clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let side = pos.turn() as usize;
        let towards = |slot: &mut i32| {
            *slot = (*slot * (WEIGHT_SCALE - weight) + error * weight) / WEIGHT_SCALE;
        };
        towards(&mut self.table[side][pawn_slot(pos)]);
        if params::nonpawn_correction_percent() > 0 {
            let [white, black] = nonpawn_slots(pos);
            towards(&mut self.nonpawn[side][0][white]);
            towards(&mut self.nonpawn[side][1][black]);
        }
    }
}

/// The table slot of `pos`'s pawn structure: both colours' pawn bitboards, mixed.
#[inline]
fn pawn_slot(pos: &Chess) -> usize {
    let board = pos.board();
    let pawns = board.pawns();
    let white = (pawns & board.by_color(Color::White)).0;
    let black = (pawns & board.by_color(Color::Black)).0;
    let h = splitmix64(splitmix64(white) ^ black);
    (h >> (64 - SLOTS.trailing_zeros())) as usize
}

/// The table slots of the white and of the black pieces other than pawns: each colour's
/// knights, bishops, rooks, queens and king, mixed.
#[inline]
fn nonpawn_slots(pos: &Chess) -> [usize; 2] {
    let board = pos.board();
    let mix = |color: Color| {
        let own = board.by_color(color);
        let part = |b: Bitboard, k: u64| (b & own).0.wrapping_mul(k);
        let h = part(board.knights(), 0x9E37_79B9_7F4A_7C15)
            ^ part(board.bishops(), 0xC2B2_AE3D_27D4_EB4F)
            ^ part(board.rooks(), 0x1656_67B1_9E37_79F9)
            ^ part(board.queens(), 0x27D4_EB2F_1656_67C5)
            ^ part(board.kings(), 0xFF51_AFD7_ED55_8CCD);
        (splitmix64(h) >> (64 - SLOTS.trailing_zeros())) as usize
    };
    [mix(Color::White), mix(Color::Black)]
}

/// A 64-bit finalizer (the one of SplitMix64): every input bit reaches every output bit.
#[inline]
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn pos(fen: &str) -> Chess {
        Game::from_fen(fen).unwrap().0.pos().clone()
    }

    /// Errors found in one pawn structure move its evaluations, within the cap, and leave other
    /// structures and the other side alone.
    #[test]
    fn corrections_follow_results_by_pawn_structure_and_side() {
        let mut corr = CorrectionHistory::default();
        let a = pos("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        let a_pieces = pos("4k3/pp6/8/2n5/8/8/PP6/4K1N1 w - - 0 1");
        let a_black = pos("4k3/pp6/8/8/8/8/PP6/4K3 b - - 0 1");
        let b = pos("4k3/p7/8/8/8/8/PP6/4K3 w - - 0 1");
        assert_eq!(corr.correct(&a, 10), 10);
        for _ in 0..200 {
            corr.update(&a, 20, 10, 500);
        }
        let up = corr.correct(&a, 10) - 10;
        assert!((MAX_CORRECTION - 2..=MAX_CORRECTION).contains(&up), "{up}");
        assert_eq!(corr.correct(&a_pieces, 0), up);
        assert_eq!(corr.correct(&a_black, 10), 10);
        assert_eq!(corr.correct(&b, 10), 10);
        for _ in 0..200 {
            corr.update(&a, 20, 10, 10);
        }
        assert!((9..=11).contains(&corr.correct(&a, 10)));
        corr.update(&a, 20, 0, -500);
        assert!(corr.correct(&a, 10) < 10);
        corr.clear();
        assert_eq!(corr.correct(&a, 10), 10);
    }

    /// A correction never turns an evaluation into a mate score.
    #[test]
    fn corrected_evaluations_stay_below_mate_scores() {
        let mut corr = CorrectionHistory::default();
        let a = pos("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        for _ in 0..200 {
            corr.update(&a, 20, 0, 100);
        }
        assert_eq!(corr.correct(&a, MATE_BOUND - 2), MATE_BOUND - 1);
    }
}

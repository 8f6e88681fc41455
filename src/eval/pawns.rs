//! Pawn structure: passed, isolated, doubled, backward and connected pawns.

use shakmaty::{Bitboard, Color, Square};

use super::Sink;
use super::attacks::{
    Maps, bit, files_of, front_fill, neighbour_files, pawn_attacks, push, relative_rank,
};
use super::layout::{
    BACKWARD, CONNECTED, DOUBLED, ISOLATED, PASSED, PASSED_FREE, PASSED_OWN_KING, PASSED_THEIR_KING,
};

/// Scores every pawn of both sides.
pub fn structure(maps: &Maps, sink: &mut impl Sink) {
    for color in Color::ALL {
        let us = color as usize;
        let them = 1 - us;
        let ours = maps.pawns[us];
        let theirs = maps.pawns[them];
        let their_pawn_attacks = maps.by_role[them][0];
        for sq in Bitboard(ours) {
            let b = bit(sq);
            let rank = relative_rank(color, sq);
            let ahead = front_fill(color, b);
            let adjacent = neighbour_files(b);
            let adjacent_files = files_of(adjacent);

            if ahead & ours != 0 {
                sink.add(color, DOUBLED, 1);
            }
            if adjacent_files & ours == 0 {
                sink.add(color, ISOLATED, 1);
            } else {
                // Backward: every neighbouring pawn is ahead, and the stop square is watched
                // by an enemy pawn.
                let behind_or_level = adjacent_files & !front_fill(color, adjacent);
                if behind_or_level & ours == 0 && push(color, b) & their_pawn_attacks != 0 {
                    sink.add(color, BACKWARD, 1);
                }
            }
            let phalanx = adjacent & ours;
            let support = pawn_attacks(color.other(), b) & ours;
            if phalanx | support != 0 {
                sink.add(color, CONNECTED + rank, 1);
            }

            let span = ahead | front_fill(color, adjacent);
            if span & theirs == 0 && ahead & ours == 0 {
                passed(color, sq, rank, ahead, maps, sink);
            }
        }
    }
}

/// Bonuses of a passed pawn of `color` on `sq`, with `ahead` the squares in front of it.
fn passed(color: Color, sq: Square, rank: usize, ahead: u64, maps: &Maps, sink: &mut impl Sink) {
    let us = color as usize;
    let them = 1 - us;
    sink.add(color, PASSED + rank, 1);
    if ahead & maps.occupied.0 == 0 && ahead & maps.all[them] & !maps.all[us] == 0 {
        sink.add(color, PASSED_FREE + rank, 1);
    }
    let stop = match color {
        Color::White => sq.offset(8),
        Color::Black => sq.offset(-8),
    };
    if let Some(stop) = stop {
        let own = maps.king[us].distance(stop).min(7) as usize;
        let their = maps.king[them].distance(stop).min(7) as usize;
        sink.add(color, PASSED_OWN_KING + own, 1);
        sink.add(color, PASSED_THEIR_KING + their, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::layout::WEIGHT_COUNT;
    use crate::game::test_position as pos;

    /// White's and Black's count of each pawn term in `fen`.
    fn counts(fen: &str) -> [Vec<i32>; 2] {
        struct Counts([Vec<i32>; 2]);
        impl Sink for Counts {
            fn add(&mut self, color: Color, index: usize, count: i32) {
                self.0[color as usize][index] += count;
            }
        }
        let p = pos(fen);
        let maps = Maps::new(shakmaty::Position::board(&p));
        let mut c = Counts([vec![0; WEIGHT_COUNT], vec![0; WEIGHT_COUNT]]);
        structure(&maps, &mut c);
        let [black, white] = c.0;
        [white, black]
    }

    #[test]
    fn isolated_doubled_and_passed_pawns_are_found() {
        // White: a2 isolated; c3 and c4 doubled (and isolated). Black: g7 and h7 side by side
        // (second rank from Black's side), e5 isolated and passed (fourth rank).
        let [white, black] = counts("4k3/6pp/8/4p3/2P5/2P5/P7/4K3 w - - 0 1");
        assert_eq!(white[ISOLATED], 3);
        assert_eq!(white[DOUBLED], 1);
        assert_eq!(black[ISOLATED], 1);
        assert_eq!(black[CONNECTED + 1], 2);
        assert_eq!(black[PASSED + 3], 1);
        // a2 and c4 are passed; c3, behind its own pawn, is not.
        assert_eq!(white[PASSED + 3], 1);
        assert_eq!(white[PASSED + 2], 0);
        assert_eq!(white[PASSED + 1], 1);
    }

    #[test]
    fn a_pawn_behind_its_neighbours_under_attack_is_backward() {
        // d3 cannot be defended by the c4 and e4 pawns, and Black's e5 pawn watches d4.
        let [white, _] = counts("4k3/8/8/4p3/2P1P3/3P4/8/4K3 w - - 0 1");
        assert_eq!(white[BACKWARD], 1);
    }
}

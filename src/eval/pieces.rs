//! Piece terms: material and piece squares, mobility, rooks on open files, outposts, the bishop
//! pair, king safety and threats.

use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

use super::Sink;
use super::attacks::{
    FILE_A, Maps, bit, files_of, front_fill, neighbour_files, pawn_attacks, push, relative_rank,
};
use super::layout::{
    BISHOP_MOBILITY, BISHOP_PAIR, BISHOP_PAWNS, HANGING, KING_ATTACKERS, KING_SHIELD,
    KING_ZONE_ATTACKS, KNIGHT_MOBILITY, MATERIAL, MINOR_BEHIND_PAWN, OUTPOST, PAWN_PUSH_THREAT,
    PAWN_STORM, PSQT, QUEEN_MOBILITY, ROOK_MOBILITY, ROOK_OPEN, ROOK_SEMI_OPEN, SAFE_CHECKS,
    THREAT_BY_MINOR, THREAT_BY_PAWN, THREAT_BY_ROOK, WEAK_KING_SQUARES,
};

/// The square index from `color`'s side (a1 for White is a8 for Black).
#[inline]
fn relative_square(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.to_usize(),
        Color::Black => sq.to_usize() ^ 56,
    }
}

/// Piece values and piece-square tables.
pub fn material(board: &Board, sink: &mut impl Sink) {
    for color in Color::ALL {
        let ours = board.by_color(color);
        for role in Role::ALL {
            let r = role as usize - 1;
            for sq in ours & board.by_role(role) {
                sink.add(color, MATERIAL + r, 1);
                sink.add(color, PSQT + 64 * r + relative_square(color, sq), 1);
            }
        }
    }
}

/// Mobility, rooks on open and semi-open files, outposts and the bishop pair.
pub fn activity(board: &Board, maps: &Maps, sink: &mut impl Sink) {
    let all_pawns = maps.pawns[0] | maps.pawns[1];
    for color in Color::ALL {
        let us = color as usize;
        let them = 1 - us;
        let ours = board.by_color(color);
        let own_king = bit(maps.king[us]);
        let area = !(maps.pawns[us] | own_king) & !maps.by_role[them][0];
        let our_pawn_attacks = maps.by_role[us][0];
        for piece in maps.pieces_of(us) {
            let (role, sq) = (piece.role, piece.sq);
            let base = match role {
                Role::Knight => KNIGHT_MOBILITY,
                Role::Bishop => BISHOP_MOBILITY,
                Role::Rook => ROOK_MOBILITY,
                _ => QUEEN_MOBILITY,
            };
            let b = bit(sq);
            let reach = piece.attacks & area;
            sink.add(color, base + reach.count_ones() as usize, 1);
            match role {
                Role::Rook => {
                    let file = files_of(b);
                    if file & all_pawns == 0 {
                        sink.add(color, ROOK_OPEN, 1);
                    } else if file & maps.pawns[us] == 0 {
                        sink.add(color, ROOK_SEMI_OPEN, 1);
                    }
                }
                Role::Knight | Role::Bishop => {
                    if push(color, b) & maps.pawns[us] != 0 {
                        sink.add(color, MINOR_BEHIND_PAWN, 1);
                    }
                    if role == Role::Bishop {
                        let light = Bitboard::LIGHT_SQUARES.0;
                        let colour = if b & light != 0 { light } else { !light };
                        let n = (maps.pawns[us] & colour).count_ones() as i32;
                        if n > 0 {
                            sink.add(color, BISHOP_PAWNS, n);
                        }
                    }
                    let rank = relative_rank(color, sq);
                    let safe = front_fill(color, neighbour_files(b)) & maps.pawns[them] == 0;
                    if (3..=5).contains(&rank) && b & our_pawn_attacks != 0 && safe {
                        let index = if role == Role::Knight { 0 } else { 1 };
                        sink.add(color, OUTPOST + index, 1);
                    }
                }
                _ => {}
            }
        }
        if (ours & board.bishops()).more_than_one() {
            sink.add(color, BISHOP_PAIR, 1);
        }
    }
}

/// Attacks on the enemy king's zone, safe checks, and each side's pawn shield.
pub fn king_safety(maps: &Maps, sink: &mut impl Sink) {
    for color in Color::ALL {
        let us = color as usize;
        let them = 1 - us;
        let zone = maps.king_zone[them];
        let mut attackers = 0;
        for piece in maps.pieces_of(us) {
            let hits = piece.attacks & zone;
            if hits != 0 {
                attackers += 1;
                let i = piece.role as usize - 2;
                sink.add(color, KING_ZONE_ATTACKS + i, hits.count_ones() as i32);
            }
        }
        sink.add(color, KING_ATTACKERS + attackers.min(7), 1);

        let king = maps.king[them];
        let safe = !maps.all[them] & !maps.side[us];
        let diagonal = attacks::bishop_attacks(king, maps.occupied).0;
        let straight = attacks::rook_attacks(king, maps.occupied).0;
        let checks = [
            attacks::knight_attacks(king).0 & maps.by_role[us][1],
            diagonal & maps.by_role[us][2],
            straight & maps.by_role[us][3],
            (diagonal | straight) & maps.by_role[us][4],
        ];
        for (i, squares) in checks.into_iter().enumerate() {
            let n = (squares & safe).count_ones() as i32;
            if n > 0 {
                sink.add(color, SAFE_CHECKS + i, n);
            }
        }

        // Weak squares around our own king: attacked, and covered by no pawn, minor or rook.
        let covered = maps.by_role[us][..4].iter().fold(0, |acc, a| acc | a);
        let weak = maps.king_zone[us] & maps.all[them] & !covered;
        if weak != 0 {
            sink.add(color, WEAK_KING_SQUARES, weak.count_ones() as i32);
        }

        shield_and_storm(color, maps, sink);
    }
}

/// The pawns on `color`'s king's file and the two next to it: on each, our nearest pawn in
/// front of the king (the shield), and the enemy pawn nearest our side by its rank (the storm).
fn shield_and_storm(color: Color, maps: &Maps, sink: &mut impl Sink) {
    let us = color as usize;
    let king = maps.king[us];
    let king_rank = relative_rank(color, king);
    let file = king.file().to_u32() as i32;
    for f in (file - 1).max(0)..=(file + 1).min(7) {
        let file_mask = FILE_A << f;
        let storm = Bitboard(maps.pawns[1 - us] & file_mask)
            .into_iter()
            .map(|sq| relative_rank(color, sq))
            .min()
            .unwrap_or(0);
        sink.add(color, PAWN_STORM + storm, 1);
        let nearest = Bitboard(maps.pawns[us] & file_mask)
            .into_iter()
            .map(|sq| relative_rank(color, sq) as i32 - king_rank as i32)
            .filter(|&d| d > 0)
            .min();
        let index = match nearest {
            Some(1) => 0,
            Some(2) => 1,
            _ => 2,
        };
        sink.add(color, KING_SHIELD + index, 1);
    }
}

/// Our pieces attacked by enemy pawns, minor pieces and rooks, and those left undefended.
pub fn threats(board: &Board, maps: &Maps, sink: &mut impl Sink) {
    for color in Color::ALL {
        let us = color as usize;
        let them = 1 - us;
        let ours = board.by_color(color);
        let by_pawn = maps.by_role[them][0];
        let by_minor = maps.by_role[them][1] | maps.by_role[them][2];
        let by_rook = maps.by_role[them][3];
        for role in Role::ALL {
            let r = role as usize - 1;
            let pieces = (ours & board.by_role(role)).0;
            for (base, attacked) in [
                (THREAT_BY_PAWN, by_pawn),
                (THREAT_BY_MINOR, by_minor),
                (THREAT_BY_ROOK, by_rook),
            ] {
                let n = (pieces & attacked).count_ones() as i32;
                if n > 0 {
                    sink.add(color, base + r, n);
                }
            }
        }
        let pieces = (ours & !board.pawns() & !board.kings()).0;
        // Their pawns' safe one-step pushes onto empty squares, and which of our pieces the
        // pushed pawns would attack.
        let pushes = push(color.other(), maps.pawns[them]) & !maps.occupied.0;
        let safe = pushes & !maps.by_role[us][0] & (maps.all[them] | !maps.all[us]);
        let threatened = pawn_attacks(color.other(), safe) & pieces;
        if threatened != 0 {
            sink.add(
                color.other(),
                PAWN_PUSH_THREAT,
                threatened.count_ones() as i32,
            );
        }
        let hanging = (pieces & maps.all[them] & !maps.all[us]).count_ones() as i32;
        if hanging > 0 {
            sink.add(color, HANGING, hanging);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::trace;
    use crate::game::test_position as pos;

    /// White's count minus Black's for weight `index` in `fen`.
    fn net(fen: &str, index: usize) -> i32 {
        trace(&pos(fen))
            .counts
            .iter()
            .filter(|&&(i, _)| i as usize == index)
            .map(|&(_, n)| i32::from(n))
            .sum()
    }

    #[test]
    fn a_pawn_storm_is_scored_by_the_rank_it_reached() {
        // Black's g- and h-pawns have reached White's fourth and third ranks next to the king on
        // g1, and the f-file has no black pawn. Around the king on e8, only the f-file has a
        // white pawn, still on f2 (Black's seventh rank).
        let fen = "4k3/8/8/8/6p1/7p/5PP1/6K1 w - - 0 1";
        assert_eq!(net(fen, PAWN_STORM + 3), 1);
        assert_eq!(net(fen, PAWN_STORM + 2), 1);
        assert_eq!(net(fen, PAWN_STORM + 6), -1);
        assert_eq!(net(fen, PAWN_STORM), 1 - 2);
    }

    #[test]
    fn a_pawn_push_that_forks_two_pieces_counts_twice() {
        // d4-d5 attacks the knights on c6 and e6, and no black pawn guards d5.
        let fen = "4k3/8/2n1n3/8/3P4/8/8/4K3 w - - 0 1";
        assert_eq!(net(fen, PAWN_PUSH_THREAT), 2);
        // With a black pawn on e6 instead of the knight, the push is no longer safe.
        let fen = "4k3/8/2n1p3/8/3P4/8/8/4K3 w - - 0 1";
        assert_eq!(net(fen, PAWN_PUSH_THREAT), 0);
    }

    #[test]
    fn bishops_count_their_own_pawns_on_their_colour() {
        // The bishop on c1 (dark) shares its colour with d2 and e3; b3 is light.
        let fen = "4k3/8/8/8/8/1P2P3/3P4/2B1K3 w - - 0 1";
        assert_eq!(net(fen, BISHOP_PAWNS), 2);
        // The knight on d3 has a pawn in front of it; the bishop on c1 does not.
        let fen = "4k3/8/8/8/3P4/3N4/8/2B1K3 w - - 0 1";
        assert_eq!(net(fen, MINOR_BEHIND_PAWN), 1);
    }
}

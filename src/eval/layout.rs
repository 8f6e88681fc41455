//! Where each evaluation term lives in the weight vector, so the evaluation and the tuner agree.
//!
//! Every term is a middlegame/endgame pair (`S`) multiplied by a count; the evaluation is the
//! sum of weight × (White's count − Black's count), tapered by the game phase. `GROUPS` names
//! each block for the tuner's output.

/// A middlegame and an endgame weight, in centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S {
    pub mg: i32,
    pub eg: i32,
}

/// Shorthand for writing weight tables.
pub const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

/// Piece values: pawn, knight, bishop, rook, queen, king (the king's stays 0).
pub const MATERIAL: usize = 0;
/// Piece-square tables, 64 squares per piece kind from a1 to h8, from the owner's side.
pub const PSQT: usize = MATERIAL + 6;
/// Passed pawn by relative rank (0 = first rank).
pub const PASSED: usize = PSQT + 6 * 64;
/// Passed pawn whose path to promotion is empty and whose stop square is not attacked.
pub const PASSED_FREE: usize = PASSED + 8;
/// Distance from our king to the square in front of our passed pawn (0–7).
pub const PASSED_OWN_KING: usize = PASSED_FREE + 8;
/// Distance from their king to the square in front of our passed pawn (0–7).
pub const PASSED_THEIR_KING: usize = PASSED_OWN_KING + 8;
/// A pawn with no friendly pawn on either neighbouring file.
pub const ISOLATED: usize = PASSED_THEIR_KING + 8;
/// A pawn with a friendly pawn in front of it on its file.
pub const DOUBLED: usize = ISOLATED + 1;
/// A pawn behind its neighbours that cannot advance safely.
pub const BACKWARD: usize = DOUBLED + 1;
/// A pawn side by side with or defended by a friendly pawn, by relative rank.
pub const CONNECTED: usize = BACKWARD + 1;
/// Mobility by the number of safe squares attacked: knight (0–8), bishop (0–13), rook (0–14),
/// queen (0–27).
pub const KNIGHT_MOBILITY: usize = CONNECTED + 8;
pub const BISHOP_MOBILITY: usize = KNIGHT_MOBILITY + 9;
pub const ROOK_MOBILITY: usize = BISHOP_MOBILITY + 14;
pub const QUEEN_MOBILITY: usize = ROOK_MOBILITY + 15;
/// Both bishops.
pub const BISHOP_PAIR: usize = QUEEN_MOBILITY + 28;
/// A rook on a file without pawns, and on a file without friendly pawns.
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
/// A knight or bishop on a square defended by a friendly pawn that no enemy pawn can attack.
pub const OUTPOST: usize = ROOK_SEMI_OPEN + 1;
/// Squares of the enemy king's zone attacked, by attacker: knight, bishop, rook, queen.
pub const KING_ZONE_ATTACKS: usize = OUTPOST + 2;
/// Number of pieces attacking the enemy king's zone (0–7, one-hot).
pub const KING_ATTACKERS: usize = KING_ZONE_ATTACKS + 4;
/// Squares from which a knight, bishop, rook or queen could give a check that our side does
/// not defend.
pub const SAFE_CHECKS: usize = KING_ATTACKERS + 8;
/// Pawn shield on the king's file and its neighbours: a pawn one rank ahead, two ranks ahead,
/// or none within two ranks.
pub const KING_SHIELD: usize = SAFE_CHECKS + 4;
/// Our pieces attacked by an enemy pawn, minor piece or rook, by victim (pawn … king).
pub const THREAT_BY_PAWN: usize = KING_SHIELD + 3;
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 6;
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 6;
/// Our pieces (not pawns) attacked and not defended.
pub const HANGING: usize = THREAT_BY_ROOK + 6;
/// The most advanced enemy pawn on each of the three files around our king, by its relative
/// rank from our side (0: none on that file).
pub const PAWN_STORM: usize = HANGING + 1;
/// Squares of our king's zone attacked by the enemy and defended by no pawn, minor or rook.
pub const WEAK_KING_SQUARES: usize = PAWN_STORM + 8;
/// Our pawns on squares of a bishop's colour, counted per bishop.
pub const BISHOP_PAWNS: usize = WEAK_KING_SQUARES + 1;
/// A knight or bishop with a friendly pawn right in front of it.
pub const MINOR_BEHIND_PAWN: usize = BISHOP_PAWNS + 1;
/// Enemy pieces (not pawns) a safe one-step push of our pawns would attack.
pub const PAWN_PUSH_THREAT: usize = MINOR_BEHIND_PAWN + 1;
/// The side to move.
pub const TEMPO: usize = PAWN_PUSH_THREAT + 1;
/// Length of the weight vector.
pub const WEIGHT_COUNT: usize = TEMPO + 1;

/// Each block's name, first index and length, in order.
pub const GROUPS: &[(&str, usize, usize)] = &[
    ("material", MATERIAL, 6),
    ("pawn psqt", PSQT, 64),
    ("knight psqt", PSQT + 64, 64),
    ("bishop psqt", PSQT + 128, 64),
    ("rook psqt", PSQT + 192, 64),
    ("queen psqt", PSQT + 256, 64),
    ("king psqt", PSQT + 320, 64),
    ("passed pawn by rank", PASSED, 8),
    ("free passed pawn by rank", PASSED_FREE, 8),
    ("own king distance to passer", PASSED_OWN_KING, 8),
    ("their king distance to passer", PASSED_THEIR_KING, 8),
    ("isolated pawn", ISOLATED, 1),
    ("doubled pawn", DOUBLED, 1),
    ("backward pawn", BACKWARD, 1),
    ("connected pawn by rank", CONNECTED, 8),
    ("knight mobility", KNIGHT_MOBILITY, 9),
    ("bishop mobility", BISHOP_MOBILITY, 14),
    ("rook mobility", ROOK_MOBILITY, 15),
    ("queen mobility", QUEEN_MOBILITY, 28),
    ("bishop pair", BISHOP_PAIR, 1),
    ("rook on open file", ROOK_OPEN, 1),
    ("rook on semi-open file", ROOK_SEMI_OPEN, 1),
    ("outpost: knight, bishop", OUTPOST, 2),
    ("king zone attacks: N B R Q", KING_ZONE_ATTACKS, 4),
    ("king zone attackers 0-7", KING_ATTACKERS, 8),
    ("safe checks: N B R Q", SAFE_CHECKS, 4),
    ("king shield: near, far, none", KING_SHIELD, 3),
    ("threat by pawn on P N B R Q K", THREAT_BY_PAWN, 6),
    ("threat by minor on P N B R Q K", THREAT_BY_MINOR, 6),
    ("threat by rook on P N B R Q K", THREAT_BY_ROOK, 6),
    ("hanging piece", HANGING, 1),
    ("pawn storm by relative rank (0: none)", PAWN_STORM, 8),
    ("weak king zone square", WEAK_KING_SQUARES, 1),
    ("pawn on its bishop's colour", BISHOP_PAWNS, 1),
    ("minor behind pawn", MINOR_BEHIND_PAWN, 1),
    ("pawn push threat", PAWN_PUSH_THREAT, 1),
    ("tempo", TEMPO, 1),
];

/// Weights the tuner leaves alone: the king's value and the pawn squares on the back ranks.
pub fn is_fixed(index: usize) -> bool {
    let pawn_back_rank = (PSQT..PSQT + 64).contains(&index) && {
        let sq = index - PSQT;
        !(8..56).contains(&sq)
    };
    index == MATERIAL + 5 || pawn_back_rank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_weight_vector() {
        let mut next = 0;
        for &(name, start, len) in GROUPS {
            assert_eq!(start, next, "{name}");
            next = start + len;
        }
        assert_eq!(next, WEIGHT_COUNT);
    }
}

//! Attack maps and pawn masks shared by the evaluation terms, as plain 64-bit boards (bit 0 = a1).
use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;

/// Squares attacked by the pawns in `pawns` of `color`.
#[inline]
pub fn pawn_attacks(color: Color, pawns: u64) -> u64 {
    match color {
        Color::White => ((pawns << 7) & !FILE_H) | ((pawns << 9) & !FILE_A),
        Color::Black => ((pawns >> 9) & !FILE_H) | ((pawns >> 7) & !FILE_A),
    }
}

/// Every square on the same file ahead of each square in `b`, from `color`'s side.
#[inline]
pub fn front_fill(color: Color, b: u64) -> u64 {
    let mut b = b;
    match color {
        Color::White => {
            b <<= 8;
            b |= b << 8;
            b |= b << 16;
            b |= b << 32;
        }
        Color::Black => {
            b >>= 8;
            b |= b >> 8;
            b |= b >> 16;
            b |= b >> 32;
        }
    }
    b
}

/// `b` moved one rank forward from `color`'s side.
#[inline]
pub fn push(color: Color, b: u64) -> u64 {
    match color {
        Color::White => b << 8,
        Color::Black => b >> 8,
    }
}

/// The squares on both files next to those of `b`.
#[inline]
pub fn neighbour_files(b: u64) -> u64 {
    ((b << 1) & !FILE_A) | ((b >> 1) & !FILE_H)
}

/// All squares of the files that hold a square of `b`.
#[inline]
pub fn files_of(b: u64) -> u64 {
    let mut f = b;
    f |= f << 8;
    f |= f << 16;
    f |= f << 32;
    f |= f >> 8;
    f |= f >> 16;
    f |= f >> 32;
    f
}

/// A square as a one-bit board.
#[inline]
pub fn bit(sq: Square) -> u64 {
    1u64 << sq.to_u32()
}

/// The rank of `sq` from `color`'s side (0 = its first rank).
#[inline]
pub fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.rank().to_usize(),
        Color::Black => 7 - sq.rank().to_usize(),
    }
}

/// The attacks of a piece of `role` and `color` on `sq` over `occupied`.
#[inline]
pub fn piece_attacks(color: Color, role: Role, sq: Square, occupied: Bitboard) -> u64 {
    match role {
        Role::Pawn => attacks::pawn_attacks(color, sq).0,
        Role::Knight => attacks::knight_attacks(sq).0,
        Role::Bishop => attacks::bishop_attacks(sq, occupied).0,
        Role::Rook => attacks::rook_attacks(sq, occupied).0,
        Role::Queen => attacks::queen_attacks(sq, occupied).0,
        Role::King => attacks::king_attacks(sq).0,
    }
}

/// A knight, bishop, rook or queen with the squares it attacks.
#[derive(Clone, Copy)]
pub struct Attacker {
    pub role: Role,
    pub sq: Square,
    pub attacks: u64,
}

/// At most this many knights, bishops, rooks and queens a side (a king and 15 others).
const MAX_PIECES: usize = 16;

/// What each side attacks, by piece kind, and where its king stands.
pub struct Maps {
    /// Each side's knights, bishops, rooks and queens with their attacks, and how many.
    pub pieces: [[Attacker; MAX_PIECES]; 2],
    pub piece_count: [usize; 2],
    pub occupied: Bitboard,
    /// Pieces of each side (index: `Color as usize`, as for every array here).
    pub side: [u64; 2],
    /// Pawns of each side.
    pub pawns: [u64; 2],
    /// Squares attacked by each side's pieces of each kind (index: colour, role − 1).
    pub by_role: [[u64; 6]; 2],
    /// Squares attacked by any piece of each side.
    pub all: [u64; 2],
    /// Each side's king square.
    pub king: [Square; 2],
    /// Each side's king zone: the king's square, its neighbours, and the squares two ranks in
    /// front of it.
    pub king_zone: [u64; 2],
}

impl Maps {
    /// The knights, bishops, rooks and queens of side `c` (`Color as usize`).
    #[inline]
    pub fn pieces_of(&self, c: usize) -> &[Attacker] {
        &self.pieces[c][..self.piece_count[c]]
    }

    pub fn new(board: &Board) -> Maps {
        let occupied = board.occupied();
        let none = Attacker {
            role: Role::Pawn,
            sq: Square::A1,
            attacks: 0,
        };
        let mut maps = Maps {
            pieces: [[none; MAX_PIECES]; 2],
            piece_count: [0; 2],
            occupied,
            side: [0; 2],
            pawns: [0; 2],
            by_role: [[0; 6]; 2],
            all: [0; 2],
            king: [Square::E1, Square::E8],
            king_zone: [0; 2],
        };
        for color in Color::ALL {
            let c = color as usize;
            let ours = board.by_color(color);
            maps.side[c] = ours.0;
            maps.pawns[c] = (ours & board.pawns()).0;
            let pawn_att = pawn_attacks(color, maps.pawns[c]);
            maps.by_role[c][0] = pawn_att;
            maps.all[c] = pawn_att;
            for role in [
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
                Role::King,
            ] {
                for sq in ours & board.by_role(role) {
                    let att = piece_attacks(color, role, sq, occupied);
                    if role != Role::King && maps.piece_count[c] < MAX_PIECES {
                        maps.pieces[c][maps.piece_count[c]] = Attacker {
                            role,
                            sq,
                            attacks: att,
                        };
                        maps.piece_count[c] += 1;
                    }
                    maps.all[c] |= att;
                    maps.by_role[c][role as usize - 1] |= att;
                }
            }
            if let Some(k) = board.king_of(color) {
                maps.king[c] = k;
                let near = attacks::king_attacks(k).0 | bit(k);
                let ahead = match color {
                    Color::White => near << 8,
                    Color::Black => near >> 8,
                };
                maps.king_zone[c] = near | ahead;
            }
        }
        maps
    }
}

//! Static exchange evaluation: what a move wins or loses once every capture on its target
//! square has been played out, least valuable attacker first.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square, attacks};

/// Exchange values of pawn, knight, bishop, rook, queen (the king is never captured).
const VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

#[inline]
fn value(role: Role) -> i32 {
    VALUE[role as usize - 1]
}

/// Whether `m` gains at least `threshold` centipawns on its target square when both sides
/// keep capturing there with their least valuable piece, each free to stop when that pays.
/// Castling, en passant and promotions count as an even trade. Pins are not considered.
pub fn see_ge(pos: &Chess, m: Move, threshold: i32) -> bool {
    let (from, to, role, captured) = match m {
        Move::Normal {
            from,
            to,
            role,
            capture,
            promotion: None,
        } => (from, to, role, capture),
        _ => return threshold <= 0,
    };
    let board = pos.board();
    // `swap` is what the side that moved last is ahead by, less the threshold.
    let mut swap = captured.map_or(0, value) - threshold;
    if swap < 0 {
        return false;
    }
    swap = value(role) - swap;
    if swap <= 0 {
        return true;
    }
    // The mover stands on `to` now; attacks through `from` open up.
    let mut occupied = (board.occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
    let exchange = Attackers::new(pos, to);
    let mut side = pos.turn();
    let mut wins = true;
    loop {
        side = !side;
        let attackers = exchange.through(occupied);
        let ours = attackers & board.by_color(side);
        if ours.is_empty() {
            break;
        }
        wins = !wins;
        let (sq, attacker) = least_valuable(pos, ours);
        if attacker == Role::King {
            // The king may only recapture when the other side has nothing left to take back.
            return if (attackers & board.by_color(!side)).any() {
                !wins
            } else {
                wins
            };
        }
        swap = value(attacker) - swap;
        if swap < i32::from(wins) {
            break;
        }
        occupied ^= Bitboard::from(sq);
    }
    wins
}

/// The pieces of both colours that can reach one square: those whose attacks do not depend on
/// the occupancy (pawns, knights, kings), and the sliders, whose lines are traced anew each time
/// a piece leaves the board.
struct Attackers {
    sq: Square,
    fixed: Bitboard,
    diagonal: Bitboard,
    straight: Bitboard,
}

impl Attackers {
    #[inline]
    fn new(pos: &Chess, sq: Square) -> Self {
        let board = pos.board();
        let pawns = (attacks::pawn_attacks(Color::Black, sq) & board.white() & board.pawns())
            | (attacks::pawn_attacks(Color::White, sq) & board.black() & board.pawns());
        Attackers {
            sq,
            fixed: pawns
                | (attacks::knight_attacks(sq) & board.knights())
                | (attacks::king_attacks(sq) & board.kings()),
            diagonal: board.bishops() | board.queens(),
            straight: board.rooks() | board.queens(),
        }
    }

    /// The attackers of the square still in `occupied`, sliders seen through `occupied`.
    #[inline]
    fn through(&self, occupied: Bitboard) -> Bitboard {
        (self.fixed
            | (attacks::bishop_attacks(self.sq, occupied) & self.diagonal)
            | (attacks::rook_attacks(self.sq, occupied) & self.straight))
            & occupied
    }
}

/// The square and kind of the least valuable piece in `set` (not empty).
#[inline]
fn least_valuable(pos: &Chess, set: Bitboard) -> (Square, Role) {
    let board = pos.board();
    for role in Role::ALL {
        if let Some(sq) = (set & board.by_role(role)).first() {
            return (sq, role);
        }
    }
    unreachable!("least_valuable called with an empty set")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::test_position as pos;

    fn mv(p: &Chess, uci: &str) -> Move {
        uci.parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(p)
            .unwrap()
    }

    #[test]
    fn an_undefended_piece_is_won_outright() {
        let p = pos("4k3/8/8/3r4/8/8/8/3RK3 w - - 0 1");
        let m = mv(&p, "d1d5");
        assert!(see_ge(&p, m, 500));
        assert!(!see_ge(&p, m, 501));
    }

    #[test]
    fn a_defended_pawn_taken_by_the_queen_loses_material() {
        let p = pos("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1");
        let m = mv(&p, "d1d5");
        assert!(!see_ge(&p, m, 0));
        assert!(see_ge(&p, m, 100 - 950));
        assert!(!see_ge(&p, m, 100 - 950 + 1));
    }

    #[test]
    fn x_ray_attackers_join_the_exchange() {
        // A knight defended once by a rook, attacked by two rooks doubled on the file.
        let p = pos("3rk3/8/8/3n4/8/8/3R4/3RK3 w - - 0 1");
        let m = mv(&p, "d2d5");
        // Rxd5 Rxd5 Rxd5: knight + rook for a rook.
        assert!(see_ge(&p, m, 320));
        assert!(!see_ge(&p, m, 321));
    }

    #[test]
    fn a_bishop_behind_a_capturing_pawn_joins_the_exchange() {
        // cxd4 exd4 Bxd4: a knight and a pawn for a pawn, the bishop seen through c3.
        let p = pos("4k3/8/8/4p3/3n4/2P5/1B6/4K3 w - - 0 1");
        let m = mv(&p, "c3d4");
        assert!(see_ge(&p, m, 320));
        assert!(!see_ge(&p, m, 321));
    }

    #[test]
    fn a_quiet_move_to_an_attacked_square_loses_the_piece() {
        let p = pos("4k3/8/8/4p3/8/8/8/3QK3 w - - 0 1");
        let m = mv(&p, "d1d4");
        assert!(!see_ge(&p, m, 0));
        let safe = mv(&p, "d1d2");
        assert!(see_ge(&p, safe, 0));
    }

    #[test]
    fn the_king_recaptures_only_on_an_undefended_square() {
        // Bxf7+ Kxf7: a bishop for a pawn.
        let p = pos("4k3/5p2/8/7B/8/8/8/4K3 w - - 0 1");
        let take = mv(&p, "h5f7");
        assert!(!see_ge(&p, take, 0));
        assert!(see_ge(&p, take, 100 - 330));
        // With the rook on f1 guarding f7, the king cannot take back: a clean pawn.
        let p = pos("4k3/5p2/8/7B/8/8/8/4KR2 w - - 0 1");
        let take = mv(&p, "h5f7");
        assert!(see_ge(&p, take, 100));
        assert!(!see_ge(&p, take, 101));
    }
}

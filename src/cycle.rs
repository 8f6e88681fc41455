//! Upcoming repetitions: whether the side to move can bring back an earlier position of the game
//! with one reversible move, found from the keys alone.
//!
//! Two positions that differ by one piece standing on one square or another, with the other side
//! to move, differ in their keys by the key of that piece on both squares and of the side to move.
//! Every such difference a knight, bishop, rook, queen or king can make in one move on an empty
//! board (3,668 of them) is kept in a cuckoo hash table, so that one or two lookups tell whether
//! an earlier position is a move away: the method of Marcel van Kervinck's note on detecting
//! upcoming repetitions (2013). The candidate move found is then checked in full (legal, and
//! leading to exactly the earlier key).

use std::sync::OnceLock;

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Bitboard, Chess, Color, Move, Piece, Position, Role, Square, attacks};

use crate::game::key_after;

/// Slots of the cuckoo table (a power of two).
const SLOTS: usize = 8192;

/// The moves of each non-pawn piece between two squares on an empty board, by their key
/// difference.
struct Cuckoo {
    /// The key difference each slot holds (0: empty).
    keys: Box<[u64; SLOTS]>,
    /// The piece and its two squares, lower first.
    moves: Box<[(Piece, Square, Square); SLOTS]>,
}

#[inline]
fn first_slot(diff: u64) -> usize {
    (diff as usize) & (SLOTS - 1)
}

#[inline]
fn second_slot(diff: u64) -> usize {
    ((diff >> 16) as usize) & (SLOTS - 1)
}

/// The key difference of `piece` standing on `a` rather than `b`, with the other side to move.
fn difference(piece: Piece, a: Square, b: Square) -> u64 {
    Zobrist64::zobrist_for_piece(a, piece).0
        ^ Zobrist64::zobrist_for_piece(b, piece).0
        ^ Zobrist64::zobrist_for_white_turn().0
}

impl Cuckoo {
    fn build() -> Cuckoo {
        let none = Piece {
            color: Color::White,
            role: Role::King,
        };
        let empty = (none, Square::A1, Square::A1);
        let mut table = Cuckoo {
            keys: Box::new([0; SLOTS]),
            moves: Box::new([empty; SLOTS]),
        };
        for color in Color::ALL {
            for role in [
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
                Role::King,
            ] {
                let piece = Piece { color, role };
                for a in Square::ALL {
                    let reach = attacks::attacks(a, piece, Bitboard::EMPTY);
                    for b in reach {
                        if b > a {
                            table.insert(difference(piece, a, b), (piece, a, b));
                        }
                    }
                }
            }
        }
        table
    }

    /// Cuckoo insertion: an entry displaced from its slot moves to its other slot.
    fn insert(&mut self, mut key: u64, mut mv: (Piece, Square, Square)) {
        let mut slot = first_slot(key);
        loop {
            std::mem::swap(&mut self.keys[slot], &mut key);
            std::mem::swap(&mut self.moves[slot], &mut mv);
            if key == 0 {
                return;
            }
            slot = if slot == first_slot(key) {
                second_slot(key)
            } else {
                first_slot(key)
            };
        }
    }

    /// The piece and squares of the move whose key difference is `diff`, if there is one.
    #[inline]
    fn find(&self, diff: u64) -> Option<(Piece, Square, Square)> {
        let slot = first_slot(diff);
        if self.keys[slot] == diff {
            return Some(self.moves[slot]);
        }
        let slot = second_slot(diff);
        (self.keys[slot] == diff).then(|| self.moves[slot])
    }

    /// How many moves the table holds.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.keys.iter().filter(|&&k| k != 0).count()
    }
}

fn table() -> &'static Cuckoo {
    static TABLE: OnceLock<Cuckoo> = OnceLock::new();
    TABLE.get_or_init(Cuckoo::build)
}

/// Whether the side to move in `pos` (key `key`) has a legal reversible move to a position among
/// the last `lookback` of `history` (oldest first, the last one a ply back) with the other side
/// to move: three, five, seven… plies back. The caller bounds `lookback` by the moves since the
/// last capture or pawn move and the last null move.
pub fn upcoming_repetition(pos: &Chess, key: u64, history: &[u64], lookback: usize) -> bool {
    let n = history.len();
    let lookback = lookback.min(n);
    if lookback < 3 {
        return false;
    }
    let table = table();
    let board = pos.board();
    let occupied = board.occupied();
    for back in (3..=lookback).step_by(2) {
        let earlier = history[n - back];
        let Some((piece, a, b)) = table.find(key ^ earlier) else {
            continue;
        };
        if piece.color != pos.turn() || (attacks::between(a, b) & occupied).any() {
            continue;
        }
        // The piece stands on one of the two squares now and goes to the other.
        let (from, to) = if board.piece_at(a) == Some(piece) {
            (a, b)
        } else if board.piece_at(b) == Some(piece) {
            (b, a)
        } else {
            continue;
        };
        let m = Move::Normal {
            role: piece.role,
            from,
            capture: None,
            to,
            promotion: None,
        };
        if !occupied.contains(to) && pos.is_legal(m) {
            let mut child = pos.clone();
            child.play_unchecked(m);
            if key_after(pos, key, m, &child) == earlier {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// Every move of a knight, bishop, rook, queen or king between two squares of an empty board,
    /// for both colours: 2 × (168 + 280 + 448 + 728 + 210).
    #[test]
    fn the_table_holds_every_piece_move_once() {
        let t = table();
        assert_eq!(t.len(), 3668);
        for color in Color::ALL {
            let piece = Piece {
                color,
                role: Role::Knight,
            };
            let (a, b) = (Square::G1, Square::F3);
            assert_eq!(
                t.find(difference(piece, a, b)),
                Some((piece, Square::G1, Square::F3))
            );
        }
    }

    fn game_after(fen: Option<&str>, moves: &str) -> Game {
        let mut game = match fen {
            Some(fen) => Game::from_fen(fen).unwrap().0,
            None => Game::default(),
        };
        for m in moves.split_whitespace() {
            game.play_uci(m).unwrap();
        }
        game
    }

    fn repeats(game: &Game, lookback: usize) -> bool {
        upcoming_repetition(game.pos(), game.key(), game.history(), lookback)
    }

    /// After Nf3 Nf6 Ng1, Black brings back the start position with Ng8: an upcoming
    /// repetition three plies back. Not with too short a look back (the count since the last
    /// capture or pawn move, or null move), and not a ply earlier, where White's knight on f3
    /// cannot be Black's move.
    #[test]
    fn a_knight_that_can_go_back_repeats() {
        let game = game_after(None, "g1f3 g8f6 f3g1");
        assert!(repeats(&game, 100));
        assert!(repeats(&game, 3));
        assert!(!repeats(&game, 2));
        assert!(!repeats(&game_after(None, "g1f3 g8f6"), 100));
        assert!(!repeats(&game_after(None, "g1f3"), 100));
    }

    /// A rook that went a1–b1–b3–a3 round a pawn on a2 while the black king walked e8–d8–d7–e7–e8
    /// cannot go back to a1 in one move: the pawn blocks it. Without the pawn it can (seven plies
    /// back; no position in between is a move away).
    #[test]
    fn a_blocked_way_back_does_not_repeat() {
        let moves = "e8d8 a1b1 d8d7 b1b3 d7e7 b3a3 e7e8";
        let blocked = game_after(Some("4k3/8/8/8/8/8/P7/R3K3 b - - 0 1"), moves);
        assert!(!repeats(&blocked, 100));
        let open = game_after(Some("4k3/8/8/8/8/8/8/R3K3 b - - 0 1"), moves);
        assert!(repeats(&open, 100));
        assert!(!repeats(&open, 6));
    }
}

//! Move generation that shakmaty does not offer on its own: the legal captures and promotions
//! of a position, for the quiescence search, without generating the quiet moves and throwing
//! them away. The moves come in exactly the order (and form) in which `legal_moves()` lists
//! them, so a search that switches from filtering that list to this one visits the same tree.
//! Also whether a move gives check, without playing it.

use shakmaty::attacks::{aligned, between, bishop_attacks, king_attacks, knight_attacks};
use shakmaty::attacks::{pawn_attacks, queen_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, ByRole, Chess, Color, Move, MoveList, Position, Role, Square};

const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);

/// Sets `moves` to the legal captures (en passant included) and promotions of `pos`, in
/// `legal_moves()` order: that list filtered to `is_capture() || is_promotion()`. Generated
/// directly when the side to move is not in check; in check the full list is filtered
/// (quiescence searches every evasion there anyway). The list is the caller's, filled in
/// place, because a list this size returned by value is copied on the way.
pub fn noisy_moves(pos: &Chess, moves: &mut MoveList) {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        *moves = filtered_legal_moves(pos);
        return;
    };
    if pos.is_check() {
        *moves = filtered_legal_moves(pos);
        return;
    }
    let them = pos.them();
    let occupied = board.occupied();
    moves.clear();

    // En passant first, as shakmaty generates it.
    let mut has_ep = false;
    if let Some(to) = pos.maybe_ep_square() {
        (pos.our(Role::Pawn) & pawn_attacks(!us, to)).for_each(|from| {
            moves.push(Move::EnPassant { from, to });
            has_ep = true;
        });
    }

    // Pawn captures towards the a-file, then towards the h-file; promotions by capture after
    // the plain captures of each direction; then promotions by a step forward.
    let pawns = pos.our(Role::Pawn);
    let (west, east, forward) = match us {
        Color::White => (7, 9, 8),
        Color::Black => (-9, -7, -8),
    };
    for (offset, edge) in [(west, FILE_A), (east, FILE_H)] {
        let captures = (pawns & !edge).shift(offset) & them;
        (captures & !Bitboard::BACKRANKS).for_each(|to| {
            let from = square_offset(to, -offset);
            moves.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        });
        (captures & Bitboard::BACKRANKS).for_each(|to| {
            push_promotions(moves, square_offset(to, -offset), to, board.role_at(to));
        });
    }
    let steps = pawns.shift(forward) & !occupied & Bitboard::BACKRANKS;
    steps.for_each(|to| push_promotions(moves, square_offset(to, -forward), to, None));

    // Pieces, in shakmaty's order of roles, each from its lowest square up.
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        pos.our(role).for_each(|from| {
            let reach = match role {
                Role::Knight => knight_attacks(from),
                Role::Bishop => bishop_attacks(from, occupied),
                Role::Rook => rook_attacks(from, occupied),
                _ => queen_attacks(from, occupied),
            };
            (reach & them).for_each(|to| {
                moves.push(Move::Normal {
                    role,
                    from,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            });
        });
    }

    // The king takes only what no enemy piece defends.
    (king_attacks(king) & them).for_each(|to| {
        if board.attacks_to(to, !us, occupied).is_empty() {
            moves.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    });

    // Pinned pieces move only along the pin; en passant must not uncover the king.
    let blockers = slider_blockers(board, them, king);
    if blockers.any() || has_ep {
        moves.retain(|m| is_safe(board, us, king, *m, blockers));
    }
}

/// Whether the side to move has a legal move, for a position that has no captures or
/// promotions: a safe step of the king settles it in most positions without generating the
/// other moves.
pub fn has_legal_move(pos: &Chess) -> bool {
    let board = pos.board();
    let us = pos.turn();
    if let Some(king) = board.king_of(us)
        && !pos.is_check()
    {
        let occupied = board.occupied();
        let steps = king_attacks(king) & !occupied;
        if steps
            .into_iter()
            .any(|to| board.attacks_to(to, !us, occupied).is_empty())
        {
            return true;
        }
    }
    !pos.legal_moves().is_empty()
}

/// Every square a piece of `side` attacks on `board` (pawns diagonally forward, sliders up to
/// and including the first piece in their way), whatever stands there.
pub fn attacked_by(board: &Board, side: Color) -> Bitboard {
    let occupied = board.occupied();
    let ours = board.by_color(side);
    let pawns = board.pawns() & ours;
    let mut attacked = match side {
        Color::White => (pawns & !FILE_A).shift(7) | (pawns & !FILE_H).shift(9),
        Color::Black => (pawns & !FILE_A).shift(-9) | (pawns & !FILE_H).shift(-7),
    };
    for sq in board.knights() & ours {
        attacked |= knight_attacks(sq);
    }
    for sq in board.bishops_and_queens() & ours {
        attacked |= bishop_attacks(sq, occupied);
    }
    for sq in board.rooks_and_queens() & ours {
        attacked |= rook_attacks(sq, occupied);
    }
    for sq in board.kings() & ours {
        attacked |= king_attacks(sq);
    }
    attacked
}

/// What a position's moves need to know to tell whether they give check without being
/// played: the squares from which each kind of piece of the side to move would attack the
/// other king, and the side's own pieces that alone stand between one of its sliders and that
/// king. Found once per node (the search asks it of the moves it means to skip unless they
/// check, and most of them are skipped), it answers a plain move with two bitboard tests.
#[derive(Clone, Copy)]
pub struct CheckInfo {
    /// The other side's king (none only in positions a `Chess` cannot hold).
    king: Option<Square>,
    /// By role: the squares from which such a piece checks.
    squares: ByRole<Bitboard>,
    /// The side's own pieces that uncover a check by leaving the line to the king.
    discoverers: Bitboard,
}

impl CheckInfo {
    pub fn of(pos: &Chess) -> CheckInfo {
        let board = pos.board();
        let us = pos.turn();
        let Some(king) = board.king_of(!us) else {
            return CheckInfo {
                king: None,
                squares: ByRole::default(),
                discoverers: Bitboard::EMPTY,
            };
        };
        let occupied = board.occupied();
        let (diagonal, straight) = (bishop_attacks(king, occupied), rook_attacks(king, occupied));
        // A piece moving onto one of these squares checks with the board as it stands: only a
        // piece already checking could open a line to the king from its new square by leaving
        // the old one, and the other king is never in check on this side's move.
        let squares = ByRole {
            pawn: pawn_attacks(!us, king),
            knight: knight_attacks(king),
            bishop: diagonal,
            rook: straight,
            queen: diagonal | straight,
            king: Bitboard::EMPTY,
        };
        let ours = board.by_color(us);
        let snipers = ours
            & ((bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
                | (rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()));
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(sniper, king) & occupied;
            if blockers.count() == 1 && blockers.is_subset(ours) {
                discoverers |= blockers;
            }
        }
        CheckInfo {
            king: Some(king),
            squares,
            discoverers,
        }
    }

    /// Whether the legal move `m` of `pos` (the position this was found for) gives check:
    /// what `is_check()` says after `pos.play(m)`.
    #[inline(always)]
    pub fn gives_check(&self, pos: &Chess, m: Move) -> bool {
        let Some(king) = self.king else {
            return false;
        };
        if let Move::Normal {
            role,
            from,
            to,
            promotion: None,
            ..
        } = m
        {
            return self.squares.get(role).contains(to)
                || (self.discoverers.contains(from) && !aligned(from, to, king));
        }
        // Promotions, en passant and castling are rare among the moves the search asks about:
        // they are played and asked.
        played_gives_check(pos, m)
    }
}

#[cold]
#[inline(never)]
fn played_gives_check(pos: &Chess, m: Move) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(m);
    after.is_check()
}

/// `legal_moves()` filtered to captures and promotions: the fallback in check (and for a
/// position without a king, which a `Chess` never is).
fn filtered_legal_moves(pos: &Chess) -> MoveList {
    let mut moves = pos.legal_moves();
    moves.retain(|m| m.is_capture() || m.is_promotion());
    moves
}

/// `sq` moved by `offset` squares; the offset undoes one that produced `sq` on the board.
#[inline]
fn square_offset(sq: Square, offset: i32) -> Square {
    Square::new((sq as i32 + offset) as u32)
}

fn push_promotions(moves: &mut MoveList, from: Square, to: Square, capture: Option<Role>) {
    for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        moves.push(Move::Normal {
            role: Role::Pawn,
            from,
            capture,
            to,
            promotion: Some(promotion),
        });
    }
}

/// Pieces of either side that stand alone between `king` and an enemy slider aimed at it.
fn slider_blockers(board: &Board, enemy: Bitboard, king: Square) -> Bitboard {
    let snipers = (rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens());
    let mut blockers = Bitboard(0);
    (snipers & enemy).for_each(|sniper| {
        let b = between(king, sniper) & board.occupied();
        if !b.more_than_one() {
            blockers |= b;
        }
    });
    blockers
}

/// Whether `m` leaves the king of `us` safe, given the pinned pieces (`blockers`).
fn is_safe(board: &Board, us: Color, king: Square, m: Move, blockers: Bitboard) -> bool {
    match m {
        Move::Normal { from, to, .. } => !blockers.contains(from) || aligned(from, to, king),
        Move::EnPassant { from, to } => {
            let captured = Square::from_coords(to.file(), from.rank());
            let occupied = board.occupied().toggled(from).toggled(captured).with(to);
            board
                .attacks_to(king, !us, occupied)
                .without(captured)
                .is_empty()
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::test_position as pos;

    /// Positions with en passant (also pinned), promotions by step and by capture, pins along
    /// every line, and a Chess960 start; then every position two plies on from each.
    const FENS: [&str; 10] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "8/8/8/2k5/3Pp3/8/8/4K2R b K d3 0 1",
        "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
        "1k6/1P4P1/8/8/8/8/1p4p1/1K6 w - - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ];

    fn check(p: &Chess, fen: &str) {
        let legal = p.legal_moves();
        if p.is_check() {
            return;
        }
        let mut expected = legal.clone();
        expected.retain(|m| m.is_capture() || m.is_promotion());
        // The list starts full: whatever it held is replaced.
        let mut got = legal.clone();
        noisy_moves(p, &mut got);
        assert_eq!(got, expected, "{fen}");
        assert_eq!(has_legal_move(p), !legal.is_empty(), "{fen}");
    }

    /// Calls `f` on each position of `fens` and on every position one and two plies on.
    fn within_two_plies<'a>(
        fens: impl IntoIterator<Item = &'a str>,
        mut f: impl FnMut(&Chess, &str),
    ) {
        for fen in fens {
            let start = pos(fen);
            f(&start, fen);
            for m in start.legal_moves() {
                let mut child = start.clone();
                child.play_unchecked(m);
                f(&child, fen);
                for m2 in child.legal_moves() {
                    let mut grandchild = child.clone();
                    grandchild.play_unchecked(m2);
                    f(&grandchild, fen);
                }
            }
        }
    }

    #[test]
    fn noisy_moves_are_the_legal_captures_and_promotions_in_order() {
        let mut checked = 0;
        within_two_plies(FENS, |p, fen| {
            check(p, fen);
            checked += 1;
        });
        assert!(checked > 5_000, "{checked}");
    }

    /// `CheckInfo::gives_check` agrees with playing the move and asking `is_check()`, for every
    /// move up to three plies deep from positions with promotions, en passant, castling of both
    /// kinds and discovered checks.
    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        let (mut moves, mut checks) = (0, 0);
        let more = [
            // Discovered checks by a pawn, knight and king; a castling rook that checks.
            "3k4/8/8/8/3P4/8/8/3QK3 w - - 0 1",
            "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1",
            "7k/8/8/8/8/8/1K6/B7 w - - 0 1",
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
            "8/8/8/k2Pp2R/8/8/8/4K3 w - e6 0 1",
            // A bishop uncovering a rook, two blockers on one line (no discovery), a queen
            // behind a bishop with an enemy pawn in between, and a pinned enemy piece.
            "4k3/8/8/8/4B3/8/8/4R1K1 w - - 0 1",
            "4k3/8/4p3/8/4N3/8/8/4Q1K1 w - - 0 1",
            "k7/1p6/8/3B4/8/8/8/6KQ w - - 0 1",
            "4k3/4r3/8/8/8/8/8/4R1K1 b - - 0 1",
        ];
        within_two_plies(FENS.into_iter().chain(more), |p, fen| {
            // Found once for all the position's moves, as the search does.
            let info = CheckInfo::of(p);
            for m in p.legal_moves() {
                let mut child = p.clone();
                child.play_unchecked(m);
                assert_eq!(info.gives_check(p, m), child.is_check(), "{fen} {m:?}");
                moves += 1;
                checks += usize::from(child.is_check());
            }
        });
        assert!(moves > 100_000 && checks > 5_000, "{moves} {checks}");
    }

    /// `attacked_by` marks exactly the squares that shakmaty finds attacked by that side, for
    /// both sides of every position up to two plies from the test positions.
    #[test]
    fn attacked_squares_agree_with_attacks_to_each_square() {
        let mut marked = 0;
        within_two_plies(FENS, |p, fen| {
            let board = p.board();
            for side in [Color::White, Color::Black] {
                let got = attacked_by(board, side);
                for sq in Square::ALL {
                    let attacked = board.attacks_to(sq, side, board.occupied()).any();
                    assert_eq!(got.contains(sq), attacked, "{fen} {side:?} {sq}");
                }
                marked += got.count();
            }
        });
        assert!(marked > 100_000, "{marked}");
    }

    /// Stalemates and positions whose only moves are quiet ones.
    #[test]
    fn a_position_without_captures_knows_whether_it_can_move() {
        for (fen, can_move) in [
            ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false),
            ("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", false),
            ("k7/P7/1K6/8/8/8/8/8 b - - 0 1", false),
            ("k7/8/PK6/8/8/8/8/8 b - - 0 1", true),
            ("k7/2K5/1P6/7p/8/8/8/8 b - - 0 1", true),
            ("k7/2K5/1P6/8/8/8/8/8 b - - 0 1", false),
            ("7k/8/6K1/8/8/8/8/R7 b - - 0 1", true),
        ] {
            let p = pos(fen);
            let mut got = p.legal_moves();
            noisy_moves(&p, &mut got);
            assert!(got.is_empty(), "{fen}");
            assert_eq!(has_legal_move(&p), can_move, "{fen}");
            assert_eq!(has_legal_move(&p), !p.legal_moves().is_empty(), "{fen}");
        }
    }
}

//! Endgame scaling: how much of the endgame score a drawish material balance keeps.

use shakmaty::{Board, Color, Role};

use super::SCALE_NORMAL;

/// Non-pawn material of `color` in pawn units (knight and bishop 3, rook 5, queen 9).
pub(super) fn pieces_value(board: &Board, color: Color) -> i32 {
    let ours = board.by_color(color);
    [
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ]
    .into_iter()
    .map(|(role, v)| v * (ours & board.by_role(role)).count() as i32)
    .sum()
}

/// The scale (out of `SCALE_NORMAL`) for an endgame score `eg` from White's point of view:
/// a side without pawns that is at most a minor piece ahead can hardly win, and bishops of
/// opposite colours with nothing else but pawns are drawish.
pub fn endgame_scale(board: &Board, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let weak = strong.other();
    let strong_pawns = (board.by_color(strong) & board.pawns()).count();
    let strong_pieces = pieces_value(board, strong);
    let weak_pieces = pieces_value(board, weak);
    if strong_pawns == 0 && strong_pieces - weak_pieces <= 3 {
        return if strong_pieces <= 3 {
            0
        } else {
            SCALE_NORMAL / 4
        };
    }
    let white_bishops = board.by_color(Color::White) & board.bishops();
    let black_bishops = board.by_color(Color::Black) & board.bishops();
    let only_bishops =
        board.knights().is_empty() && board.rooks().is_empty() && board.queens().is_empty();
    if only_bishops && white_bishops.count() == 1 && black_bishops.count() == 1 {
        let light = |b: shakmaty::Bitboard| b.first().is_some_and(|sq| sq.is_light());
        if light(white_bishops) != light(black_bishops) {
            return SCALE_NORMAL / 2;
        }
    }
    SCALE_NORMAL
}

//! A node's legal moves, generated when first needed. The table's move, once known to be legal
//! on its own, can be searched before the others exist; when it cuts the node off, the move
//! list is never generated or scored.

use shakmaty::{Chess, Move, MoveList, Position, Role};

use crate::tt::PackedMove;

pub(super) struct NodeMoves {
    /// Every legal move, once generated (empty while a table move waits).
    list: MoveList,
    /// The table's move, legal here, while the list waits.
    deferred: Option<Move>,
}

impl NodeMoves {
    /// The moves of `pos`: with `defer` and a legal table move, only that move for now; else
    /// every legal move at once.
    #[inline]
    pub fn new(pos: &Chess, tt_move: PackedMove, defer: bool) -> NodeMoves {
        if defer && let Some(m) = legal_tt_move(pos, tt_move) {
            return NodeMoves {
                list: MoveList::new(),
                deferred: Some(m),
            };
        }
        NodeMoves {
            list: pos.legal_moves(),
            deferred: None,
        }
    }

    /// Whether the side to move has no legal move (never, while a legal table move waits).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.deferred.is_none() && self.list.is_empty()
    }

    /// The table's move, known to be legal, while the list is not generated.
    #[inline]
    pub fn deferred(&self) -> Option<Move> {
        self.deferred
    }

    /// Every legal move of `pos` (the position these moves were made for), generated now if
    /// they were not yet.
    #[inline]
    pub fn all(&mut self, pos: &Chess) -> &mut MoveList {
        if self.deferred.take().is_some() {
            self.list = pos.legal_moves();
        }
        &mut self.list
    }
}

/// The move of `pos` that `packed` stands for, if it is legal there. The table's move may come
/// from another position with the same key slot, so it is rebuilt from the board (piece, victim,
/// en passant, castling as king takes rook) and tested; only that move's candidates are
/// generated.
pub(super) fn legal_tt_move(pos: &Chess, packed: PackedMove) -> Option<Move> {
    let (from, to, promotion) = packed.parts()?;
    let board = pos.board();
    let piece = board.piece_at(from)?;
    if piece.color != pos.turn() || from == to {
        return None;
    }
    let target = board.piece_at(to);
    let m = match target {
        Some(t) if t.color == piece.color => {
            if piece.role != Role::King || t.role != Role::Rook || promotion.is_some() {
                return None;
            }
            Move::Castle {
                king: from,
                rook: to,
            }
        }
        None if piece.role == Role::Pawn && from.file() != to.file() => {
            if promotion.is_some() {
                return None;
            }
            Move::EnPassant { from, to }
        }
        _ => Move::Normal {
            role: piece.role,
            from,
            capture: target.map(|t| t.role),
            to,
            promotion,
        },
    };
    pos.is_legal(m).then_some(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::test_position as pos;
    use shakmaty::Square;

    /// Every legal move of varied positions (castling both ways, en passant, promotions with
    /// and without capture, checks) comes back from its packing, and the packings of moves
    /// that are not legal there come back as nothing.
    #[test]
    fn table_moves_come_back_exactly_when_legal() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let positions: Vec<Chess> = fens.iter().map(|f| pos(f)).collect();
        for p in &positions {
            let legal = p.legal_moves();
            for &m in &legal {
                assert_eq!(legal_tt_move(p, PackedMove::pack(m)), Some(m), "{m}");
            }
            // The moves of the other positions, and of the other side, where they are not legal.
            for other in &positions {
                for m in other.legal_moves() {
                    let packed = PackedMove::pack(m);
                    let expected = legal.iter().find(|l| PackedMove::pack(**l) == packed);
                    assert_eq!(legal_tt_move(p, packed), expected.copied(), "{m}");
                }
            }
        }
        let start = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(legal_tt_move(&start, PackedMove::NONE), None);
        // From an empty square, onto its own square, and a junk promotion role.
        for bits in [20 | (28 << 6), 12 | (12 << 6), 12 | (28 << 6) | (7 << 12)] {
            assert_eq!(legal_tt_move(&start, PackedMove(bits)), None, "{bits}");
        }
    }

    /// A deferred list holds the table's move alone until asked for all moves; without
    /// deferral, or without a legal table move, the list is there from the start.
    #[test]
    fn the_list_waits_only_behind_a_legal_table_move() {
        let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let e4 = p.legal_moves().into_iter().find(|m| m.to() == Square::E4);
        let e4 = e4.expect("e4 is legal");
        let mut waiting = NodeMoves::new(&p, PackedMove::pack(e4), true);
        assert_eq!(waiting.deferred(), Some(e4));
        assert!(!waiting.is_empty());
        assert_eq!(waiting.all(&p).len(), 20);
        assert_eq!(waiting.deferred(), None);
        let mut at_once = NodeMoves::new(&p, PackedMove::pack(e4), false);
        assert_eq!(at_once.deferred(), None);
        assert_eq!(at_once.all(&p).len(), 20);
        let mut no_move = NodeMoves::new(&p, PackedMove::NONE, true);
        assert_eq!(no_move.deferred(), None);
        assert_eq!(no_move.all(&p).len(), 20);
        let mate = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert!(NodeMoves::new(&mate, PackedMove::NONE, true).is_empty());
    }
}

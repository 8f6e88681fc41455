//! The hidden layer of both sides, built from a position or updated by a move.
use shakmaty::{CastlingSide, Chess, Color, Move, Piece, Position, Role, Square};

use super::{HIDDEN, Network, bucket, feature};

/// Both sides' hidden-layer sums (before activation): White's, then Black's.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Accumulator {
    sides: [[i16; HIDDEN]; 2],
}

/// Where `color`'s sums lie in [`Accumulator::sides`] (shakmaty numbers Black 0, White 1).
#[inline]
fn slot(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Accumulator {
    /// The accumulators of `pos`, summed from scratch.
    pub fn from_position(net: &Network, pos: &Chess) -> Accumulator {
        let mut acc = Accumulator {
            sides: [net.hidden_bias; 2],
        };
        for perspective in Color::ALL {
            acc.refresh(net, pos.board(), perspective);
        }
        acc
    }

    /// Sums `perspective`'s side from scratch, for the pieces of `board`.
    fn refresh(&mut self, net: &Network, board: &shakmaty::Board, perspective: Color) {
        let offset = net.king_offset_on(perspective, board);
        let side = &mut self.sides[slot(perspective)];
        *side = net.hidden_bias;
        for (square, piece) in board.clone() {
            let column = &net.hidden_weights[offset + feature(perspective, piece, square)];
            for (a, &w) in side.iter_mut().zip(column) {
                *a = a.wrapping_add(w);
            }
        }
    }

    /// The evaluation of `pos` (the position these accumulators hold) for its side to move, in
    /// centipawns.
    #[inline]
    pub fn network_output(&self, net: &Network, pos: &Chess) -> i32 {
        self.output_of_bucket(net, pos, bucket(pos.board().occupied().count()))
    }

    /// The same through output layer `b`, whatever the piece count.
    #[inline]
    pub fn output_of_bucket(&self, net: &Network, pos: &Chess, b: usize) -> i32 {
        let (us, them) = match pos.turn() {
            Color::White => (&self.sides[0], &self.sides[1]),
            Color::Black => (&self.sides[1], &self.sides[0]),
        };
        net.output(us, them, b)
    }

    /// Sets these accumulators to `prev`'s after `m` is played in `before` (the position `prev`
    /// holds), in one pass over each side's sums. A king move into another king bucket sums
    /// the mover's side again from scratch.
    #[inline]
    pub fn set_after(&mut self, prev: &Accumulator, net: &Network, before: &Chess, m: &Move) {
        let mover = before.turn();
        let mut offsets = [0; 2];
        let mut refreshed = None;
        if net.king_buckets > 1 {
            for perspective in Color::ALL {
                offsets[slot(perspective)] = net.king_offset_on(perspective, before.board());
            }
            let king_to = match *m {
                Move::Normal {
                    role: Role::King,
                    to,
                    ..
                } => Some(to),
                Move::Castle { .. } => m.castling_side().map(|side| side.king_to(mover)),
                _ => None,
            };
            if let Some(to) = king_to
                && net.king_offset(mover, to) != offsets[slot(mover)]
            {
                let mut after = before.clone();
                after.play_unchecked(*m);
                self.refresh(net, after.board(), mover);
                refreshed = Some(mover);
            }
        }
        for perspective in Color::ALL {
            if refreshed == Some(perspective) {
                continue;
            }
            let i = slot(perspective);
            let view = View {
                net,
                perspective,
                offset: offsets[i],
            };
            view.update_for_move(&mut self.sides[i], &prev.sides[i], mover, m);
        }
    }
}

/// One side's input columns: the network's, seen from `perspective` with its king in the king
/// bucket that starts at `offset`.
struct View<'a> {
    net: &'a Network,
    perspective: Color,
    offset: usize,
}

impl View<'_> {
    #[inline]
    fn column(&self, (piece, square): (Piece, Square)) -> &[i16; HIDDEN] {
        &self.net.hidden_weights[self.offset + feature(self.perspective, piece, square)]
    }

    /// Sets `side` to `before` after `m`, played by `mover`.
    #[inline]
    fn update_for_move(
        &self,
        side: &mut [i16; HIDDEN],
        before: &[i16; HIDDEN],
        mover: Color,
        m: &Move,
    ) {
        let ours = |role| Piece { color: mover, role };
        let theirs = |role| Piece {
            color: !mover,
            role,
        };
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let added = (ours(promotion.unwrap_or(role)), to);
                let moved = (ours(role), from);
                match capture {
                    Some(victim) => {
                        self.update(side, before, &[added], &[moved, (theirs(victim), to)])
                    }
                    None => self.update(side, before, &[added], &[moved]),
                }
            }
            Move::EnPassant { from, to } => {
                let victim_square = Square::from_coords(to.file(), from.rank());
                self.update(
                    side,
                    before,
                    &[(ours(Role::Pawn), to)],
                    &[
                        (ours(Role::Pawn), from),
                        (theirs(Role::Pawn), victim_square),
                    ],
                );
            }
            Move::Castle { king, rook } => {
                let castle = m.castling_side().unwrap_or(CastlingSide::KingSide);
                self.update(
                    side,
                    before,
                    &[
                        (ours(Role::King), castle.king_to(mover)),
                        (ours(Role::Rook), castle.rook_to(mover)),
                    ],
                    &[(ours(Role::King), king), (ours(Role::Rook), rook)],
                );
            }
            Move::Put { .. } => *side = *before,
        }
    }

    /// `side` set to `before` with the columns of the `added` pieces added and those of the
    /// `removed` ones taken away (one or two of each).
    #[inline]
    fn update(
        &self,
        side: &mut [i16; HIDDEN],
        before: &[i16; HIDDEN],
        added: &[(Piece, Square)],
        removed: &[(Piece, Square)],
    ) {
        let (a0, r0) = (self.column(added[0]), self.column(removed[0]));
        // One loop for each shape of move, so that each is a single vectorized pass.
        match (
            added.get(1).map(|&x| self.column(x)),
            removed.get(1).map(|&x| self.column(x)),
        ) {
            (None, None) => {
                for i in 0..HIDDEN {
                    side[i] = before[i].wrapping_add(a0[i]).wrapping_sub(r0[i]);
                }
            }
            (None, Some(r1)) => {
                for i in 0..HIDDEN {
                    side[i] = before[i]
                        .wrapping_add(a0[i])
                        .wrapping_sub(r0[i])
                        .wrapping_sub(r1[i]);
                }
            }
            (Some(a1), r1) => {
                let r1 = r1.unwrap_or(&[0; HIDDEN]);
                for i in 0..HIDDEN {
                    side[i] = before[i]
                        .wrapping_add(a0[i])
                        .wrapping_add(a1[i])
                        .wrapping_sub(r0[i])
                        .wrapping_sub(r1[i]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::network;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    /// The accumulators after `m` is played in `before`, from `acc`, those of `before`.
    fn after(acc: &Accumulator, net: &Network, before: &Chess, m: &Move) -> Accumulator {
        let mut next = *acc;
        next.set_after(acc, net, before, m);
        next
    }

    /// Along random-ish lines with captures, promotions, castling and en passant, the updated
    /// accumulators equal those built from scratch.
    #[test]
    fn updates_match_a_rebuild() {
        updates_match_a_rebuild_with(network());
    }

    /// The same with king buckets whose columns differ, so that a king move into another
    /// bucket (a step or castling) must sum its side again.
    #[test]
    fn updates_match_a_rebuild_with_king_buckets() {
        // Four buckets by file pairs: castling either way changes the bucket.
        let map = std::array::from_fn(|sq| (sq % 8 / 2) as u8);
        let mut net = network().with_king_buckets(4, map).unwrap();
        for (i, column) in net.hidden_weights.iter_mut().enumerate() {
            let bucket = (i / crate::nnue::INPUTS) as i16;
            for w in column.iter_mut() {
                *w = w.wrapping_add(bucket * 3 - 4);
            }
        }
        updates_match_a_rebuild_with(&net);
    }

    fn updates_match_a_rebuild_with(net: &Network) {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let start: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            // Every legal move from the start, then every legal move after each.
            let acc = Accumulator::from_position(net, &start);
            for m in start.legal_moves() {
                let mut child = start.clone();
                child.play_unchecked(m);
                let updated = after(&acc, net, &start, &m);
                let rebuilt = Accumulator::from_position(net, &child);
                assert!(updated.sides == rebuilt.sides, "{fen} {m}");
                for m2 in child.legal_moves() {
                    let mut grandchild = child.clone();
                    grandchild.play_unchecked(m2);
                    let updated2 = after(&updated, net, &child, &m2);
                    let rebuilt2 = Accumulator::from_position(net, &grandchild);
                    assert!(updated2.sides == rebuilt2.sides, "{fen} {m} {m2}");
                }
            }
        }
    }
}

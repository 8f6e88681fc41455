//! The hidden layer of both sides, built from a position or updated by a move.
use shakmaty::{Bitboard, Board, CastlingSide, Chess, Color, Move, Piece, Position, Role, Square};

use super::{HIDDEN, INPUTS, Network, bucket, feature};

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

/// Each side's sums in each king bucket as they were last summed, with the pieces they were
/// summed for. A king move into another bucket starts from that bucket's last sums and adds or
/// takes away only the pieces that have changed since, instead of summing every piece again.
/// The sums come out exactly as from scratch; the table belongs to one network.
pub struct RefreshTable {
    /// Side `slot(color)` of bucket `b` at `2 * b + slot(color)`.
    entries: Vec<RefreshEntry>,
}

#[derive(Clone)]
struct RefreshEntry {
    sums: [i16; HIDDEN],
    /// The pieces summed, by colour (`slot`) and role (pawn first).
    pieces: [[Bitboard; 6]; 2],
}

impl RefreshTable {
    /// A table for `net`: every entry an empty board (the hidden biases).
    pub fn new(net: &Network) -> RefreshTable {
        let empty = RefreshEntry {
            sums: net.hidden_bias,
            pieces: [[Bitboard::EMPTY; 6]; 2],
        };
        RefreshTable {
            entries: vec![empty; 2 * net.king_buckets],
        }
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

    /// Sums `perspective`'s side for the pieces of `board` from `table`'s last sums in its king
    /// bucket, which are then brought up to date.
    fn refresh_from(
        &mut self,
        net: &Network,
        board: &Board,
        perspective: Color,
        table: &mut RefreshTable,
    ) {
        let offset = net.king_offset_on(perspective, board);
        let Some(entry) = table
            .entries
            .get_mut(2 * (offset / INPUTS) + slot(perspective))
        else {
            // A table made for a network of fewer king buckets: sum from scratch.
            self.refresh(net, board, perspective);
            return;
        };
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                let column =
                    |square| &net.hidden_weights[offset + feature(perspective, piece, square)];
                let now = board.by_piece(piece);
                let was = &mut entry.pieces[slot(color)][role as usize - 1];
                for square in now & !*was {
                    for (a, &w) in entry.sums.iter_mut().zip(column(square)) {
                        *a = a.wrapping_add(w);
                    }
                }
                for square in *was & !now {
                    for (a, &w) in entry.sums.iter_mut().zip(column(square)) {
                        *a = a.wrapping_sub(w);
                    }
                }
                *was = now;
            }
        }
        self.sides[slot(perspective)] = entry.sums;
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
    /// holds), giving `after`, in one pass over each side's sums. A king move into another king
    /// bucket sums the mover's side again, from its bucket's entry in `table`.
    #[inline]
    pub fn set_after(
        &mut self,
        prev: &Accumulator,
        net: &Network,
        (before, after): (&Chess, &Chess),
        m: &Move,
        table: &mut RefreshTable,
    ) {
        // Two copies: the one without king buckets has none of their work.
        if net.king_buckets > 1 {
            self.set_after_in::<true>(prev, net, (before, after), m, table);
        } else {
            self.set_after_in::<false>(prev, net, (before, after), m, table);
        }
    }

    /// [`set_after`](Self::set_after) for a network with (`KINGS`) or without king buckets.
    #[inline(always)]
    fn set_after_in<const KINGS: bool>(
        &mut self,
        prev: &Accumulator,
        net: &Network,
        (before, after): (&Chess, &Chess),
        m: &Move,
        table: &mut RefreshTable,
    ) {
        let color = before.turn();
        // Each side's first input column (its king bucket's), and the side summed again.
        let mut offsets = [0; 2];
        let mut refreshed = None;
        if KINGS {
            for perspective in Color::ALL {
                offsets[slot(perspective)] = net.king_offset_on(perspective, before.board());
            }
            let king_to = match *m {
                Move::Normal {
                    role: Role::King,
                    to,
                    ..
                } => Some(to),
                Move::Castle { .. } => m.castling_side().map(|side| side.king_to(color)),
                _ => None,
            };
            if let Some(to) = king_to
                && net.king_offset(color, to) != offsets[slot(color)]
            {
                self.refresh_from(net, after.board(), color, table);
                refreshed = Some(slot(color));
            }
        }
        let ours = |role| Piece { color, role };
        let theirs = |role| Piece {
            color: !color,
            role,
        };
        let sides = Sides::<KINGS> {
            net,
            offsets,
            refreshed,
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
                        sides.update(self, prev, &[added], &[moved, (theirs(victim), to)])
                    }
                    None => sides.update(self, prev, &[added], &[moved]),
                }
            }
            Move::EnPassant { from, to } => {
                let victim_square = Square::from_coords(to.file(), from.rank());
                sides.update(
                    self,
                    prev,
                    &[(ours(Role::Pawn), to)],
                    &[
                        (ours(Role::Pawn), from),
                        (theirs(Role::Pawn), victim_square),
                    ],
                );
            }
            Move::Castle { king, rook } => {
                let side = m.castling_side().unwrap_or(CastlingSide::KingSide);
                sides.update(
                    self,
                    prev,
                    &[
                        (ours(Role::King), side.king_to(color)),
                        (ours(Role::Rook), side.rook_to(color)),
                    ],
                    &[(ours(Role::King), king), (ours(Role::Rook), rook)],
                );
            }
            Move::Put { .. } => *self = *prev,
        }
    }
}

/// How a move updates both sides: the network, each side's first input column (its king
/// bucket's), and the side already summed again, if any (both unused without `KINGS`).
struct Sides<'a, const KINGS: bool> {
    net: &'a Network,
    offsets: [usize; 2],
    refreshed: Option<usize>,
}

impl<const KINGS: bool> Sides<'_, KINGS> {
    /// Each side's sums of `prev` with the weight columns of the `added` pieces added and
    /// those of the `removed` ones taken away (one or two of each).
    #[inline]
    fn update(
        &self,
        acc: &mut Accumulator,
        prev: &Accumulator,
        added: &[(Piece, Square)],
        removed: &[(Piece, Square)],
    ) {
        for (i, ((side, before), perspective)) in acc
            .sides
            .iter_mut()
            .zip(&prev.sides)
            .zip(Color::ALL)
            .enumerate()
        {
            if KINGS && self.refreshed == Some(i) {
                continue;
            }
            let offset = if KINGS { self.offsets[i] } else { 0 };
            let column = |&(piece, square): &(Piece, Square)| {
                &self.net.hidden_weights[offset + feature(perspective, piece, square)]
            };
            let (a0, r0) = (column(&added[0]), column(&removed[0]));
            // One loop for each shape of move, so that each is a single vectorized pass.
            match (added.get(1).map(column), removed.get(1).map(column)) {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::network;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    /// The accumulators after `m` is played in `before`, from `acc`, those of `before`, with
    /// king-bucket refreshes through `table`.
    fn after(
        acc: &Accumulator,
        net: &Network,
        before: &Chess,
        m: &Move,
        table: &mut RefreshTable,
    ) -> Accumulator {
        let mut child = before.clone();
        child.play_unchecked(*m);
        let mut next = *acc;
        next.set_after(acc, net, (before, &child), m, table);
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
        let mut net = network().king_bucket(0).with_king_buckets(4, map).unwrap();
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
            // Every legal move from the start, then every legal move after each, through one
            // refresh table: each refresh starts from the last one in its bucket.
            let mut table = RefreshTable::new(net);
            let acc = Accumulator::from_position(net, &start);
            for m in start.legal_moves() {
                let mut child = start.clone();
                child.play_unchecked(m);
                let updated = after(&acc, net, &start, &m, &mut table);
                let rebuilt = Accumulator::from_position(net, &child);
                assert!(updated.sides == rebuilt.sides, "{fen} {m}");
                for m2 in child.legal_moves() {
                    let mut grandchild = child.clone();
                    grandchild.play_unchecked(m2);
                    let updated2 = after(&updated, net, &child, &m2, &mut table);
                    let rebuilt2 = Accumulator::from_position(net, &grandchild);
                    assert!(updated2.sides == rebuilt2.sides, "{fen} {m} {m2}");
                }
            }
        }
    }
}

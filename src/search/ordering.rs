//! Move ordering: follow-PV move, TT move, captures that do not lose material (MVV-LVA),
//! killers, the counter-move, quiets by history (the move's own, kept apart by whether it
//! leaves a square the opponent attacks and whether it lands on one, and its continuation
//! history after the two moves before it), and last the captures that lose material. Captures
//! and promotions of either kind are ordered among themselves by MVV-LVA plus their capture
//! history.

use shakmaty::{Bitboard, Chess, Color, Move, MoveList, Position, Role, Square};

use super::params;
use super::see::see_ge;

use crate::movegen::attacked_by;

use crate::score::MAX_PLY;
use crate::tt::PackedMove;

/// Most legal moves any position can have (shakmaty's move list capacity).
pub const MAX_MOVES: usize = 270;

pub const FOLLOW_PV: i32 = 4_000_000;
pub const TT_MOVE: i32 = 3_000_000;
const GOOD_TACTICAL: i32 = 2_000_000;
const FIRST_KILLER: i32 = 1_000_002;
const SECOND_KILLER: i32 = 1_000_001;
const COUNTER_MOVE: i32 = 1_000_000;
/// History scores stay within ±HISTORY_MAX, below the killers.
const HISTORY_MAX: i32 = 16_384;
/// Largest change one cutoff makes to a history entry.
const HISTORY_BONUS_MAX: i32 = 1_536;
/// Captures that lose material in the exchange come after every quiet move.
const BAD_TACTICAL: i32 = -2_000_000;
/// A capture's history at `capture_history_percent` 100, divided by this, is added to its
/// MVV-LVA score (a pawn of victim counts 64): at most ±512.
const CAPTURE_HISTORY_DIVISOR: i32 = 32;
/// Added to every tactical score, so that the largest capture-history malus (±1,024 at the
/// tunable's top) leaves a winning capture above GOOD_TACTICAL.
const CAPTURE_HISTORY_ROOM: i32 = 1_024;

/// Ordering value of a captured or promoted-to piece, pawn through king.
fn role_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight => 3,
        Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 20,
    }
}

/// A move's parts in one look at its variant: from (A1 for a drop), to (for castling, the
/// rook's square), the piece moved, the piece captured and the piece promoted to.
pub struct MoveParts {
    pub from: Square,
    pub to: Square,
    pub role: Role,
    pub victim: Option<Role>,
    pub promotion: Option<Role>,
}

impl MoveParts {
    #[inline]
    pub fn of(m: Move) -> MoveParts {
        let (from, to, role, victim, promotion) = match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => (from, to, role, capture, promotion),
            Move::EnPassant { from, to } => (from, to, Role::Pawn, Some(Role::Pawn), None),
            Move::Castle { king, rook } => (king, rook, Role::King, None, None),
            Move::Put { role, to } => (Square::A1, to, role, None, None),
        };
        MoveParts {
            from,
            to,
            role,
            victim,
            promotion,
        }
    }

    /// The move's 16-bit packing (as [`PackedMove::pack`]).
    #[inline]
    pub fn packed(&self) -> PackedMove {
        PackedMove::from_parts(self.from, self.to, self.promotion)
    }

    /// MVV-LVA score for a capture or promotion; `None` for a quiet move.
    #[inline]
    pub fn tactical_score(&self) -> Option<i32> {
        if self.victim.is_none() && self.promotion.is_none() {
            return None;
        }
        let gain =
            self.victim.map_or(0, role_value) + self.promotion.map_or(0, |p| role_value(p) - 1);
        Some(gain * 64 - role_value(self.role))
    }
}

/// The two moves before a node: `[0]` the opponent's move that led to it, `[1]` the side to
/// move's own move before that (`None` for a null move or above the root).
pub type PriorMoves = [Option<Move>; 2];

/// Entries of one block of a continuation-history table: one per (piece, target) of the move
/// scored.
const CONT_BLOCK: usize = 6 * 64;
/// Entries of one continuation-history table: a block per side to move and (piece, target) of
/// the earlier move.
const CONT_ENTRIES: usize = 2 * 6 * 64 * CONT_BLOCK;

/// Entries of the capture history: one per side, piece moved, target and piece captured (the
/// king's slot, never captured, stands for a promotion without a capture).
const CAPTURE_ENTRIES: usize = 2 * 6 * 64 * 6;

/// Move-ordering statistics kept across searches until `ucinewgame`.
pub struct Heuristics {
    killers: [[Option<Move>; 2]; MAX_PLY],
    /// History indexed by side, [`threat_index`], from square, to square.
    history: Box<[[[[i32; 64]; 64]; 4]; 2]>,
    /// The quiet move that last refuted a move, indexed by that move's side, piece and target.
    counters: Box<[[[Option<Move>; 64]; 6]; 2]>,
    /// Continuation histories: how a quiet move (by piece and target) fared after each earlier
    /// move of [`PriorMoves`], one table per distance back.
    cont: [Box<[i16]>; 2],
    /// How each capture or promotion fared: rewarded when it caused a cutoff, punished when
    /// it was tried before another move did.
    captures: Box<[i16]>,
}

/// The capture-history slot of a capture or promotion by `side`.
#[inline]
fn capture_index(side: Color, parts: &MoveParts) -> usize {
    let victim = parts.victim.unwrap_or(Role::King);
    ((side as usize * 6 + parts.role as usize - 1) * 64 + parts.to.to_usize()) * 6 + victim as usize
        - 1
}

/// The squares the opponent of the side to move attacks in `pos`, which the history of a
/// quiet move tells apart (`threat_history`); none while that is off.
pub fn threats(pos: &Chess) -> Bitboard {
    if params::threat_history() > 0 {
        attacked_by(pos.board(), !pos.turn())
    } else {
        Bitboard::EMPTY
    }
}

/// Which of the four histories of a side a move from `from` to `to` reads under `threats`:
/// whether it leaves an attacked square (2) and whether it lands on one (1).
#[inline]
fn threat_index(threats: Bitboard, from: Square, to: Square) -> usize {
    2 * usize::from(threats.contains(from)) + usize::from(threats.contains(to))
}

/// The history bonus (or malus) of a cutoff at remaining depth `depth`.
#[inline]
fn history_bonus(depth: i32) -> i32 {
    (16 * depth * depth + 32 * depth).min(HISTORY_BONUS_MAX)
}

/// The start of the block of `cont` for `side` to move after the earlier move `prior`.
#[inline]
fn cont_block(side: Color, prior: Move) -> usize {
    ((side as usize * 6 + prior.role() as usize - 1) * 64 + prior.to().to_usize()) * CONT_BLOCK
}

/// The offset of a move (piece and target) within a block of `cont`.
#[inline]
fn cont_offset(role: Role, to: Square) -> usize {
    (role as usize - 1) * 64 + to.to_usize()
}

/// Applies a bonus or malus to a history entry; entries saturate smoothly at ±HISTORY_MAX.
#[inline]
fn apply_gravity(entry: i32, delta: i32) -> i32 {
    entry + delta - entry * delta.abs() / HISTORY_MAX
}

/// The slot of the counter-move table for the opponent's move `prev` (played by `side`).
#[inline]
fn counter_index(side: Color, prev: Move) -> (usize, usize, usize) {
    (
        side as usize,
        prev.role() as usize - 1,
        prev.to().to_usize(),
    )
}

impl Default for Heuristics {
    fn default() -> Self {
        Self::new()
    }
}

impl Heuristics {
    pub fn new() -> Self {
        Heuristics {
            killers: [[None; 2]; MAX_PLY],
            history: Box::new([[[[0; 64]; 64]; 4]; 2]),
            counters: Box::new([[[None; 64]; 6]; 2]),
            cont: [
                vec![0; CONT_ENTRIES].into_boxed_slice(),
                vec![0; CONT_ENTRIES].into_boxed_slice(),
            ],
            captures: vec![0; CAPTURE_ENTRIES].into_boxed_slice(),
        }
    }

    pub fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
        for row in self.history.iter_mut().flatten().flatten() {
            row.fill(0);
        }
        *self.counters = [[[None; 64]; 6]; 2];
        for table in self.cont.iter_mut() {
            table.fill(0);
        }
        self.captures.fill(0);
    }

    /// Forgets the killers (they are specific to one search tree).
    pub fn clear_killers(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
    }

    #[inline]
    fn history_slot(&mut self, side: Color, threats: Bitboard, m: Move) -> &mut i32 {
        let from = m.from().unwrap_or(Square::A1);
        let t = threat_index(threats, from, m.to());
        &mut self.history[side as usize][t][from.to_usize()][m.to().to_usize()]
    }

    /// Rewards the quiet move that caused a beta cutoff and punishes the quiets tried before it,
    /// in the history and in the continuation histories of the moves before the node; the move
    /// becomes the counter to `prior[0]`, the opponent's move before it. `threats` are the
    /// node's ([`threats`]).
    #[allow(clippy::too_many_arguments)]
    pub fn record_cutoff(
        &mut self,
        side: Color,
        threats: Bitboard,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Move],
        prior: PriorMoves,
    ) {
        if let Some(p) = prior[0] {
            let (s, r, t) = counter_index(side.other(), p);
            self.counters[s][r][t] = Some(best);
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(best);
        }
        let bonus = history_bonus(depth);
        let blocks = if params::cont_history_percent() > 0 {
            prior.map(|p| p.map(|p| cont_block(side, p)))
        } else {
            [None; 2]
        };
        for &m in tried {
            let delta = if m == best { bonus } else { -bonus };
            let slot = self.history_slot(side, threats, m);
            *slot = apply_gravity(*slot, delta);
            let offset = cont_offset(m.role(), m.to());
            for (table, block) in self.cont.iter_mut().zip(blocks) {
                if let Some(block) = block {
                    let entry = &mut table[block + offset];
                    // Within ±HISTORY_MAX, which an i16 holds.
                    *entry = apply_gravity(i32::from(*entry), delta) as i16;
                }
            }
        }
    }

    /// After a cutoff at remaining depth `depth`, rewards `best` if it is a capture or
    /// promotion (`None` when a quiet move cut off) and punishes the other captures and
    /// promotions of `tried`, the ones searched before the cutoff.
    pub fn record_tactical_cutoff(
        &mut self,
        side: Color,
        depth: i32,
        best: Option<Move>,
        tried: &[Move],
    ) {
        let bonus = history_bonus(depth);
        for &m in tried {
            let delta = if Some(m) == best { bonus } else { -bonus };
            let entry = &mut self.captures[capture_index(side, &MoveParts::of(m))];
            // Within ±HISTORY_MAX, which an i16 holds.
            *entry = apply_gravity(i32::from(*entry), delta) as i16;
        }
    }

    /// The capture-history part of a capture's or promotion's ordering score, by `side`.
    #[inline]
    fn capture_history(&self, side: Color, parts: &MoveParts, weight: i32) -> i32 {
        if weight == 0 {
            return 0;
        }
        i32::from(self.captures[capture_index(side, parts)]) * weight
            / (100 * CAPTURE_HISTORY_DIVISOR)
    }

    /// A capture's or promotion's place among the tactical moves of its kind: its MVV-LVA
    /// score `t` plus its capture history at `weight`, kept above 0 by the room below it.
    #[inline]
    fn tactical_order(&self, side: Color, parts: &MoveParts, t: i32, weight: i32) -> i32 {
        CAPTURE_HISTORY_ROOM + t + self.capture_history(side, parts, weight)
    }

    /// The ordering score of a capture or promotion in quiescence (MVV-LVA and its capture
    /// history), of any other move 0.
    #[inline]
    pub fn quiescence_score(&self, side: Color, m: Move) -> i32 {
        let parts = MoveParts::of(m);
        parts.tactical_score().map_or(0, |t| {
            self.tactical_order(side, &parts, t, params::capture_history_percent())
        })
    }

    /// Scores every move of a node for ordering; `prior` holds the two moves before it and
    /// `threats` the squares its opponent attacks ([`threats`]).
    #[allow(clippy::too_many_arguments)]
    pub fn score_moves(
        &self,
        pos: &Chess,
        threats: Bitboard,
        moves: &MoveList,
        scores: &mut [i32],
        ply: usize,
        follow: Option<Move>,
        tt_move: PackedMove,
        prior: PriorMoves,
    ) {
        let killers = self.killers[ply];
        let side = pos.turn();
        let counter = prior[0].and_then(|p| {
            let (s, r, t) = counter_index(side.other(), p);
            self.counters[s][r][t]
        });
        // Moves are compared in their 16-bit packing first (equal moves pack equally, and no
        // move packs to NONE), and in full only when the packings agree.
        let packed = |m: Option<Move>| m.map_or(PackedMove::NONE, PackedMove::pack);
        let (follow_p, killer0_p, killer1_p, counter_p) = (
            packed(follow),
            packed(killers[0]),
            packed(killers[1]),
            packed(counter),
        );
        let history = &self.history[side as usize];
        // The continuation blocks of the two earlier moves; a missing move reads a block of
        // zeros (an empty slice stands for it).
        let weight = params::cont_history_percent();
        let capture_weight = params::capture_history_percent();
        let cont: [&[i16]; 2] = [0, 1].map(|i| match prior[i] {
            Some(p) if weight > 0 => {
                let block = cont_block(side, p);
                &self.cont[i][block..block + CONT_BLOCK]
            }
            _ => &[][..],
        });
        let cont_score = |block: &[i16], role: Role, to: Square| {
            block
                .get(cont_offset(role, to))
                .map_or(0, |&v| i32::from(v))
        };
        for (m, score) in moves.iter().zip(scores.iter_mut()) {
            let m = *m;
            let parts = MoveParts::of(m);
            let p = parts.packed();
            *score = if p == follow_p && Some(m) == follow {
                FOLLOW_PV
            } else if p == tt_move {
                TT_MOVE
            } else if let Some(t) = parts.tactical_score() {
                let t = self.tactical_order(side, &parts, t, capture_weight);
                if see_ge(pos, m, 0) {
                    GOOD_TACTICAL + t
                } else {
                    BAD_TACTICAL + t
                }
            } else if p == killer0_p && killers[0] == Some(m) {
                FIRST_KILLER
            } else if p == killer1_p && killers[1] == Some(m) {
                SECOND_KILLER
            } else if p == counter_p && counter == Some(m) {
                COUNTER_MOVE
            } else {
                history[threat_index(threats, parts.from, parts.to)][parts.from.to_usize()]
                    [parts.to.to_usize()]
                    + (cont_score(cont[0], parts.role, parts.to)
                        + cont_score(cont[1], parts.role, parts.to))
                        * weight
                        / 100
            };
        }
    }
}

/// Whether an ordering score belongs to a capture or promotion that passed the exchange test
/// (`see_ge(.., 0)`) and is neither the PV nor the TT move.
#[inline]
pub fn is_good_tactical(score: i32) -> bool {
    (GOOD_TACTICAL..TT_MOVE).contains(&score)
}

/// Whether an ordering score belongs to a plain quiet move or a losing capture (no PV, TT,
/// good tactical or killer move), the kinds late-move reductions apply to.
#[inline]
pub fn is_plain_quiet(score: i32) -> bool {
    score < COUNTER_MOVE
}

/// The history part of a plain quiet move's ordering score (its history plus continuation
/// histories); `None` for every other kind of move.
#[inline]
pub fn quiet_history(score: i32) -> Option<i32> {
    (BAD_TACTICAL / 2 < score && score < COUNTER_MOVE).then_some(score)
}

/// Swaps the best-scored move among `index..` into `index` and returns it (selection sort, so
/// a cutoff after the first few moves saves sorting the rest).
#[inline]
pub fn pick_next(moves: &mut MoveList, scores: &mut [i32], index: usize) -> Move {
    // The first of the highest scores in one maximum the compiler vectorizes: each score
    // shifted up a byte, its place below it counted down, so that ties go to the first place.
    // Scores stay within ±2^22 and a move list holds at most 256 moves, so nothing overflows.
    let rest = &scores[index..moves.len()];
    debug_assert!(rest.len() <= 256);
    debug_assert!(rest.iter().all(|s| s.unsigned_abs() < 1 << 22));
    let top = rest
        .iter()
        .zip(0..)
        .map(|(&s, place): (&i32, i32)| (s << 8) | (255 - place))
        .fold(i32::MIN, i32::max);
    let best = index + (255 - (top & 255)) as usize;
    moves.swap(index, best);
    scores.swap(index, best);
    moves[index]
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    use crate::game::test_position as pos;

    /// The ordering scores of `p`'s legal moves (in `legal_moves` order) after `prior`.
    fn scores_after(h: &Heuristics, p: &Chess, prior: PriorMoves) -> [i32; MAX_MOVES] {
        let mut scores = [0; MAX_MOVES];
        h.score_moves(
            p,
            Bitboard::EMPTY,
            &p.legal_moves(),
            &mut scores,
            0,
            None,
            PackedMove::NONE,
            prior,
        );
        scores
    }

    fn ordered(h: &Heuristics, p: &Chess, follow: Option<Move>, tt: PackedMove) -> Vec<Move> {
        let mut moves = p.legal_moves();
        let mut scores = [0; MAX_MOVES];
        h.score_moves(
            p,
            Bitboard::EMPTY,
            &moves,
            &mut scores,
            0,
            follow,
            tt,
            [None; 2],
        );
        (0..moves.len())
            .map(|i| pick_next(&mut moves, &mut scores, i))
            .collect()
    }

    #[test]
    fn follow_pv_move_comes_first_then_tt_move_then_captures() {
        let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let h = Heuristics::new();
        let moves = p.legal_moves();
        let quiet = *moves.iter().find(|m| !m.is_capture()).unwrap();
        let other_quiet = *moves.iter().filter(|m| !m.is_capture()).nth(5).unwrap();
        let order = ordered(&h, &p, Some(quiet), PackedMove::pack(other_quiet));
        assert_eq!(order[0], quiet);
        assert_eq!(order[1], other_quiet);
        assert!(order[2].is_capture());
        // Without a follow-PV move, the TT move leads.
        let order = ordered(&h, &p, None, PackedMove::pack(other_quiet));
        assert_eq!(order[0], other_quiet);
    }

    #[test]
    fn captures_are_ordered_most_valuable_victim_first() {
        // White can take a queen with a pawn or a pawn with the queen.
        let p = pos("4k3/8/8/3q4/4P3/8/1p6/1Q2K3 w - - 0 1");
        let order = ordered(&Heuristics::new(), &p, None, PackedMove::NONE);
        assert_eq!(order[0].to_string(), "e4xd5");
        assert_eq!(order[1].capture(), Some(Role::Pawn));
    }

    #[test]
    fn killers_and_history_lift_quiet_moves() {
        let p = Chess::default();
        let mut h = Heuristics::new();
        let moves = p.legal_moves();
        let killer = moves[7];
        h.record_cutoff(
            p.turn(),
            Bitboard::EMPTY,
            0,
            5,
            killer,
            &[moves[2], killer],
            [None; 2],
        );
        let order = ordered(&h, &p, None, PackedMove::NONE);
        assert_eq!(order[0], killer);
        assert_eq!(*order.last().unwrap(), moves[2]);
    }

    #[test]
    fn a_counter_move_follows_the_killers_after_the_move_it_refuted() {
        // After 1. e4, Black's refutation is remembered against White's pawn on e4.
        let start = Chess::default();
        let e4 = *start
            .legal_moves()
            .iter()
            .find(|m| m.to_string() == "e2-e4")
            .unwrap();
        let mut p = start.clone();
        p.play_unchecked(e4);
        let moves = p.legal_moves();
        let (refutation, killer) = (moves[9], moves[4]);
        let mut h = Heuristics::new();
        h.record_cutoff(
            p.turn(),
            Bitboard::EMPTY,
            1,
            4,
            refutation,
            &[refutation],
            [Some(e4), None],
        );
        h.record_cutoff(
            p.turn(),
            Bitboard::EMPTY,
            0,
            4,
            killer,
            &[killer],
            [None; 2],
        );
        let mut moves = p.legal_moves();
        let mut scores = scores_after(&h, &p, [Some(e4), None]);
        assert_eq!(pick_next(&mut moves, &mut scores, 0), killer);
        assert_eq!(pick_next(&mut moves, &mut scores, 1), refutation);
        // After another move the counter does not apply: history alone ranks it.
        let moves = p.legal_moves();
        let d4 = *start
            .legal_moves()
            .iter()
            .find(|m| m.to_string() == "d2-d4")
            .unwrap();
        let scores = scores_after(&h, &p, [Some(d4), None]);
        let i = moves.iter().position(|m| *m == refutation).unwrap();
        assert!(is_plain_quiet(scores[i]));
    }

    /// Only plain quiet moves have a history part: not killers, counters, the TT move or
    /// captures, winning or losing.
    #[test]
    fn only_plain_quiet_moves_have_a_history_part() {
        // White: a quiet knight, a losing capture (queen takes a defended pawn), a winning one.
        let p = pos("4k3/8/2p5/1p6/8/8/3N1PPP/1Q2K3 w - - 0 1");
        let mut h = Heuristics::new();
        let moves = p.legal_moves();
        let find = |uci: &str| *moves.iter().find(|m| m.to_string() == uci).unwrap();
        let (killer, quiet, bad) = (find("Nd2-f3"), find("Nd2-b3"), find("Qb1xb5"));
        h.record_cutoff(
            p.turn(),
            Bitboard::EMPTY,
            0,
            6,
            killer,
            &[quiet, killer],
            [None; 2],
        );
        let scores = scores_after(&h, &p, [None; 2]);
        let score = |m: Move| scores[moves.iter().position(|x| *x == m).unwrap()];
        assert_eq!(quiet_history(score(killer)), None);
        assert!(quiet_history(score(quiet)).is_some_and(|h| h < 0));
        assert!(is_plain_quiet(score(bad)));
        assert_eq!(quiet_history(score(bad)), None);
    }

    /// A capture that cut off gains capture history and the captures tried before it lose
    /// some; a quiet cutoff punishes every capture tried before it. The history is kept per
    /// victim: the same piece taking something else on the same square is not touched.
    #[test]
    fn capture_history_rewards_the_capture_that_cut_off() {
        // White's rook takes on d5 or a5, its bishop on d5; b1-d3 is quiet.
        let p = pos("4k3/8/8/n2p4/8/8/6B1/R2RK3 w - - 0 1");
        let moves = p.legal_moves();
        let find = |uci: &str| *moves.iter().find(|m| m.to_string() == uci).unwrap();
        let (rook_d5, rook_a5, bishop_d5) = (find("Rd1xd5"), find("Ra1xa5"), find("Bg2xd5"));
        let history = |h: &Heuristics, m: Move| h.capture_history(p.turn(), &MoveParts::of(m), 100);
        let mut h = Heuristics::new();
        h.record_tactical_cutoff(p.turn(), 6, Some(bishop_d5), &[rook_a5, bishop_d5]);
        assert!(history(&h, bishop_d5) > 0);
        assert!(history(&h, rook_a5) < 0);
        assert_eq!(history(&h, rook_d5), 0);
        // At weight 0 the history is not read.
        assert_eq!(h.capture_history(p.turn(), &MoveParts::of(bishop_d5), 0), 0);
        let before = history(&h, bishop_d5);
        h.record_tactical_cutoff(p.turn(), 6, None, &[bishop_d5]);
        assert!(history(&h, bishop_d5) < before);
        // The largest history moves a capture by at most its bounded share.
        let mut h = Heuristics::new();
        for _ in 0..200 {
            h.record_tactical_cutoff(p.turn(), 20, Some(rook_a5), &[rook_a5]);
        }
        assert_eq!(history(&h, rook_a5), HISTORY_MAX / CAPTURE_HISTORY_DIVISOR);
    }

    /// Equal scores keep their order: of several equal best moves the earliest comes first
    /// (the search's node counts depend on it).
    #[test]
    fn ties_go_to_the_earlier_move() {
        let p = Chess::default();
        let mut moves = p.legal_moves();
        let original = moves.clone();
        let mut scores = [0; MAX_MOVES];
        for (i, s) in scores[..moves.len()].iter_mut().enumerate() {
            *s = if i % 3 == 0 { 7 } else { 5 };
        }
        let order: Vec<Move> = (0..moves.len())
            .map(|i| pick_next(&mut moves, &mut scores, i))
            .collect();
        // The first pick is the earliest 7; then the 7s in the order selection leaves them.
        assert_eq!(order[0], original[0]);
        assert_eq!(order[1], original[3]);
        assert_eq!(order.len(), original.len());
    }

    /// The parts of every move pack as the move does, and score as the move does, in positions
    /// with castling, en passant and promotions.
    #[test]
    fn move_parts_agree_with_the_move() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            for m in pos(fen).legal_moves() {
                let parts = MoveParts::of(m);
                assert_eq!(parts.packed(), PackedMove::pack(m), "{m}");
                assert_eq!(parts.role, m.role(), "{m}");
                assert_eq!(parts.victim, m.capture(), "{m}");
                assert_eq!(parts.promotion, m.promotion(), "{m}");
                assert_eq!(Some(parts.from), m.from(), "{m}");
            }
        }
    }
}

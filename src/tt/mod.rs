//! Transposition table: a shared, lock-free array of two-word slots replaced by depth and age.
//!
//! Each slot stores `key ^ data` and `data`; a reader that sees a torn write gets a key
//! mismatch and treats the slot as empty, so the table can later be shared between threads.

mod memory;

use std::sync::atomic::{AtomicU8, Ordering};

use shakmaty::{Move, Role, Square};

use crate::score::{MATE, MATE_BOUND, NO_EVAL};
use memory::{Slot, Slots};

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (fail low).
    Upper = 1,
    /// The true score is at least the stored one (fail high).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

/// A move packed into 16 bits: from (6) | to (6) | promotion role (3); 0 means none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PackedMove(pub u16);

impl PackedMove {
    pub const NONE: PackedMove = PackedMove(0);

    pub fn pack(m: Move) -> PackedMove {
        PackedMove::from_parts(m.from().unwrap_or(Square::A1), m.to(), m.promotion())
    }

    /// The packing of a move from `from` to `to` (for castling, the king's and the rook's
    /// squares) promoting to `promotion`.
    #[inline]
    pub fn from_parts(from: Square, to: Square, promotion: Option<Role>) -> PackedMove {
        let promo = promotion.map_or(0, |r| r as u16);
        PackedMove(u16::from(from) | (u16::from(to) << 6) | (promo << 12))
    }

    /// The from square, to square and promotion role this value was packed from (`None` for
    /// `NONE` or a promotion field that names no role).
    #[inline]
    pub fn parts(self) -> Option<(Square, Square, Option<Role>)> {
        if self == PackedMove::NONE {
            return None;
        }
        let from = Square::new(u32::from(self.0 & 63));
        let to = Square::new(u32::from((self.0 >> 6) & 63));
        let promotion = match self.0 >> 12 {
            0 => None,
            r => Some(Role::try_from(u32::from(r)).ok()?),
        };
        Some((from, to, promotion))
    }

    /// Whether `m` is the move this value was packed from.
    #[inline]
    pub fn matches(self, m: Move) -> bool {
        self.0 != 0 && PackedMove::pack(m) == self
    }
}

/// One probe result.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    pub mv: PackedMove,
    /// Score as stored (mate scores relative to the stored node; see [`score_from_tt`]).
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The position's static evaluation, or `NO_EVAL` when it was not computed (in check).
    pub eval: i32,
    /// The position has been a PV node since the entry was made for it.
    pub pv: bool,
}

impl Bound {
    /// Whether a score with this bound settles a node searched with the window (alpha, beta).
    #[inline]
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

pub struct TranspositionTable {
    slots: Slots,
    age: AtomicU8,
}

/// Searches are aged modulo this (the age takes 6 bits of a slot).
const AGE_MASK: u8 = 63;

/// The bit of a slot's data word (above the packed move's 15) that marks a PV position.
const PV_BIT: u64 = 1 << 15;

/// Packs a slot's data word: move (bits 0–14), PV flag (15), score (16–31), depth (32–39),
/// bound (40–41), age (42–47), static evaluation (48–63).
fn encode(
    mv: PackedMove,
    pv: bool,
    score: i32,
    depth: i32,
    bound: Bound,
    age: u8,
    eval: i32,
) -> u64 {
    u64::from(mv.0)
        | if pv { PV_BIT } else { 0 }
        | (u64::from(score as i16 as u16) << 16)
        | (u64::from(depth.clamp(0, 255) as u8) << 32)
        | (u64::from(bound as u8) << 40)
        | (u64::from(age & AGE_MASK) << 42)
        | (u64::from(eval as i16 as u16) << 48)
}

fn decode(data: u64) -> (TtEntry, u8) {
    let bound = match (data >> 40) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    let entry = TtEntry {
        mv: PackedMove(data as u16 & !(PV_BIT as u16)),
        score: i32::from((data >> 16) as u16 as i16),
        depth: i32::from((data >> 32) as u8),
        bound,
        eval: i32::from((data >> 48) as u16 as i16),
        pv: data & PV_BIT != 0,
    };
    (entry, ((data >> 42) as u8) & AGE_MASK)
}

impl TranspositionTable {
    /// A table of `mb` mebibytes (at least one slot). Fails instead of aborting when memory is
    /// short.
    pub fn new(mb: usize) -> Result<TranspositionTable, String> {
        let count = mb.saturating_mul(1024 * 1024) / size_of::<Slot>();
        let slots =
            Slots::zeroed(count).ok_or_else(|| format!("cannot allocate a {mb} MB hash table"))?;
        Ok(TranspositionTable {
            slots,
            age: AtomicU8::new(0),
        })
    }

    pub fn clear(&self) {
        for slot in self.slots.iter() {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search; entries from older searches become preferred victims.
    pub fn new_search(&self) {
        let next = (self.age.load(Ordering::Relaxed) + 1) & AGE_MASK;
        self.age.store(next, Ordering::Relaxed);
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        let index = ((u128::from(key) * self.slots.len() as u128) >> 64) as usize;
        &self.slots[index]
    }

    /// Starts loading the slot of `key` into the cache, so that a probe soon after finds it
    /// there instead of waiting on memory. A hint only: it changes no result.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot: *const Slot = self.slot(key);
            // SAFETY: a prefetch reads nothing the program sees; the address is a live slot.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        Some(decode(data).0)
    }

    /// Stores a result. A slot holding another position is replaced when it is from an older
    /// search or not deeper; the same position is replaced unless the new result is much
    /// shallower and not exact. A result without a move keeps the stored move, and one without
    /// a static evaluation (`NO_EVAL`) the stored evaluation; a position once marked as a PV
    /// node (`pv`) stays marked while its entry lasts.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: PackedMove,
        score: i32,
        depth: i32,
        bound: Bound,
        eval: i32,
        pv: bool,
    ) {
        let slot = self.slot(key);
        let age = self.age.load(Ordering::Relaxed);
        let old = slot.data.load(Ordering::Relaxed);
        let same = old != 0 && slot.check.load(Ordering::Relaxed) ^ old == key;
        let mut mv = mv;
        let mut eval = eval;
        let mut pv = pv;
        if old != 0 {
            let (entry, old_age) = decode(old);
            if same {
                if bound != Bound::Exact && depth + 3 < entry.depth && old_age == age {
                    return;
                }
                if mv == PackedMove::NONE {
                    mv = entry.mv;
                }
                if eval == NO_EVAL {
                    eval = entry.eval;
                }
                pv |= entry.pv;
            } else if old_age == age && depth < entry.depth {
                return;
            }
        }
        let data = encode(mv, pv, score, depth, bound, age, eval);
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// Permille of the first thousand slots used by the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && decode(d).1 == age
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// Converts a score found at `ply` into one relative to the stored node (mates count from it).
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Inverse of [`score_to_tt`] for a node at `ply`.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        (score - ply as i32).min(MATE)
    } else if score <= -MATE_BOUND {
        (score + ply as i32).max(-MATE)
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1).unwrap();
        let pos = Chess::default();
        let m = pos.legal_moves()[3];
        tt.store(12345, PackedMove::pack(m), -321, 7, Bound::Lower, 57, false);
        let e = tt.probe(12345).unwrap();
        assert!(e.mv.matches(m));
        assert_eq!(
            (e.score, e.depth, e.bound, e.eval, e.pv),
            (-321, 7, Bound::Lower, 57, false)
        );
        // A later result without an evaluation or a move keeps both.
        tt.store(
            12345,
            PackedMove::NONE,
            400,
            9,
            Bound::Exact,
            NO_EVAL,
            false,
        );
        let e = tt.probe(12345).unwrap();
        assert!(e.mv.matches(m));
        assert_eq!(
            (e.score, e.depth, e.bound, e.eval, e.pv),
            (400, 9, Bound::Exact, 57, false)
        );
        tt.store(
            u64::MAX / 3,
            PackedMove::NONE,
            -MATE + 3,
            0,
            Bound::Upper,
            NO_EVAL,
            false,
        );
        let e = tt.probe(u64::MAX / 3).unwrap();
        assert_eq!((e.score, e.eval), (-MATE + 3, NO_EVAL));
        assert!(tt.probe(54321).is_none());
    }

    /// A position stored from a PV node stays marked through later stores from non-PV
    /// nodes, and the mark takes nothing from the move stored beside it.
    #[test]
    fn the_pv_mark_stays_with_the_position() {
        let tt = TranspositionTable::new(1).unwrap();
        let pos = crate::game::test_position("8/P7/8/8/8/8/8/k6K w - - 0 1");
        let promotion = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.promotion() == Some(shakmaty::Role::Queen))
            .unwrap();
        tt.store(
            777,
            PackedMove::pack(promotion),
            10,
            5,
            Bound::Exact,
            3,
            true,
        );
        let e = tt.probe(777).unwrap();
        assert!(e.pv && e.mv.matches(promotion));
        tt.store(777, PackedMove::NONE, -20, 6, Bound::Upper, 3, false);
        let e = tt.probe(777).unwrap();
        assert!(e.pv && e.mv.matches(promotion));
        assert_eq!((e.score, e.depth, e.bound), (-20, 6, Bound::Upper));
        // Another position starts unmarked.
        tt.store(u64::MAX / 5, PackedMove::NONE, 0, 1, Bound::Lower, 0, false);
        assert!(tt.probe(u64::MAX / 5).is_some_and(|e| !e.pv));
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let mate_in_3_from_root = MATE - 5;
        let stored = score_to_tt(mate_in_3_from_root, 2);
        assert_eq!(stored, MATE - 3);
        assert_eq!(score_from_tt(stored, 4), MATE - 7);
        assert_eq!(score_from_tt(score_to_tt(-MATE + 6, 3), 3), -MATE + 6);
        assert_eq!(score_from_tt(score_to_tt(42, 3), 9), 42);
    }

    #[test]
    fn packed_moves_distinguish_promotions() {
        let pos = crate::game::test_position("8/P7/8/8/8/8/8/k6K w - - 0 1");
        let moves = pos.legal_moves();
        let promos: Vec<_> = moves.iter().filter(|m| m.promotion().is_some()).collect();
        assert_eq!(promos.len(), 4);
        for a in &promos {
            for b in &promos {
                assert_eq!(PackedMove::pack(**a) == PackedMove::pack(**b), a == b);
            }
        }
    }
}

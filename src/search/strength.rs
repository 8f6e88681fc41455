//! Playing strength below Pivot's own (`UCI_LimitStrength` with `UCI_Elo`, or `Skill Level`):
//! a smaller search, as a weaker player sees less, and a choice among the best few moves with
//! errors that grow as the level falls, never beyond a limit that keeps a strong level from
//! throwing away material for nothing.
//!
//! The mechanism has a scale of its own (its *level*, in the units of `UCI_Elo`); games against
//! Stockfish's levels measured where on that scale each `UCI_Elo` plays (`CALIBRATION`), so a
//! request is mapped onto the level that plays at it. All the figures live in one place so that
//! calibration changes only them.

use super::report::PvLine;
use crate::score::{MATE_BOUND, is_mate};

/// The lowest and highest level, in Elo.
pub const MIN_ELO: u32 = 1320;
pub const MAX_ELO: u32 = 3000;
/// `Skill Level` 20 is full strength; 0 to 19 map onto the Elo range.
pub const MAX_SKILL: u32 = 20;

/// Moves the weakened search keeps lines for, to choose among.
const CANDIDATES: usize = 4;
/// Below this spread of errors (centipawns) the choice is nearly always the best line, and the
/// search keeps that line only: the other lines would take nodes for no difference in play.
const CHOICE_NOISE: f64 = 12.0;
/// Nodes a search may spend at `MIN_ELO`; they double every `NODES_DOUBLING_ELO`.
const MIN_NODES: f64 = 32.0;
const NODES_DOUBLING_ELO: f64 = 125.0;
/// Depth at `MIN_ELO`, and one more ply every `DEPTH_STEP_ELO`.
const MIN_DEPTH: u32 = 1;
const DEPTH_STEP_ELO: u32 = 100;
/// The spread of the error added to each candidate's score, in centipawns per Elo below
/// `NOISE_FREE_ELO`.
const NOISE_PER_ELO: f64 = 0.12;
const NOISE_FREE_ELO: u32 = 2900;
/// The most a chosen move may score below the best one: `LOSS_BASE` plus `LOSS_PER_ELO` per Elo
/// below `MAX_ELO` (at 2400 about two pawns, so a free queen is never given away).
const LOSS_BASE: i32 = 60;
const LOSS_PER_ELO: f64 = 0.25;

/// Pairs of (`UCI_Elo`, the mechanism's level that plays at it), rising in both; linear
/// between pairs. Fitted to games against Stockfish 15.1 at the same `UCI_Elo` (README,
/// "Playing against Pivot: strength levels"; `scripts/calibrate_elo.sh`).
///
/// At 10+0.1 Stockfish's levels from 2600 up beat Pivot at full strength (20 games: 2 − 10 − 8
/// against its 2600; the top level scored 34% against it in 100), so from there on the
/// mechanism plays at its top. 2200 at level 2790 (four candidate lines, 13 cp of noise)
/// scored 30% in 100 games, at 2830 (one line) 47.5%.
const CALIBRATION: [(u32, u32); 6] = [
    (MIN_ELO, 1889),
    (1400, 1959),
    (1800, 2310),
    (2200, 2830),
    (2600, MAX_ELO),
    (MAX_ELO, MAX_ELO),
];

/// The mechanism's level for `elo` (clamped to the range).
fn calibrated(elo: u32) -> u32 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    let pair = CALIBRATION
        .windows(2)
        .find(|p| elo <= p[1].0)
        .unwrap_or(&CALIBRATION[CALIBRATION.len() - 2..]);
    let ((elo0, level0), (elo1, level1)) = (pair[0], pair[1]);
    level0 + (level1 - level0) * (elo - elo0) / (elo1 - elo0)
}

/// A playing level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// The `UCI_Elo` asked for.
    elo: u32,
    /// Where the mechanism plays it (see `CALIBRATION`); what the figures below are read at.
    level: u32,
}

impl Strength {
    /// The level of `UCI_Elo` (clamped to the range).
    pub fn from_elo(elo: u32) -> Strength {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        Strength {
            elo,
            level: calibrated(elo),
        }
    }

    /// The level of `Skill Level` 0 to 19 (`None` for 20 and above: full strength).
    pub fn from_skill(level: u32) -> Option<Strength> {
        (level < MAX_SKILL)
            .then(|| Strength::from_elo(MIN_ELO + level * (MAX_ELO - MIN_ELO) / MAX_SKILL))
    }

    pub fn elo(self) -> u32 {
        self.elo
    }

    /// Nodes one search may spend.
    pub fn nodes(self) -> u64 {
        let doublings = f64::from(self.level - MIN_ELO) / NODES_DOUBLING_ELO;
        (MIN_NODES * doublings.exp2()) as u64
    }

    /// Lines the search keeps to choose among.
    pub fn candidates(self) -> usize {
        if self.noise() < CHOICE_NOISE {
            1
        } else {
            CANDIDATES
        }
    }

    /// The deepest iteration.
    pub fn depth(self) -> u32 {
        MIN_DEPTH + (self.level - MIN_ELO) / DEPTH_STEP_ELO
    }

    /// The spread of the error on each candidate's score, in centipawns.
    fn noise(self) -> f64 {
        f64::from(NOISE_FREE_ELO.saturating_sub(self.level)) * NOISE_PER_ELO
    }

    /// The most a chosen move may score below the best.
    pub fn max_loss(self) -> i32 {
        LOSS_BASE + (f64::from(MAX_ELO - self.level) * LOSS_PER_ELO) as i32
    }

    /// The index of the line to play among `lines` (best first): the best score after an
    /// error drawn for each from `seed`, among the lines within `max_loss` of the best.
    pub fn pick(self, lines: &[PvLine], seed: u64) -> usize {
        let Some(best) = lines.first() else {
            return 0;
        };
        // A mate found for the side to move is played; mates against it are among the worst.
        if best.score >= MATE_BOUND {
            return 0;
        }
        let clamp = |s: i32| if is_mate(s) { s.signum() * 3000 } else { s };
        let top = clamp(best.score);
        let mut rng = seed | 1;
        let mut chosen = 0;
        let mut chosen_value = f64::MIN;
        for (i, line) in lines.iter().enumerate() {
            let score = clamp(line.score);
            if top - score > self.max_loss() || line.pv.is_empty() {
                continue;
            }
            // A roughly normal error: the sum of four uniform draws, centred.
            let mut sum = 0.0;
            for _ in 0..4 {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                sum += (rng >> 11) as f64 / (1u64 << 53) as f64;
            }
            let value = f64::from(score) + self.noise() * (sum - 2.0);
            if value > chosen_value {
                chosen = i;
                chosen_value = value;
            }
        }
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(score: i32) -> PvLine {
        PvLine {
            depth: 5,
            score,
            bound: None,
            pv: vec![shakmaty::Move::Put {
                role: shakmaty::Role::Pawn,
                to: shakmaty::Square::A3,
            }],
        }
    }

    #[test]
    fn levels_grow_with_elo_and_skill() {
        let mut last = Strength::from_elo(MIN_ELO);
        for elo in (MIN_ELO..=MAX_ELO).step_by(20).skip(1) {
            let s = Strength::from_elo(elo);
            assert!(
                s.nodes() >= last.nodes() && s.depth() >= last.depth(),
                "{elo}"
            );
            assert!(
                s.noise() <= last.noise()
                    && s.max_loss() <= last.max_loss()
                    && s.candidates() <= last.candidates(),
                "{elo}"
            );
            last = s;
        }
        assert_eq!(Strength::from_skill(0), Some(Strength::from_elo(MIN_ELO)));
        assert!(Strength::from_skill(19).is_some_and(|s| s.elo() < MAX_ELO));
        assert_eq!(Strength::from_skill(20), None);
        assert_eq!(Strength::from_elo(100).elo(), MIN_ELO);
        assert_eq!(Strength::from_elo(9999).elo(), MAX_ELO);
    }

    #[test]
    fn the_calibration_rises_and_spans_the_range() {
        assert!(
            CALIBRATION
                .windows(2)
                .all(|p| p[0].0 < p[1].0 && p[0].1 <= p[1].1)
        );
        assert_eq!(CALIBRATION[0].0, MIN_ELO);
        assert_eq!(CALIBRATION[CALIBRATION.len() - 1], (MAX_ELO, MAX_ELO));
        for &(elo, level) in &CALIBRATION {
            assert_eq!(calibrated(elo), level);
        }
        let mut last = 0;
        for elo in MIN_ELO..=MAX_ELO {
            let level = calibrated(elo);
            assert!(
                level >= last && (MIN_ELO..=MAX_ELO).contains(&level),
                "{elo}"
            );
            last = level;
        }
    }

    #[test]
    fn a_strong_level_never_gives_a_queen_away() {
        // The second-best move loses a queen: at 2400 and above it is never chosen.
        let lines = [line(50), line(-850), line(-900)];
        for elo in [2400, 2600, 2850, 3000] {
            let s = Strength::from_elo(elo);
            for seed in 0..2000 {
                assert_eq!(s.pick(&lines, seed), 0, "{elo} seed {seed}");
            }
        }
    }

    #[test]
    fn weaker_levels_stray_from_the_best_move_more_often() {
        let lines = [line(40), line(20), line(0), line(-30)];
        let strays = |elo| {
            let s = Strength::from_elo(elo);
            (0..4000u64)
                .filter(|&seed| s.pick(&lines, seed.wrapping_mul(0x9E37_79B9)) != 0)
                .count()
        };
        let (weak, middle, strong) = (strays(1400), strays(2200), strays(2850));
        assert!(weak > middle && middle > strong, "{weak} {middle} {strong}");
        assert!(strong < 400, "{strong}");
    }

    #[test]
    fn a_mate_for_the_side_to_move_is_always_played() {
        let mate = PvLine {
            score: crate::score::MATE - 3,
            ..line(0)
        };
        let lines = [mate, line(500), line(400)];
        for seed in 0..500 {
            assert_eq!(Strength::from_elo(MIN_ELO).pick(&lines, seed), 0);
        }
    }
}

//! Time management: turns the clock parameters of `go` into a soft and a hard time limit.
//!
//! The soft limit says when not to start another iteration; the hard limit aborts the search.
//! Under a game clock the soft limit is scaled after each iteration by how settled the search
//! looks: how long the best move has held, what share of the effort it took, and whether the
//! score is falling.

use std::time::Duration;

/// Clock state for the side to move, as sent with `go`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time_ms: u64,
    pub inc_ms: u64,
    pub movestogo: Option<u64>,
}

/// How long the search may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    pub soft: Duration,
    pub hard: Duration,
}

/// Moves we assume remain when the GUI does not say (sudden death or increment).
const DEFAULT_MOVES_TO_GO: u64 = 25;
/// `go movetime` is cut this much short so the reply arrives within the allotted time.
const MOVETIME_MARGIN_MS: u64 = 1;

/// Limits for a fixed `go movetime`: both equal to the requested time less a small margin.
pub fn for_movetime(movetime_ms: u64) -> TimeLimits {
    let t = Duration::from_millis(movetime_ms.saturating_sub(MOVETIME_MARGIN_MS).max(1));
    TimeLimits { soft: t, hard: t }
}

/// Limits for a game clock. `overhead_ms` (the Move Overhead option) is kept in reserve for
/// the GUI and the operating system, once per move still to play before the next time control.
pub fn for_clock(clock: Clock, overhead_ms: u64) -> TimeLimits {
    let mtg = clock.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 50);
    let left = clock.time_ms.saturating_sub(overhead_ms);
    // Never plan on more than the time left minus a reserve for the remaining moves.
    // Saturating throughout: a GUI may send any clock value up to u64::MAX.
    let reserve = overhead_ms.min(left / 2) * (mtg - 1).min(10);
    let usable = left.saturating_sub(reserve);
    let share = (usable / mtg).saturating_add(clock.inc_ms.saturating_mul(3) / 4);
    let soft = share.min(usable / 2);
    let hard = soft
        .saturating_mul(4)
        .min(usable.saturating_mul(3) / 4)
        .max(soft);
    TimeLimits {
        soft: Duration::from_millis(soft),
        hard: Duration::from_millis(hard),
    }
}

/// What an iteration tells the time manager.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// Completed iterations in a row that ended with the same best move (0 after a change).
    pub stability: u32,
    /// The best move's share of the root nodes of the last iteration, 0 to 1.
    pub best_share: f64,
    /// How far the score fell since the previous iteration, in centipawns (0 if it rose).
    pub score_drop: i32,
}

/// Factor applied to the soft limit: below 1 when the best move has been stable and took most
/// of the effort, above 1 after a change of mind or a falling score. Between 0.4 and 2.5.
pub fn soft_scale(p: Progress) -> f64 {
    let stability = match p.stability {
        0 => 1.3,
        1 => 1.1,
        2 => 1.0,
        3 => 0.9,
        _ => 0.8,
    };
    let share = (1.6 - p.best_share.clamp(0.0, 1.0)).clamp(0.6, 1.4);
    let falling = 1.0 + f64::from(p.score_drop.clamp(0, 100)) / 200.0;
    (stability * share * falling).clamp(0.4, 2.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> u64 {
        d.as_millis() as u64
    }

    #[test]
    fn sudden_death_spends_a_fraction_of_the_clock() {
        let t = for_clock(
            Clock {
                time_ms: 60_000,
                inc_ms: 0,
                movestogo: None,
            },
            30,
        );
        assert!(ms(t.soft) > 1_000 && ms(t.soft) < 5_000, "{t:?}");
        assert!(t.hard >= t.soft && ms(t.hard) < 30_000);
    }

    #[test]
    fn last_move_before_the_control_never_uses_the_whole_clock() {
        let t = for_clock(
            Clock {
                time_ms: 1_000,
                inc_ms: 0,
                movestogo: Some(1),
            },
            30,
        );
        assert!(ms(t.hard) < 970, "{t:?}");
        let t = for_clock(
            Clock {
                time_ms: 10,
                inc_ms: 0,
                movestogo: Some(1),
            },
            30,
        );
        assert_eq!(ms(t.hard), 0);
    }

    #[test]
    fn tiny_increment_games_stay_within_the_clock() {
        let mut time = 1_000u64;
        for _ in 0..200 {
            let t = for_clock(
                Clock {
                    time_ms: time,
                    inc_ms: 10,
                    movestogo: None,
                },
                30,
            );
            assert!(ms(t.hard) + 30 <= time.max(30), "{time} {t:?}");
            time = time - ms(t.hard) + 10;
        }
        assert!(time > 30, "{time}");
    }

    #[test]
    fn forty_moves_in_one_second_reaches_the_control() {
        let mut time = 1_000u64;
        for played in 0..40u64 {
            let t = for_clock(
                Clock {
                    time_ms: time,
                    inc_ms: 0,
                    movestogo: Some(40 - played),
                },
                30,
            );
            time -= ms(t.hard);
        }
        assert!(time >= 30, "{time}");
    }

    #[test]
    fn clock_values_at_their_limits_do_not_overflow() {
        for (time_ms, inc_ms, movestogo) in [
            (u64::MAX, u64::MAX, None),
            (u64::MAX, 0, Some(u64::MAX)),
            (0, u64::MAX, Some(1)),
            (1, 0, Some(0)),
        ] {
            let t = for_clock(
                Clock {
                    time_ms,
                    inc_ms,
                    movestogo,
                },
                5_000,
            );
            assert!(t.hard >= t.soft, "{t:?}");
        }
        assert_eq!(ms(for_movetime(u64::MAX).hard), u64::MAX - 1);
    }

    #[test]
    fn a_settled_search_stops_sooner_and_a_troubled_one_later() {
        let settled = Progress {
            stability: 6,
            best_share: 0.9,
            score_drop: 0,
        };
        let changed = Progress {
            stability: 0,
            best_share: 0.3,
            score_drop: 0,
        };
        let falling = Progress {
            score_drop: 80,
            ..settled
        };
        assert!(soft_scale(settled) < 0.7, "{}", soft_scale(settled));
        assert!(soft_scale(changed) > 1.4, "{}", soft_scale(changed));
        assert!(soft_scale(falling) > soft_scale(settled));
        for stability in 0..10 {
            for share in [0.0, 0.5, 1.0, -3.0, 7.0] {
                for drop in [-500, 0, 50, 5000] {
                    let f = soft_scale(Progress {
                        stability,
                        best_share: share,
                        score_drop: drop,
                    });
                    assert!((0.4..=2.5).contains(&f));
                }
            }
        }
    }

    #[test]
    fn movetime_is_used_almost_fully() {
        assert_eq!(ms(for_movetime(1000).hard), 999);
        assert_eq!(ms(for_movetime(0).hard), 1);
    }
}

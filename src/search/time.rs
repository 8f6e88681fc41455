//! Time management: turns the clock parameters of `go` into a soft and a hard time limit.
//!
//! The soft limit says when not to start another iteration; the hard limit aborts the search.
//! Under a game clock the soft limit is scaled after each iteration by how settled the search
//! looks: how long the best move has held, what share of the effort it took, and whether the
//! score is falling.

use std::time::Duration;

use super::params;

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

/// Future moves whose overhead is held back from the clock (repeating controls).
const RESERVED_MOVES: u64 = 10;
/// `go movetime` is cut this much short so the reply arrives within the allotted time.
const MOVETIME_MARGIN_MS: u64 = 1;

/// Limits for a fixed `go movetime`: both equal to the requested time less a small margin.
pub fn for_movetime(movetime_ms: u64) -> TimeLimits {
    let t = Duration::from_millis(movetime_ms.saturating_sub(MOVETIME_MARGIN_MS).max(1));
    TimeLimits { soft: t, hard: t }
}

/// Limits for a game clock.
///
/// `overhead_ms` (the Move Overhead option) is what the GUI, the operating system or a network
/// takes from the clock on each move beyond the engine's own thinking. It comes off the time
/// left at once; for the moves still to play before the next control it is reserved only as far
/// as the increment does not pay it back (at most ten moves' worth and half the clock), so an
/// increment game never starves while a repeating control without increment still reaches its
/// control.
///
/// The soft limit plans an even share of the usable time over the moves to go (four fifths of
/// them under a repeating control, see [`planned_moves`]) plus the increment, but never more
/// than a third of the usable time (or half the increment, if that is more and fits in half of
/// it); the hard limit allows up to four times the soft limit, never more than half of the
/// usable time. So a clock that has run low with an increment
/// fills up again until it holds a few increments (about three less twice the overhead when
/// every move takes its soft limit), a cushion against a slow move, while a move still gets half an
/// increment or more whenever the clock holds twice the increment and the overhead. Both
/// limits are at least 1 ms while the clock holds more than the overhead, never more than the
/// clock less the overhead, and grow with the time left and with the increment.
pub fn for_clock(clock: Clock, overhead_ms: u64) -> TimeLimits {
    // Moves assumed to remain when the GUI does not say (sudden death or increment).
    let default_mtg = params::tm_moves_to_go() as u64;
    let mtg = clock.movestogo.unwrap_or(default_mtg).clamp(1, 50);
    // Saturating throughout: a GUI may send any clock value up to u64::MAX.
    let left = clock.time_ms.saturating_sub(overhead_ms);
    if left == 0 {
        return TimeLimits {
            soft: Duration::ZERO,
            hard: Duration::ZERO,
        };
    }
    let unpaid_overhead = overhead_ms.saturating_sub(clock.inc_ms);
    let reserve = unpaid_overhead
        .saturating_mul((mtg - 1).min(RESERVED_MOVES))
        .min(left / 2);
    let usable = left - reserve;
    let inc_share = percent(clock.inc_ms, params::tm_increment_percent() as u64);
    let share = (usable / planned_moves(mtg, clock.movestogo.is_some())).saturating_add(inc_share);
    let cap_divisor = params::tm_soft_cap_divisor() as u64;
    let cap = (usable / cap_divisor).max((clock.inc_ms / 2).min(usable / 2));
    let soft = share.min(cap).max(1);
    let hard_factor = params::tm_hard_factor() as u64;
    let hard = soft.saturating_mul(hard_factor).min(usable / 2).max(soft);
    TimeLimits {
        soft: Duration::from_millis(soft),
        hard: Duration::from_millis(hard),
    }
}

/// The moves the usable time is shared over. Under a repeating control that is
/// `tm_period_percent` of the moves to go, rounded up: most moves stop at a fraction of their
/// soft limit once the best move has settled, so an even share of the whole `movestogo` would
/// reach the control with much of the period unspent (the hard limit still keeps every move
/// within half the usable time).
fn planned_moves(mtg: u64, repeating: bool) -> u64 {
    if !repeating {
        return mtg;
    }
    let pct = params::tm_period_percent() as u64;
    (mtg * pct).div_ceil(100).clamp(1, mtg)
}

/// `pct` percent of `ms`, rounded down, without overflow.
fn percent(ms: u64, pct: u64) -> u64 {
    ms / 100 * pct + ms % 100 * pct / 100
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

    /// Clock values from bullet to classical, as a GUI may send them.
    const TIMES: [u64; 16] = [
        10, 20, 50, 100, 200, 500, 1_000, 2_000, 3_000, 5_000, 10_000, 30_000, 60_000, 300_000,
        1_800_000, 3_600_000,
    ];
    const INCREMENTS: [u64; 10] = [0, 10, 20, 50, 100, 500, 1_000, 2_000, 5_000, 10_000];
    const MOVES_TO_GO: [Option<u64>; 8] = [
        None,
        Some(1),
        Some(2),
        Some(5),
        Some(10),
        Some(20),
        Some(30),
        Some(40),
    ];
    const OVERHEADS: [u64; 7] = [0, 10, 30, 100, 300, 1_000, 5_000];

    fn limits(time_ms: u64, inc_ms: u64, movestogo: Option<u64>, overhead: u64) -> (u64, u64) {
        let t = for_clock(
            Clock {
                time_ms,
                inc_ms,
                movestogo,
            },
            overhead,
        );
        (ms(t.soft), ms(t.hard))
    }

    /// Every clock of the grid, with its limits.
    fn grid() -> impl Iterator<Item = (u64, u64, Option<u64>, u64, u64, u64)> {
        TIMES.into_iter().flat_map(|time| {
            INCREMENTS.into_iter().flat_map(move |inc| {
                MOVES_TO_GO.into_iter().flat_map(move |mtg| {
                    OVERHEADS.into_iter().map(move |o| {
                        let (soft, hard) = limits(time, inc, mtg, o);
                        (time, inc, mtg, o, soft, hard)
                    })
                })
            })
        })
    }

    #[test]
    fn the_hard_limit_never_exceeds_the_clock_less_the_overhead() {
        for (time, inc, mtg, o, soft, hard) in grid() {
            let case = format!("time {time} inc {inc} movestogo {mtg:?} overhead {o}");
            assert!(hard <= time.saturating_sub(o), "{case}: hard {hard}");
            assert!(soft <= hard, "{case}: soft {soft} hard {hard}");
        }
    }

    #[test]
    fn with_room_on_the_clock_at_least_half_the_increment_is_spent() {
        for (time, inc, mtg, o, soft, _) in grid() {
            if inc > 0 && time >= 2 * (inc + o) {
                let case = format!("time {time} inc {inc} movestogo {mtg:?} overhead {o}");
                assert!(soft >= inc / 2, "{case}: soft {soft}");
            }
        }
    }

    #[test]
    fn no_limit_is_zero_while_the_clock_holds_more_than_the_overhead() {
        for (time, inc, mtg, o, soft, hard) in grid() {
            let case = format!("time {time} inc {inc} movestogo {mtg:?} overhead {o}");
            if time > o {
                assert!(soft >= 1 && hard >= 1, "{case}: soft {soft} hard {hard}");
            } else {
                assert_eq!((soft, hard), (0, 0), "{case}");
            }
        }
    }

    #[test]
    fn limits_grow_with_the_time_left_and_with_the_increment() {
        for mtg in MOVES_TO_GO {
            for o in OVERHEADS {
                for inc in INCREMENTS {
                    for pair in TIMES.windows(2) {
                        let (less, more) =
                            (limits(pair[0], inc, mtg, o), limits(pair[1], inc, mtg, o));
                        let case =
                            format!("time {pair:?} inc {inc} movestogo {mtg:?} overhead {o}");
                        assert!(
                            less.0 <= more.0 && less.1 <= more.1,
                            "{case}: {less:?} {more:?}"
                        );
                    }
                }
                for time in TIMES {
                    for pair in INCREMENTS.windows(2) {
                        let (less, more) =
                            (limits(time, pair[0], mtg, o), limits(time, pair[1], mtg, o));
                        let case =
                            format!("time {time} inc {pair:?} movestogo {mtg:?} overhead {o}");
                        assert!(
                            less.0 <= more.0 && less.1 <= more.1,
                            "{case}: {less:?} {more:?}"
                        );
                    }
                }
            }
        }
    }

    /// Plays `moves` moves on one side's clock, each taking the soft limit (or the hard one)
    /// plus `lag` ms, and returns the thinking time of each move; `None` if the flag fell.
    fn play(
        start_ms: u64,
        inc_ms: u64,
        control: Option<u64>,
        overhead: u64,
        lag: u64,
        moves: u64,
        worst_case: bool,
    ) -> Option<Vec<u64>> {
        let mut time = start_ms;
        let mut spent = Vec::new();
        for played in 0..moves {
            let movestogo = control.map(|c| c - played % c);
            let (soft, hard) = limits(time, inc_ms, movestogo, overhead);
            let think = if worst_case { hard } else { soft };
            time = time.checked_sub(think + lag)?;
            time += inc_ms;
            if movestogo == Some(1) {
                time += start_ms;
            }
            spent.push(think);
        }
        Some(spent)
    }

    #[test]
    fn bullet_with_increment_spends_the_increment_for_the_whole_game() {
        // 1+1, 2+1, 3+2 and 0.5+0.5 with the overheads lichess-bot users set.
        for (start, inc) in [
            (60_000, 1_000),
            (120_000, 1_000),
            (180_000, 2_000),
            (500, 500),
            (1_000, 1_000),
        ] {
            for overhead in [0, 30, 100, 300] {
                let case = format!("{start}+{inc} overhead {overhead}");
                // What a move can spend for good is the increment less the overhead; a clock
                // that starts below two increments (0.5+0.5) fills up within a move.
                let floor = (inc - overhead.min(inc)) / 2;
                let spent = play(start, inc, None, overhead, overhead, 300, false).expect(&case);
                assert!(spent[1..].iter().all(|&t| t >= floor), "{case}: {spent:?}");
                let spent = play(start, inc, None, overhead, overhead, 300, true).expect(&case);
                assert!(
                    spent[1..].iter().all(|&t| t >= floor),
                    "{case} (hard): {spent:?}"
                );
            }
        }
    }

    /// A clock that has run low in an increment game fills up again: when every move takes
    /// its soft limit and the overhead, the clock settles with at least two increments and the
    /// overhead on it, and from there a move that runs to its hard limit and lags by another
    /// increment still does not flag.
    #[test]
    fn a_low_clock_with_increment_fills_up_to_a_cushion() {
        for (start, inc) in [(10_000, 100), (60_000, 1_000), (180_000, 2_000), (500, 500)] {
            // (Where the overhead eats the whole increment, every move costs the clock time.)
            for overhead in [0, 30, 100].into_iter().filter(|&o| o < inc) {
                let case = format!("{start}+{inc} overhead {overhead}");
                // The clock a long game may have come down to.
                let mut time = inc + overhead + 10;
                for _ in 0..300 {
                    let (soft, _) = limits(time, inc, None, overhead);
                    time = time.checked_sub(soft + overhead).expect(&case) + inc;
                }
                assert!(time >= 2 * inc + overhead, "{case}: settles at {time}");
                let (_, hard) = limits(time, inc, None, overhead);
                assert!(hard + overhead + inc < time, "{case}: {time} hard {hard}");
            }
        }
    }

    #[test]
    fn repeating_controls_reach_each_control_with_time_to_spare() {
        // 40/20s, 40/2min, 1 move per second and 10 moves per 5 s, over several controls.
        for (moves, start) in [(40, 20_000), (40, 120_000), (1, 1_000), (10, 5_000)] {
            for overhead in [0, 30, 100] {
                let case = format!("{moves}/{start} overhead {overhead}");
                let spent =
                    play(start, 0, Some(moves), overhead, overhead, 200, false).expect(&case);
                assert!(spent.iter().all(|&t| t > 0), "{case}: {spent:?}");
                play(start, 0, Some(moves), overhead, 0, 200, true).expect(&case);
            }
        }
    }

    /// Under a repeating control, moves that stop at four fifths of their soft limit (a settled
    /// search, see `soft_scale`) spend the period evenly: the first half of the moves gets at
    /// least 44% of it (an even share over all the moves gave 38–42%), and the control is
    /// still reached.
    #[test]
    fn settled_moves_spend_a_repeating_period_evenly() {
        for (moves, start) in [(40, 20_000), (40, 120_000), (20, 60_000), (10, 5_000)] {
            for overhead in [0, 30] {
                let case = format!("{moves}/{start} overhead {overhead}");
                let mut time = start;
                let mut first_half = 0;
                for played in 0..moves {
                    let (soft, _) = limits(time, 0, Some(moves - played), overhead);
                    let think = soft * 4 / 5;
                    time = time.checked_sub(think + overhead).expect(&case);
                    if played < moves / 2 {
                        first_half += think;
                    }
                }
                assert!(first_half * 100 >= start * 44, "{case}: {first_half}");
            }
        }
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

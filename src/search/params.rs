//! Search tunables, in one place.
//!
//! Each parameter is read through a function of its name (`params::rfp_margin()`). In a normal
//! build the function returns the default, a constant the compiler folds in, so the search is
//! exactly as if the numbers were written where they are used. Built with `--features tune`,
//! each parameter lives in an atomic that a UCI option of its name (`rfp_margin`, …) sets, so
//! that a tuner such as `scripts/spsa.py` can play games with other values. [`TUNABLES`] lists
//! them all with their ranges and SPSA step sizes (`pivot tunables` prints it).

/// One tunable parameter: its name (also its UCI option's), default, range and SPSA step size
/// (the final perturbation `c_end` of OpenBench's SPSA input format).
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub step: f64,
    /// The current value (tuning builds only).
    #[cfg(feature = "tune")]
    pub value: &'static std::sync::atomic::AtomicI32,
}

impl Tunable {
    /// The value the search uses now.
    pub fn get(&self) -> i32 {
        #[cfg(feature = "tune")]
        {
            self.value.load(std::sync::atomic::Ordering::Relaxed)
        }
        #[cfg(not(feature = "tune"))]
        {
            self.default
        }
    }
}

/// Whether this build takes the tunables as UCI options.
pub const TUNING_BUILD: bool = cfg!(feature = "tune");

/// Sets tunable `index` of [`TUNABLES`] to `value` for the searches that start from now on (in
/// a build without the `tune` feature there is nothing to set).
pub fn set(index: usize, value: i32) {
    #[cfg(feature = "tune")]
    if let Some(t) = TUNABLES.get(index) {
        t.value.store(
            value.clamp(t.min, t.max),
            std::sync::atomic::Ordering::Relaxed,
        );
    }
    #[cfg(not(feature = "tune"))]
    let _ = (index, value);
}

macro_rules! tunables {
    ($( $(#[$doc:meta])* $name:ident = $default:literal in $min:literal ..= $max:literal, step $step:literal; )*) => {
        $(
            $(#[$doc])*
            #[inline(always)]
            pub fn $name() -> i32 {
                #[cfg(feature = "tune")]
                {
                    $name::VALUE.load(std::sync::atomic::Ordering::Relaxed)
                }
                #[cfg(not(feature = "tune"))]
                {
                    $default
                }
            }

            #[cfg(feature = "tune")]
            pub mod $name {
                pub static VALUE: std::sync::atomic::AtomicI32 =
                    std::sync::atomic::AtomicI32::new($default);
            }
        )*

        /// Every tunable, in the order above.
        pub const TUNABLES: &[Tunable] = &[
            $(
                Tunable {
                    name: stringify!($name),
                    default: $default,
                    min: $min,
                    max: $max,
                    step: $step,
                    #[cfg(feature = "tune")]
                    value: &$name::VALUE,
                },
            )*
        ];
    };
}

tunables! {
    /// Half-width of the first aspiration window, in centipawns.
    aspiration_delta = 25 in 8..=80, step 4.0;
    /// First depth searched with an aspiration window.
    aspiration_min_depth = 5 in 2..=10, step 1.0;

    /// Null-move pruning: minimum remaining depth, and reduction `base + depth / divisor`.
    null_move_min_depth = 3 in 1..=6, step 0.5;
    null_move_base_reduction = 3 in 1..=5, step 0.5;
    null_move_depth_divisor = 3 in 2..=8, step 0.5;

    /// Internal iterative reduction: minimum remaining depth of a non-PV node without a TT
    /// move that is searched a ply shallower.
    iir_min_depth = 4 in 2..=8, step 0.5;

    /// Singular extensions: at depth `singular_min_depth` or more, a TT move whose lower bound
    /// is at most `singular_tt_depth_gap` plies shallower is extended when every other move
    /// fails low against its score minus `singular_margin` per ply, searched to half the depth.
    singular_min_depth = 7 in 4..=12, step 0.5;
    singular_tt_depth_gap = 3 in 1..=6, step 0.5;
    singular_margin = 2 in 1..=8, step 0.5;
    /// Off the PV, a singular move whose alternatives fail low by `double_extension_margin`
    /// more is extended two plies, at most `double_extension_limit` times on one path.
    double_extension_margin = 20 in 0..=80, step 4.0;
    double_extension_limit = 6 in 0..=16, step 1.0;

    /// Late-move reductions: minimum remaining depth, first move index reduced at non-PV and
    /// PV nodes, and the table `base + ln(depth) ln(index) / divisor`, both in hundredths.
    lmr_min_depth = 3 in 2..=6, step 0.5;
    lmr_min_index = 3 in 1..=8, step 0.5;
    lmr_min_index_pv = 5 in 2..=10, step 0.5;
    lmr_base_centi = 75 in 0..=200, step 8.0;
    lmr_divisor_centi = 225 in 120..=400, step 12.0;
    /// A quiet move's reduction falls by one ply per 8,192 of its history (with the
    /// continuation histories) at 100 percent, rises as much for a bad history (0: off).
    lmr_history_percent = 0 in 0..=200, step 10.0;
    /// Late-move reductions this many plies smaller at nodes that are on the PV or whose
    /// position has been (the table entry keeps a mark), on top of the PV node's one ply.
    tt_pv_reduction = 0 in 0..=2, step 0.5;
    /// Late-move reductions this many plies larger where the static evaluation has not risen
    /// since the side's previous move.
    lmr_not_improving = 0 in 0..=2, step 0.5;
    /// Late-move reductions this many plies larger where the table's move is a capture or
    /// promotion.
    lmr_tt_capture = 0 in 0..=2, step 0.5;

    /// Correction history by each colour's pieces other than pawns: the weight in percent of
    /// the mean of the two colours' corrections, added to the pawn structure's (0: not kept).
    nonpawn_correction_percent = 0 in 0..=200, step 10.0;

    /// Continuation histories: the weight in percent of a quiet move's standing after each of
    /// the two moves before the node, added to its history in ordering (0: not kept at all).
    cont_history_percent = 0 in 0..=200, step 10.0;
    /// Capture history: the weight in percent of a capture's or promotion's standing (by
    /// piece, target and victim) added to its MVV-LVA ordering score (0: not kept at all).
    capture_history_percent = 0 in 0..=200, step 10.0;

    /// Threat history: the quiet-move history kept in four parts, by whether the move leaves a
    /// square the opponent attacks and whether it lands on one (0: one history for all).
    threat_history = 1 in 0..=1, step 1.0;

    /// ProbCut: at non-PV nodes of remaining depth `probcut_min_depth` or more, a capture
    /// whose search `probcut_depth_reduction` plies shallower beats beta by `probcut_margin`
    /// cuts the node (0: off).
    probcut_margin = 0 in 0..=400, step 15.0;
    probcut_min_depth = 5 in 3..=10, step 0.5;
    probcut_depth_reduction = 4 in 2..=6, step 0.5;

    /// A legal table move is searched before the node's other moves are generated, and a
    /// cutoff spares generating and scoring them (0: the moves are generated first). The
    /// others are then scored after the table move's search, with its history updates.
    tt_move_first = 0 in 0..=1, step 1.0;

    /// Quiescence off the PV stands pat on the table's score where its bound lies beyond the
    /// static evaluation in its own direction (1), or on the static evaluation alone (0).
    qs_tt_stand_pat = 0 in 0..=1, step 1.0;

    /// Upcoming repetition: off the PV, a node whose side to move can bring back an earlier
    /// position with one move returns a draw where that beats beta (0: off).
    upcoming_repetition = 0 in 0..=1, step 1.0;

    /// A repetition is a draw where it repeats a position of the line searched (after the
    /// root) or makes a threefold with the game's positions (1), or wherever the position
    /// stood before since the last irreversible move, the game's positions included (0).
    repetition_since_root = 1 in 0..=1, step 1.0;

    /// Reverse futility pruning: at non-PV nodes of remaining depth up to `rfp_max_depth`, a
    /// static evaluation this far above beta per ply (one ply less when not improving)
    /// returns at once.
    rfp_max_depth = 7 in 3..=12, step 0.5;
    rfp_margin = 75 in 30..=200, step 6.0;

    /// Futility pruning: quiet moves at depth up to `futility_max_depth` are skipped when the
    /// static evaluation plus `futility_base + futility_margin * depth` cannot reach alpha.
    futility_max_depth = 6 in 2..=12, step 0.5;
    futility_base = 90 in 0..=300, step 10.0;
    futility_margin = 100 in 30..=250, step 8.0;
    /// Futility and the exchange test of a quiet move judged at the depth its late-move
    /// reduction would leave (1) instead of the node's depth (0), so that late quiet moves are
    /// pruned as the shallow searches they would get.
    prune_at_reduced_depth = 0 in 0..=1, step 1.0;

    /// Late-move pruning: at depth up to `lmp_max_depth`, quiet moves after the first
    /// `(lmp_base + depth²) / (2 − improving)` are skipped.
    lmp_max_depth = 7 in 2..=12, step 0.5;
    lmp_base = 3 in 0..=12, step 1.0;

    /// History pruning: at non-PV nodes of remaining depth up to `history_prune_max_depth`,
    /// plain quiet moves whose history is below `-history_prune_margin` per ply are skipped
    /// once a move has been searched (0: off).
    history_prune_max_depth = 3 in 1..=8, step 0.5;
    history_prune_margin = 0 in 0..=8192, step 256.0;

    /// Static-exchange pruning at non-PV nodes of depth up to `see_prune_max_depth`: captures
    /// losing more than `see_prune_margin` per ply of depth are skipped, and quiet moves losing
    /// more than `quiet_see_margin` per ply.
    see_prune_max_depth = 6 in 2..=12, step 0.5;
    see_prune_margin = 100 in 20..=250, step 8.0;
    quiet_see_margin = 60 in 10..=200, step 6.0;

    /// Time management (`time::for_clock`): moves assumed to remain when the GUI does not say,
    /// the percentage of the increment each move plans to spend, the cap on the soft limit as
    /// a fraction 1/x of the usable time (half the increment is always allowed), and the hard
    /// limit as a multiple of the soft one. Under a repeating control (`movestogo`) the clock
    /// is planned over `tm_period_percent` of the moves to go, since settled searches stop
    /// short of their soft limit.
    tm_moves_to_go = 25 in 10..=50, step 2.0;
    tm_increment_percent = 100 in 40..=100, step 5.0;
    tm_soft_cap_divisor = 3 in 2..=8, step 0.5;
    tm_hard_factor = 4 in 2..=8, step 0.5;
    tm_period_percent = 80 in 50..=100, step 5.0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range_and_names_are_unique() {
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(
                t.step > 0.0 && t.step <= f64::from(t.max - t.min),
                "{}",
                t.name
            );
            assert_eq!(t.get(), t.default, "{}", t.name);
            assert!(TUNABLES[..i].iter().all(|o| o.name != t.name), "{}", t.name);
            assert_eq!(t.name, t.name.to_ascii_lowercase());
        }
    }

    /// The reduction table's parameters in hundredths give exactly the numbers the search was
    /// tuned with (0.75 and 2.25), so the table and the bench signature are unchanged.
    #[test]
    fn the_reduction_parameters_are_exact() {
        assert_eq!(f64::from(lmr_base_centi()) / 100.0, 0.75);
        assert_eq!(f64::from(lmr_divisor_centi()) / 100.0, 2.25);
    }
}

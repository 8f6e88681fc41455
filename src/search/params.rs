//! Search tunables, in one place.

/// Half-width of the first aspiration window, in centipawns.
pub const ASPIRATION_DELTA: i32 = 25;
/// First depth searched with an aspiration window.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;

/// Null-move pruning: minimum remaining depth, and reduction `BASE + depth / DIVISOR`.
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;
pub const NULL_MOVE_BASE_REDUCTION: i32 = 2;
pub const NULL_MOVE_DEPTH_DIVISOR: i32 = 4;

/// Internal iterative reduction: minimum remaining depth of a non-PV node without a TT move
/// that is searched a ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Singular extensions: at depth `SINGULAR_MIN_DEPTH` or more, a TT move whose lower bound
/// is at most `SINGULAR_TT_DEPTH_GAP` plies shallower is extended when every other move fails
/// low against its score minus `SINGULAR_MARGIN` per ply, searched to half the depth.
pub const SINGULAR_MIN_DEPTH: i32 = 7;
pub const SINGULAR_TT_DEPTH_GAP: i32 = 3;
pub const SINGULAR_MARGIN: i32 = 2;
/// Off the PV, a singular move whose alternatives fail low by `DOUBLE_EXTENSION_MARGIN` more
/// is extended two plies, at most `DOUBLE_EXTENSION_LIMIT` times on one path.
pub const DOUBLE_EXTENSION_MARGIN: i32 = 20;
pub const DOUBLE_EXTENSION_LIMIT: u8 = 6;

/// Late-move reductions: minimum remaining depth, first move index reduced at non-PV and PV
/// nodes, and the table `LMR_BASE + ln(depth) ln(index) / LMR_DIVISOR`.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_INDEX: usize = 3;
pub const LMR_MIN_INDEX_PV: usize = 5;
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;

/// Reverse futility pruning: at non-PV nodes of remaining depth up to `RFP_MAX_DEPTH`, a static
/// evaluation this far above beta per ply (one ply less when not improving) returns at once.
pub const RFP_MAX_DEPTH: i32 = 7;
pub const RFP_MARGIN: i32 = 75;

/// Futility pruning: quiet moves at depth up to `FUTILITY_MAX_DEPTH` are skipped when the
/// static evaluation plus `FUTILITY_BASE + FUTILITY_MARGIN * depth` cannot reach alpha.
pub const FUTILITY_MAX_DEPTH: i32 = 6;
pub const FUTILITY_BASE: i32 = 90;
pub const FUTILITY_MARGIN: i32 = 100;

/// Late-move pruning: at depth up to `LMP_MAX_DEPTH`, quiet moves after the first
/// `(LMP_BASE + depth²) / (2 − improving)` are skipped.
pub const LMP_MAX_DEPTH: i32 = 7;
pub const LMP_BASE: i32 = 3;

/// Static-exchange pruning at non-PV nodes of depth up to `SEE_PRUNE_MAX_DEPTH`: captures
/// losing more than `SEE_PRUNE_MARGIN` per ply of depth are skipped, and quiet moves losing
/// more than `QUIET_SEE_MARGIN` per ply.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 6;
pub const SEE_PRUNE_MARGIN: i32 = 100;
pub const QUIET_SEE_MARGIN: i32 = 60;

//! Static evaluation: a tapered sum of weighted terms (material, piece squares, pawn structure,
//! mobility, king safety, threats), scaled in drawish endgames, from the side to move.
//!
//! Every term is a count times a weight from `weights.rs`, so the same code either sums the
//! weights (`evaluate`) or records the counts for the tuner (`trace`).

mod attacks;
pub mod layout;
pub mod mopup;
mod pawns;
mod pieces;
mod scale;
pub mod wdl;
pub mod weights;

use shakmaty::{Chess, Color, Position, Role};

use layout::{S, WEIGHT_COUNT};
use weights::WEIGHTS;

/// Game phase with all minor and major pieces on the board.
pub const FULL_PHASE: i32 = 24;
/// Contribution of each piece kind to the game phase: pawn, knight, bishop, rook, queen, king.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Endgame scale factors are out of this.
pub const SCALE_NORMAL: i32 = 64;

/// Receives each term of the evaluation: `count` times weight `index`, for `color`.
pub trait Sink {
    fn add(&mut self, color: Color, index: usize, count: i32);
}

/// Sums the weights for each side.
#[derive(Default)]
struct Totals {
    score: [S; 2],
}

impl Sink for Totals {
    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let w = WEIGHTS[index];
        let side = &mut self.score[color as usize];
        side.mg += w.mg * count;
        side.eg += w.eg * count;
    }
}

/// The game phase: 24 with every knight, bishop, rook and queen on the board, 0 with none
/// (knights and bishops count 1, rooks 2, queens 4; capped at 24).
pub fn phase(pos: &Chess) -> i32 {
    let board = pos.board();
    Role::ALL
        .iter()
        .map(|&role| PHASE_WEIGHT[role as usize - 1] * board.by_role(role).count() as i32)
        .sum::<i32>()
        .min(FULL_PHASE)
}

/// Feeds every term of `pos` to `sink`.
fn terms(pos: &Chess, sink: &mut impl Sink) {
    let maps = attacks::Maps::new(pos.board());
    pieces::material(pos.board(), sink);
    pawns::structure(&maps, sink);
    pieces::activity(pos.board(), &maps, sink);
    pieces::king_safety(&maps, sink);
    pieces::threats(pos.board(), &maps, sink);
    sink.add(pos.turn(), layout::TEMPO, 1);
}

/// Blends a middlegame and an endgame score (White's point of view) by the phase, after scaling
/// the endgame part.
fn taper(score: S, phase: i32, scale: i32) -> i32 {
    let eg = score.eg * scale / SCALE_NORMAL;
    (score.mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE
}

/// Evaluates `pos` in centipawns from the point of view of the side to move: the network's
/// evaluation (the search gets the same figure from its incrementally updated accumulators),
/// or with a queen or rook against a bare king the mating score of `mopup`.
pub fn evaluate(pos: &Chess) -> i32 {
    mopup::bare_king(pos).unwrap_or_else(|| crate::nnue::evaluate(pos))
}

/// The hand-crafted evaluation of `pos` in centipawns, from the side to move (what `tune` fits).
pub fn classical(pos: &Chess) -> i32 {
    let mut totals = Totals::default();
    terms(pos, &mut totals);
    let white = totals.score[Color::White as usize];
    let black = totals.score[Color::Black as usize];
    let score = S {
        mg: white.mg - black.mg,
        eg: white.eg - black.eg,
    };
    let scale = scale::endgame_scale(pos.board(), score.eg);
    let white_view = taper(score, phase(pos), scale);
    match pos.turn() {
        Color::White => white_view,
        Color::Black => -white_view,
    }
}

/// The terms of one position, for the tuner: White's minus Black's count for each weight that
/// is used, the phase and the endgame scale (which the tuner holds fixed).
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub counts: Vec<(u16, i16)>,
    pub phase: i32,
    pub scale: i32,
}

/// Records counts per weight index.
struct Counter {
    counts: Vec<i32>,
}

impl Sink for Counter {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        self.counts[index] += match color {
            Color::White => count,
            Color::Black => -count,
        };
    }
}

impl Trace {
    /// The evaluation from White's point of view under `weights` (the same formula as
    /// `evaluate`, with the scale held at its traced value).
    pub fn white_score(&self, weights: &[S]) -> i32 {
        let mut score = S::default();
        for &(i, c) in &self.counts {
            score.mg += weights[usize::from(i)].mg * i32::from(c);
            score.eg += weights[usize::from(i)].eg * i32::from(c);
        }
        taper(score, self.phase, self.scale)
    }
}

/// Each group of terms (as named in `layout::GROUPS`) with its (middlegame, endgame) sum from
/// White's point of view, leaving out groups that add nothing.
pub fn breakdown(pos: &Chess) -> Vec<(&'static str, S)> {
    let t = trace(pos);
    layout::GROUPS
        .iter()
        .filter_map(|&(name, start, len)| {
            let mut sum = S::default();
            for &(i, c) in t
                .counts
                .iter()
                .filter(|(i, _)| (start..start + len).contains(&usize::from(*i)))
            {
                sum.mg += WEIGHTS[usize::from(i)].mg * i32::from(c);
                sum.eg += WEIGHTS[usize::from(i)].eg * i32::from(c);
            }
            (sum != S::default()).then_some((name, sum))
        })
        .collect()
}

/// Traces `pos` for the tuner.
pub fn trace(pos: &Chess) -> Trace {
    let mut counter = Counter {
        counts: vec![0; WEIGHT_COUNT],
    };
    terms(pos, &mut counter);
    let mut eg = 0;
    let counts: Vec<(u16, i16)> = counter
        .counts
        .iter()
        .enumerate()
        .filter(|(_, c)| **c != 0)
        .map(|(i, &c)| {
            eg += WEIGHTS[i].eg * c;
            (i as u16, c.clamp(i16::MIN.into(), i16::MAX.into()) as i16)
        })
        .collect();
    Trace {
        counts,
        phase: phase(pos),
        scale: scale::endgame_scale(pos.board(), eg),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, EnPassantMode, FromSetup};

    use crate::game::test_position as pos;

    /// The same position with colours swapped and the board mirrored top to bottom.
    fn flipped(p: &Chess) -> Chess {
        let mut setup = p.to_setup(EnPassantMode::Legal);
        setup.mirror();
        Chess::from_setup(setup, CastlingMode::Standard).unwrap()
    }

    const POSITIONS: [&str; 8] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "8/8/4k3/8/2N5/8/3PK3/8 b - - 0 1",
        "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
        "8/5k2/3b4/8/4BP2/5K2/8/8 w - - 0 1",
        "1k6/5RP1/1P6/1K6/6r1/8/8/8 w - - 0 1",
    ];

    #[test]
    fn start_position_scores_only_the_tempo() {
        let tempo = WEIGHTS[layout::TEMPO];
        assert_eq!(classical(&Chess::default()), tempo.mg);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for fen in POSITIONS {
            let p = pos(fen);
            assert_eq!(classical(&p), classical(&flipped(&p)), "{fen}");
        }
    }

    #[test]
    fn the_trace_reproduces_the_evaluation() {
        for fen in POSITIONS {
            let p = pos(fen);
            let white = trace(&p).white_score(&WEIGHTS);
            let expected = match p.turn() {
                Color::White => classical(&p),
                Color::Black => -classical(&p),
            };
            assert_eq!(white, expected, "{fen}");
        }
    }

    #[test]
    fn extra_material_is_good_for_its_owner() {
        let white_up_a_queen = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert!(classical(&white_up_a_queen) > 500);
        let black_to_move = pos("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
        assert!(classical(&black_to_move) < -500);
    }

    #[test]
    fn a_lone_minor_piece_cannot_win() {
        // A bishop or knight up with no pawns: the endgame part is scaled to nothing.
        let knight = pos("8/8/4k3/8/2N5/8/4K3/8 w - - 0 1");
        assert!(classical(&knight).abs() < 60, "{}", classical(&knight));
    }

    #[test]
    fn passed_pawns_are_worth_more_the_further_they_are() {
        let far = pos("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1");
        let near = pos("4k3/8/8/8/8/1P6/8/4K3 w - - 0 1");
        assert!(classical(&far) > classical(&near));
    }
}

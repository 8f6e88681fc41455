//! NNUE evaluation: a (768 → HIDDEN)×2 → 1 network over piece-square features, seen from each
//! side, with a squared clipped ReLU and one output layer per bucket of material; quantized to
//! integers for the engine.
//!
//! Each side has an accumulator: the hidden layer's bias plus one weight column per piece on
//! the board, indexed from that side's point of view (own pieces first, board flipped for
//! Black). The output layer of the position's bucket (by the number of pieces on the board)
//! reads the side to move's accumulator, then the other side's.

pub mod accumulator;
pub mod file;

use std::sync::{Arc, OnceLock};

use shakmaty::{Chess, Color, Piece, Square};

pub use accumulator::Accumulator;

/// Piece-square inputs: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
// `pub const HIDDEN: usize`, hidden neurons per side: the embedded network's width, or the
// `PIVOT_HIDDEN` environment variable at build time (see `build.rs`).
include!(concat!(env!("OUT_DIR"), "/hidden.rs"));
/// Output layers, chosen by the number of pieces on the board (kings and pawns included).
pub const BUCKETS: usize = 8;

/// The output bucket of a position with `pieces` pieces on the board: 2–5 pieces use the
/// first, 30–32 the last.
#[inline]
pub fn bucket(pieces: usize) -> usize {
    (pieces.saturating_sub(2) / 4).min(BUCKETS - 1)
}
/// Quantization of the hidden layer (weights and biases) and of the output weights.
pub const QA: i32 = 255;
pub const QB: i32 = 64;
/// The largest output weight a network may have: `QB` times the trainer's clip, 1.98, so that
/// the output sums stay in range (see `half`).
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
/// Centipawns per unit of the network's output, whose logistic is the expected score. Pivot's
/// own games put it near 140 (a fit of K ≈ 2.86 for a 400-based logistic), which kept the
/// network's centipawns those of the hand-crafted evaluation it replaced, on which the search's
/// margins rest.
pub const SCALE: i32 = 140;

/// The network's weights, quantized.
#[derive(Clone)]
pub struct Network {
    /// Hidden-layer weights, one column of HIDDEN per input.
    pub hidden_weights: Vec<[i16; HIDDEN]>,
    pub hidden_bias: [i16; HIDDEN],
    /// Output weights of each bucket: the side to move's half, then the other side's.
    pub output_weights: [[i16; 2 * HIDDEN]; BUCKETS],
    pub output_bias: [i32; BUCKETS],
}

/// The input index of `piece` on `square` from `perspective`'s side.
#[inline]
pub fn feature(perspective: Color, piece: Piece, square: Square) -> usize {
    let (own, sq) = match perspective {
        Color::White => (piece.color == Color::White, square as usize),
        Color::Black => (piece.color == Color::Black, square as usize ^ 56),
    };
    usize::from(!own) * 384 + (piece.role as usize - 1) * 64 + sq
}

/// The network built into the binary: `src/nnue/pivot.nnue`, or the file named by the
/// `EVALFILE` environment variable at build time (see `build.rs`).
static EMBEDDED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/embedded.nnue"));

/// The embedded network, decoded once.
fn shared() -> &'static Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| {
        Arc::new(file::decode(EMBEDDED).expect("the embedded network is well formed"))
    })
}

/// The embedded network.
pub fn network() -> &'static Network {
    shared()
}

/// The embedded network, to share with searches (an `EvalFile` replaces it per engine).
pub fn embedded() -> Arc<Network> {
    Arc::clone(shared())
}

impl Network {
    /// The evaluation in centipawns for the side to move, from both sides' accumulators and
    /// the output bucket.
    #[inline]
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN], bucket: usize) -> i32 {
        let (ours, theirs) = self.output_weights[bucket].split_at(HIDDEN);
        let sum = half(us, ours) + half(them, theirs);
        let raw = sum / i64::from(QA) + i64::from(self.output_bias[bucket]);
        (raw * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `pos` for the side to move, with both accumulators built from scratch.
    pub fn eval_from_scratch(&self, pos: &Chess) -> i32 {
        let acc = Accumulator::from_position(self, pos);
        acc.network_output(self, pos)
    }

    /// The output of `pos` for the side to move under each output layer in turn (the one its
    /// piece count picks is [`bucket`]), for the `eval` command.
    pub fn outputs_by_bucket(&self, pos: &Chess) -> [i32; BUCKETS] {
        let acc = Accumulator::from_position(self, pos);
        std::array::from_fn(|b| acc.output_of_bucket(self, pos, b))
    }
}

/// One side's contribution to the output: Σ clamp(a, 0, QA)² · w. With |w| ≤
/// `MAX_OUTPUT_WEIGHT`, clamp(a) · w fits in an i16 and a run of `RUN` terms in an i32, which
/// lets the compiler multiply and add pairs of lanes at once.
#[inline]
fn half(acc: &[i16; HIDDEN], weights: &[i16]) -> i64 {
    const RUN: usize = 64;
    const _: () = assert!(HIDDEN.is_multiple_of(RUN));
    let mut sum = 0i64;
    for (a, w) in acc.chunks_exact(RUN).zip(weights.chunks_exact(RUN)) {
        let mut run = 0i32;
        for (&a, &w) in a.iter().zip(w) {
            let c = a.clamp(0, QA as i16);
            run += i32::from(c.wrapping_mul(w)) * i32::from(c);
        }
        sum += i64::from(run);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Role};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn features_mirror_between_the_sides() {
        let white_pawn_e2 = Piece {
            color: Color::White,
            role: Role::Pawn,
        };
        let black_pawn_e7 = Piece {
            color: Color::Black,
            role: Role::Pawn,
        };
        assert_eq!(
            feature(Color::White, white_pawn_e2, Square::E2),
            feature(Color::Black, black_pawn_e7, Square::E7)
        );
        assert_eq!(
            feature(Color::White, black_pawn_e7, Square::E7),
            feature(Color::Black, white_pawn_e2, Square::E2)
        );
        assert!(feature(Color::Black, white_pawn_e2, Square::E2) >= 384);
    }

    #[test]
    fn buckets_split_the_piece_counts_evenly() {
        assert_eq!(bucket(2), 0);
        assert_eq!(bucket(5), 0);
        assert_eq!(bucket(6), 1);
        assert_eq!(bucket(29), 6);
        assert_eq!(bucket(30), BUCKETS - 1);
        assert_eq!(bucket(32), BUCKETS - 1);
    }

    /// The output layer of the position's bucket, and only that one, decides the evaluation.
    #[test]
    fn the_evaluation_reads_its_own_bucket() {
        let start = Chess::default();
        let ending = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let mut net = network().clone();
        let (base_start, base_ending) = (
            net.eval_from_scratch(&start),
            net.eval_from_scratch(&ending),
        );
        net.output_bias[bucket(32)] += QA * QB;
        assert_eq!(net.eval_from_scratch(&start), base_start + SCALE);
        assert_eq!(net.eval_from_scratch(&ending), base_ending);
    }

    /// A position and its colour-flipped mirror get the same evaluation for the side to move.
    #[test]
    fn mirrored_positions_evaluate_alike() {
        let a = pos("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let b = pos("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(
            network().eval_from_scratch(&a),
            network().eval_from_scratch(&b)
        );
    }
}

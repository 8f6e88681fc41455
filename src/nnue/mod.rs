//! NNUE evaluation: a (768 → HIDDEN)×2 → 1 network over piece-square features, seen from each
//! side, with a squared clipped ReLU and one output layer per bucket of material; quantized to
//! integers for the engine. A network may add a second layer beside each output layer (a
//! "head" of a few neurons with a clipped ReLU, whose weighted sum joins the output).
//!
//! Each side has an accumulator: the hidden layer's bias plus one weight column per piece on
//! the board, indexed from that side's point of view (own pieces first, board flipped for
//! Black). A network may have king buckets: one set of 768 input columns per bucket, the
//! bucket chosen by where that side's own king stands (the file's king map), so that a piece
//! is weighed by where it stands relative to the king. The output layer of the position's
//! bucket of material (by the number of pieces on the board) reads the side to move's
//! accumulator, then the other side's.

pub mod accumulator;
pub mod file;

use std::sync::{Arc, OnceLock};

use shakmaty::{Chess, Color, Piece, Square};

pub use accumulator::{Accumulator, RefreshTable};

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
/// Quantization of the second layer's weights (input and output): finer than `QB`, as its
/// neurons start small, and still far from overflowing its i32 sums.
pub const QH: i32 = 512;
/// The largest second-layer weight a network may have: `QH` times the trainer's clip, 1.98.
pub const MAX_HEAD_WEIGHT: i16 = 1014;
/// Centipawns per unit of the network's output, whose logistic is the expected score. Pivot's
/// own games put it near 140 (a fit of K ≈ 2.86 for a 400-based logistic), which kept the
/// network's centipawns those of the hand-crafted evaluation it replaced, on which the search's
/// margins rest.
pub const SCALE: i32 = 140;

/// The most king buckets a network may have.
pub const MAX_KING_BUCKETS: usize = 32;

/// The king bucket of each square of a side's own king, seen from that side (its own back
/// rank is rank 1, as in [`feature`]).
pub type KingMap = [u8; 64];

/// The most neurons a network's second layer (its head) may have per output bucket.
pub const MAX_HEAD: usize = 64;

/// The king map of a network without king buckets.
pub const NO_KING_BUCKETS: KingMap = [0; 64];

/// The network's weights, quantized.
#[derive(Clone)]
pub struct Network {
    /// Hidden-layer weights, one column of HIDDEN per input: the `INPUTS` inputs of king
    /// bucket 0, then those of bucket 1, and so on.
    pub hidden_weights: Vec<[i16; HIDDEN]>,
    pub hidden_bias: [i16; HIDDEN],
    /// Output weights of each bucket: the side to move's half, then the other side's.
    pub output_weights: [[i16; 2 * HIDDEN]; BUCKETS],
    pub output_bias: [i32; BUCKETS],
    /// Neurons of the second layer per output bucket (0: none). Neuron k of bucket b sums
    /// the same squared activations as the output layer with its own weights,
    /// `head_weights[(b · head + k) · 2 · HIDDEN..]` (the side to move's half first, scaled by
    /// `QH`) plus `head_bias[b · head + k]` (scaled by `QA · QB`); clipped to 0..1, it adds
    /// `head_output[b · head + k]` (scaled by `QH`) times itself to the output.
    pub head: usize,
    pub head_weights: Vec<i16>,
    pub head_bias: Vec<i32>,
    pub head_output: Vec<i16>,
    /// The number of king buckets (1: none) and the bucket of each square of the own king.
    pub king_buckets: usize,
    pub king_map: KingMap,
}

/// The input index of `piece` on `square` from `perspective`'s side.
#[inline]
pub fn feature(perspective: Color, piece: Piece, square: Square) -> usize {
    let own = piece.color == perspective;
    usize::from(!own) * 384 + (piece.role as usize - 1) * 64 + relative(perspective, square)
}

/// Whether `map` is a king map of `king_buckets` buckets: 1 to [`MAX_KING_BUCKETS`], each
/// used by some square, none beyond.
pub fn check_king_map(king_buckets: usize, map: &KingMap) -> Result<(), String> {
    if king_buckets == 0 || king_buckets > MAX_KING_BUCKETS {
        return Err(format!(
            "{king_buckets} king buckets; 1 to {MAX_KING_BUCKETS} are possible"
        ));
    }
    if let Some(b) = map.iter().find(|&&b| usize::from(b) >= king_buckets) {
        return Err(format!(
            "the king map names bucket {b} of {king_buckets} king buckets"
        ));
    }
    if let Some(b) = (0..king_buckets).find(|&b| !map.iter().any(|&x| usize::from(x) == b)) {
        return Err(format!("king bucket {b} has no square in the king map"));
    }
    Ok(())
}

/// The first input column of the king bucket that `map` gives `perspective`'s king on `king`.
#[inline]
pub fn king_input_offset(map: &KingMap, perspective: Color, king: Square) -> usize {
    usize::from(map[relative(perspective, king)]) * INPUTS
}

/// A square seen from `perspective`'s side: itself for White, flipped rank for Black.
#[inline]
pub fn relative(perspective: Color, square: Square) -> usize {
    match perspective {
        Color::White => square as usize,
        Color::Black => square as usize ^ 56,
    }
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
    /// The first input column of the king bucket of `perspective`'s king on `king`.
    #[inline]
    pub fn king_offset(&self, perspective: Color, king: Square) -> usize {
        king_input_offset(&self.king_map, perspective, king)
    }

    /// The first input column of `perspective`'s king bucket on `board` (bucket 0 without a
    /// king).
    #[inline]
    pub fn king_offset_on(&self, perspective: Color, board: &shakmaty::Board) -> usize {
        match board.king_of(perspective) {
            Some(king) if self.king_buckets > 1 => self.king_offset(perspective, king),
            _ => 0,
        }
    }

    /// This network with king buckets after `map` (buckets 0 to `king_buckets` − 1), every
    /// bucket starting from this network's input columns (which must have no king buckets):
    /// it evaluates every position exactly as this one does, and training can then tell the
    /// buckets apart.
    pub fn with_king_buckets(&self, king_buckets: usize, map: KingMap) -> Result<Network, String> {
        if self.king_buckets != 1 {
            return Err(format!(
                "the network has {} king buckets already",
                self.king_buckets
            ));
        }
        check_king_map(king_buckets, &map)?;
        let mut net = self.clone();
        net.hidden_weights = self.hidden_weights.repeat(king_buckets);
        net.king_buckets = king_buckets;
        net.king_map = map;
        Ok(net)
    }

    /// The network that reads king bucket `b`'s input columns wherever the king stands (this
    /// network itself when it has no king buckets): a network without king buckets to grow
    /// others from.
    pub fn king_bucket(&self, b: usize) -> Network {
        let mut net = self.clone();
        net.hidden_weights = self.hidden_weights[b * INPUTS..][..INPUTS].to_vec();
        net.king_buckets = 1;
        net.king_map = NO_KING_BUCKETS;
        net
    }

    /// The network's shape in words, e.g. "128 hidden neurons, 8 output buckets, 4 king
    /// buckets" (no king buckets: the last part is left out).
    pub fn shape(&self) -> String {
        let kings = if self.king_buckets > 1 {
            format!(", {} king buckets", self.king_buckets)
        } else {
            String::new()
        };
        let head = if self.head > 0 {
            format!(
                ", a second layer of {} neurons per output bucket",
                self.head
            )
        } else {
            String::new()
        };
        format!("{HIDDEN} hidden neurons, {BUCKETS} output buckets{kings}{head}")
    }

    /// The evaluation in centipawns for the side to move, from both sides' accumulators and
    /// the output bucket.
    #[inline]
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN], bucket: usize) -> i32 {
        let (ours, theirs) = self.output_weights[bucket].split_at(HIDDEN);
        let sum = half(us, ours) + half(them, theirs);
        let mut raw = sum / i64::from(QA) + i64::from(self.output_bias[bucket]);
        if self.head > 0 {
            raw += self.head_sum(us, them, bucket);
        }
        (raw * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The second layer's part of bucket `bucket`'s output, in units of 1 / (`QA` · `QB`).
    /// Its neurons read the squared activations at a coarser step, clamp(a, 0, QA)² / 256
    /// (0 to 254), so that each product with a weight is one 16-bit multiply-add and a
    /// neuron's whole sum fits in an i32.
    fn head_sum(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN], bucket: usize) -> i64 {
        let mut squared = [0i16; 2 * HIDDEN];
        let (ours, theirs) = squared.split_at_mut(HIDDEN);
        square_coarsely(us, ours);
        square_coarsely(them, theirs);
        let first = bucket * self.head;
        let rows = &self.head_weights[first * 2 * HIDDEN..][..self.head * 2 * HIDDEN];
        let mut dots = [0i32; MAX_HEAD];
        head_dots(&squared, rows, &mut dots[..self.head]);
        let one = i64::from(QA * QB);
        let mut sum = 0i64;
        for (k, &dot) in dots[..self.head].iter().enumerate() {
            // In units of 1 / (QA · QB): Σ clamp² · w · QB / (QA · QH), with clamp² as
            // 256 times the coarse square.
            let pre = i64::from(dot) * i64::from(256 * QB) / i64::from(QA * QH)
                + i64::from(self.head_bias[first + k]);
            sum += pre.clamp(0, one) * i64::from(self.head_output[first + k]);
        }
        sum / i64::from(QH)
    }

    /// This network with a second layer of `head` neurons per output bucket whose output
    /// weights are all zero, so that it evaluates every position as before: `weights` gives
    /// each neuron's input weights (`BUCKETS · head` rows of 2 · HIDDEN) and `bias` its bias.
    /// Panics on lengths that do not match `head` (a caller's error: files go through
    /// [`file::decode`], which checks them).
    pub fn with_head(&self, head: usize, weights: Vec<i16>, bias: Vec<i32>) -> Network {
        assert!(
            head <= MAX_HEAD,
            "a second layer of at most {MAX_HEAD} neurons"
        );
        assert_eq!(
            weights.len(),
            BUCKETS * head * 2 * HIDDEN,
            "second-layer weights"
        );
        assert_eq!(bias.len(), BUCKETS * head, "second-layer biases");
        let mut net = self.clone();
        net.head = head;
        net.head_weights = weights;
        net.head_bias = bias;
        net.head_output = vec![0; BUCKETS * head];
        net
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

/// Each second-layer neuron's dot product of its row of `rows` (2 · HIDDEN weights each) with
/// the coarse squares, into `dots`: four neurons at a time with AVX2 where the build has it
/// (all products and sums are exact in i32, so both ways give the same numbers).
#[inline]
fn head_dots(squared: &[i16; 2 * HIDDEN], rows: &[i16], dots: &mut [i32]) {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    let done = {
        for (four, out) in rows
            .chunks_exact(4 * 2 * HIDDEN)
            .zip(dots.chunks_exact_mut(4))
        {
            avx2::four_dots(squared, four, out);
        }
        dots.len() / 4 * 4
    };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    let done = 0;
    for (row, dot) in rows.chunks_exact(2 * HIDDEN).zip(dots).skip(done) {
        *dot = squared
            .iter()
            .zip(row)
            .map(|(&s, &w)| i32::from(s) * i32::from(w))
            .sum();
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2 {
    use super::HIDDEN;
    use std::arch::x86_64::{
        __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32, _mm256_add_epi32,
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_madd_epi16,
        _mm256_setzero_si256,
    };

    const LANES: usize = 16;
    const _: () = assert!((2 * HIDDEN).is_multiple_of(LANES));

    /// The dot products of four rows of 2 · HIDDEN weights (`rows`, one after the other) with
    /// `squared`, into `out[0..4]`.
    #[inline]
    pub fn four_dots(squared: &[i16; 2 * HIDDEN], rows: &[i16], out: &mut [i32]) {
        assert!(rows.len() >= 4 * 2 * HIDDEN && out.len() >= 4);
        let mut sums = [0i32; 4];
        // SAFETY: AVX2 is enabled for this build (the cfg above), and every load reads 16
        // i16 within `squared` or within the first 4 · 2 · HIDDEN entries of `rows`, whose
        // lengths the assert checked; unaligned loads have no alignment requirement.
        unsafe {
            let (mut a0, mut a1, mut a2, mut a3) = (
                _mm256_setzero_si256(),
                _mm256_setzero_si256(),
                _mm256_setzero_si256(),
                _mm256_setzero_si256(),
            );
            let w = rows.as_ptr();
            let row = |k: usize, c: usize| _mm256_loadu_si256(w.add(k * 2 * HIDDEN + c).cast());
            for c in (0..2 * HIDDEN).step_by(LANES) {
                let s = _mm256_loadu_si256(squared.as_ptr().add(c).cast::<__m256i>());
                a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(s, row(0, c)));
                a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(s, row(1, c)));
                a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(s, row(2, c)));
                a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(s, row(3, c)));
            }
            for (sum, a) in sums.iter_mut().zip([a0, a1, a2, a3]) {
                let half = _mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
                let quarter = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0b01_00_11_10));
                let last = _mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, 0b10_11_00_01));
                *sum = _mm_cvtsi128_si32(last);
            }
        }
        out[..4].copy_from_slice(&sums);
    }
}

/// clamp(a, 0, QA)² / 256 of each accumulator entry, into `out`.
#[inline]
fn square_coarsely(acc: &[i16; HIDDEN], out: &mut [i16]) {
    for (s, &a) in out.iter_mut().zip(acc) {
        // 255² fits in a u16.
        let c = a.clamp(0, QA as i16) as u16;
        *s = ((c * c) >> 8) as i16;
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

    /// A second layer with zero output weights changes nothing; a neuron's clipped sum, times
    /// its output weight, joins the output of its own bucket only.
    #[test]
    fn the_second_layer_adds_its_clipped_neurons() {
        let net = network();
        let start = Chess::default();
        let ending = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let (base_start, base_ending) = (
            net.eval_from_scratch(&start),
            net.eval_from_scratch(&ending),
        );
        let head = 2;
        let mut grown = net.with_head(
            head,
            vec![0; BUCKETS * head * 2 * HIDDEN],
            vec![QA * QB; BUCKETS * head],
        );
        assert_eq!(grown.eval_from_scratch(&start), base_start);
        assert_eq!(grown.eval_from_scratch(&ending), base_ending);
        let b = bucket(32);
        // Neuron 1 of the opening bucket at half its range, with output weight 1.
        grown.head_bias[b * head + 1] = QA * QB / 2;
        grown.head_output[b * head + 1] = QH as i16;
        // (Centipawns are rounded toward zero, so a sum can land one off.)
        let near = |a: i32, b: i32| assert!((a - b).abs() <= 1, "{a} vs {b}");
        near(grown.eval_from_scratch(&start), base_start + SCALE / 2);
        assert_eq!(grown.eval_from_scratch(&ending), base_ending);
        // Large input weights push neuron 0 past its clip: it adds at most its output weight.
        let row = (b * head) * 2 * HIDDEN;
        grown.head_weights[row..row + 2 * HIDDEN].fill(MAX_HEAD_WEIGHT);
        grown.head_output[b * head] = -(QH as i16);
        near(
            grown.eval_from_scratch(&start),
            base_start + SCALE / 2 - SCALE,
        );
        assert!(grown.shape().contains("second layer of 2 neurons"));
    }

    /// The second layer's dot products, four neurons at a time where the build can, equal
    /// the plain sums for every neuron, the last ones of an odd count too.
    #[test]
    fn second_layer_dot_products_are_exact() {
        let squared: [i16; 2 * HIDDEN] = std::array::from_fn(|j| ((j * 37) % 255) as i16);
        let head = 7;
        let rows: Vec<i16> = (0..head * 2 * HIDDEN)
            .map(|i| ((i * 53) % 255) as i16 - 127)
            .collect();
        let mut dots = [0i32; 7];
        head_dots(&squared, &rows, &mut dots);
        for (k, row) in rows.chunks_exact(2 * HIDDEN).enumerate() {
            let plain: i32 = squared
                .iter()
                .zip(row)
                .map(|(&s, &w)| i32::from(s) * i32::from(w))
                .sum();
            assert_eq!(dots[k], plain, "neuron {k}");
        }
    }

    /// A network grown into king buckets evaluates as before; once a bucket's columns
    /// change, only positions whose king stands in it evaluate differently, for that side.
    #[test]
    fn king_buckets_start_equal_and_follow_the_king() {
        let net = &network().king_bucket(0);
        // Bucket 1: the own king on files e–h.
        let map: KingMap = std::array::from_fn(|sq| u8::from(sq % 8 >= 4));
        let mut grown = net.with_king_buckets(2, map).unwrap();
        let kingside = pos("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 6 6");
        let queenside = pos("2kr3r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/2KR3R w - - 0 9");
        for p in [&kingside, &queenside, &Chess::default()] {
            assert_eq!(grown.eval_from_scratch(p), net.eval_from_scratch(p));
        }
        // Every neuron's weights move: a single neuron may sit clipped at zero (or at its
        // ceiling) in the test position whatever its weight, as neuron 0 does with some networks.
        for column in &mut grown.hidden_weights[INPUTS..] {
            for w in column.iter_mut() {
                *w = w.wrapping_add(50);
            }
        }
        assert_ne!(
            grown.eval_from_scratch(&kingside),
            net.eval_from_scratch(&kingside)
        );
        assert_eq!(
            grown.eval_from_scratch(&queenside),
            net.eval_from_scratch(&queenside)
        );
        assert!(
            net.with_king_buckets(3, map)
                .err()
                .unwrap()
                .contains("bucket 2 has no square")
        );
        assert!(
            net.with_king_buckets(1, map)
                .err()
                .unwrap()
                .contains("names bucket 1")
        );
        assert!(
            grown
                .with_king_buckets(2, map)
                .err()
                .unwrap()
                .contains("already")
        );
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

//! Between the engine's integer network and the floating-point one: quantizing for the
//! engine, and reading a network back (possibly narrower) to train on from there.

use pivot::nnue::file::Weights;
use pivot::nnue::{BUCKETS, HIDDEN, INPUTS, Network, QA, QB, QH};

use super::float_net::FloatNet;

impl FloatNet {
    /// The floating-point network that `quantize` turns back into `w`, to train on from there.
    /// A narrower network is widened: its neurons come first, unchanged, and the new ones get
    /// small random input weights from `seed` and zero output weights, so the widened network
    /// evaluates every position as the narrow one did until training puts the new neurons to
    /// use. A network with one output layer starts every bucket from it. A wider network than
    /// this build's, or one of another bucket count, is refused.
    pub fn from_weights(w: &Weights, seed: u64) -> Result<FloatNet, String> {
        let h = w.hidden;
        if h > HIDDEN {
            return Err(format!(
                "a network of {h} hidden neurons cannot start one of {HIDDEN}"
            ));
        }
        if !w.buckets_fit() {
            return Err(format!(
                "a network of {} output buckets cannot start one of {BUCKETS}",
                w.buckets
            ));
        }
        let mut net = FloatNet::new(seed);
        if w.king_buckets > 1 {
            net = net.with_king_buckets(w.king_buckets, w.king_map, false)?;
        }
        for (row, old) in net
            .w1
            .chunks_exact_mut(HIDDEN)
            .zip(w.hidden_weights.chunks_exact(h))
        {
            for (x, &q) in row.iter_mut().zip(old) {
                *x = dequantize(q, QA);
            }
        }
        for (b, &q) in net.b1.iter_mut().zip(&w.hidden_bias) {
            *b = dequantize(q, QA);
        }
        net.w2.iter_mut().for_each(|x| *x = 0.0);
        for (b, layer) in net.w2.chunks_exact_mut(2 * HIDDEN).enumerate() {
            let (old_layer, old_bias) = w.output_layer(b);
            dequantize_halves(layer, old_layer, QB);
            net.b2[b] = old_bias as f32 / (QA * QB) as f32;
        }
        if w.head > 0 {
            net = net.with_head(w.head, seed)?;
            net.w3.iter_mut().for_each(|x| *x = 0.0);
            for (b, rows) in net.w3.chunks_exact_mut(w.head * 2 * HIDDEN).enumerate() {
                let from = w.source_bucket(b);
                let old_rows = w.head_weights[from * w.head * 2 * h..].chunks_exact(2 * h);
                for (row, old) in rows.chunks_exact_mut(2 * HIDDEN).zip(old_rows) {
                    dequantize_halves(row, old, QH);
                }
                for k in 0..w.head {
                    net.w4[b * w.head + k] = dequantize(w.head_output[from * w.head + k], QH);
                    net.b3[b * w.head + k] =
                        w.head_bias[from * w.head + k] as f32 / (QA * QB) as f32;
                }
            }
        }
        Ok(net)
    }
    /// The network in the engine's integers.
    pub fn quantize(&self) -> Network {
        let net = self.effective();
        net.quantize_effective()
    }

    fn quantize_effective(&self) -> Network {
        let q = |x: f32, s: i32| (x * s as f32).round() as i16;
        let mut hidden_weights = vec![[0i16; HIDDEN]; INPUTS * self.king_buckets];
        for (i, column) in hidden_weights.iter_mut().enumerate() {
            for (j, w) in column.iter_mut().enumerate() {
                *w = q(self.w1[i * HIDDEN + j], QA);
            }
        }
        let mut hidden_bias = [0i16; HIDDEN];
        for (b, &x) in hidden_bias.iter_mut().zip(&self.b1) {
            *b = q(x, QA);
        }
        let mut output_weights = [[0i16; 2 * HIDDEN]; BUCKETS];
        for (w, &x) in output_weights.iter_mut().flatten().zip(&self.w2) {
            *w = q(x, QB);
        }
        let mut output_bias = [0i32; BUCKETS];
        for (b, &x) in output_bias.iter_mut().zip(&self.b2) {
            *b = (x * (QA * QB) as f32).round() as i32;
        }
        Network {
            hidden_weights,
            hidden_bias,
            output_weights,
            output_bias,
            head: self.head,
            head_weights: self.w3.iter().map(|&x| q(x, QH)).collect(),
            head_bias: self
                .b3
                .iter()
                .map(|&x| (x * (QA * QB) as f32).round() as i32)
                .collect(),
            head_output: self.w4.iter().map(|&x| q(x, QH)).collect(),
            king_buckets: self.king_buckets,
            king_map: self.king_map,
        }
    }
}

/// Fills `row` (2 · HIDDEN weights: the side to move's half, then the other side's) from the
/// quantized `old` row of a network possibly narrower (two halves of `old.len() / 2`), each
/// weight divided by `scale`; the rest of each half keeps its value.
fn dequantize_halves(row: &mut [f32], old: &[i16], scale: i32) {
    let (us, them) = row.split_at_mut(HIDDEN);
    let (old_us, old_them) = old.split_at(old.len() / 2);
    for (x, &q) in us
        .iter_mut()
        .zip(old_us)
        .chain(them.iter_mut().zip(old_them))
    {
        *x = dequantize(q, scale);
    }
}

/// A quantized weight as a float: `q / scale`.
fn dequantize(q: i16, scale: i32) -> f32 {
    f32::from(q) / scale as f32
}

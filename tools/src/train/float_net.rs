//! The network in floating point, as training sees it: its weights, the forward pass and the
//! gradient of the squared error.

use pivot::nnue::{BUCKETS, HIDDEN, INPUTS, KingMap, NO_KING_BUCKETS, bucket};

use super::positions::{Data, Entry};
use super::sigmoid;

/// The network in floating point: output = w2[b] · s + b2[b] + Σₖ w4[b,k] · crelu(w3[b,k] · s +
/// b3[b,k]) for the position's output bucket b, with s = [screlu(acc_us), screlu(acc_them)],
/// in units of `SCALE` centipawns (the sum over k, the second layer, only if it has one).
#[derive(Clone)]
pub struct FloatNet {
    /// `INPUTS` rows of `HIDDEN` for each king bucket.
    pub(super) w1: Vec<f32>,
    /// Empty, or (a factored network) `INPUTS` rows of `HIDDEN` that every king bucket shares:
    /// a bucket's input weights are then its rows in `w1` plus these.
    pub(super) factor: Vec<f32>,
    pub(super) b1: Vec<f32>,
    /// `BUCKETS` output layers of `2 * HIDDEN` weights each.
    pub(super) w2: Vec<f32>,
    pub(super) b2: Vec<f32>,
    /// Second-layer neurons per output bucket (0: none); per bucket and neuron, `2 * HIDDEN`
    /// input weights in `w3`, a bias in `b3` and an output weight in `w4`.
    pub(super) head: usize,
    pub(super) w3: Vec<f32>,
    pub(super) b3: Vec<f32>,
    pub(super) w4: Vec<f32>,
    pub(super) king_buckets: usize,
    pub(super) king_map: KingMap,
}

/// One position's values on the way through the network, kept for the backward pass.
pub(super) struct Activations {
    pub(super) us: [f32; HIDDEN],
    pub(super) them: [f32; HIDDEN],
    /// screlu of `us`, then of `them`.
    pub(super) squared: [f32; 2 * HIDDEN],
    /// The second layer's sums before the clip.
    pub(super) head: Vec<f32>,
}

impl Activations {
    pub(super) fn new(net: &FloatNet) -> Activations {
        Activations {
            us: [0.0; HIDDEN],
            them: [0.0; HIDDEN],
            squared: [0.0; 2 * HIDDEN],
            head: vec![0.0; net.head],
        }
    }
}

/// Weights stay within this, so that the quantized ones fit in i16.
pub(super) const CLIP: f32 = 1.98;

impl FloatNet {
    /// Small random weights from `seed`.
    pub fn new(seed: u64) -> FloatNet {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut uniform = |scale: f32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            ((state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
        };
        FloatNet {
            w1: (0..INPUTS * HIDDEN).map(|_| uniform(0.1)).collect(),
            factor: Vec::new(),
            b1: vec![0.0; HIDDEN],
            w2: (0..2 * HIDDEN)
                .map(|_| uniform(0.1))
                .collect::<Vec<_>>()
                .repeat(BUCKETS),
            b2: vec![0.0; BUCKETS],
            head: 0,
            w3: Vec::new(),
            b3: Vec::new(),
            w4: Vec::new(),
            king_buckets: 1,
            king_map: NO_KING_BUCKETS,
        }
    }

    /// Second-layer neurons per output bucket (0: none).
    pub fn head(&self) -> usize {
        self.head
    }

    /// The king map positions must be read with for this network ([`Data::new`]).
    pub fn king_map(&self) -> KingMap {
        self.king_map
    }

    pub fn king_buckets(&self) -> usize {
        self.king_buckets
    }
    /// A network of this one's shape with every weight zero (a gradient).
    pub(super) fn zeros_like(&self) -> FloatNet {
        FloatNet {
            w1: vec![0.0; self.w1.len()],
            factor: vec![0.0; self.factor.len()],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; BUCKETS * 2 * HIDDEN],
            b2: vec![0.0; BUCKETS],
            head: self.head,
            w3: vec![0.0; self.w3.len()],
            b3: vec![0.0; self.b3.len()],
            w4: vec![0.0; self.w4.len()],
            king_buckets: self.king_buckets,
            king_map: self.king_map,
        }
    }

    /// The network this one computes, with each bucket's shared and own input weights added
    /// up (this one itself when it is not factored): what forward, backward and quantize read.
    pub(super) fn effective(&self) -> std::borrow::Cow<'_, FloatNet> {
        if self.factor.is_empty() {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut net = self.clone();
        for bucket in net.w1.chunks_exact_mut(self.factor.len()) {
            for (w, s) in bucket.iter_mut().zip(&self.factor) {
                *w += s;
            }
        }
        net.factor = Vec::new();
        std::borrow::Cow::Owned(net)
    }

    /// Completes a gradient of a factored network, whose king buckets `backward` filled: the
    /// shared weights' gradient is the sum of the buckets'.
    pub(super) fn fold_shared_gradient(&mut self) {
        if self.factor.is_empty() {
            return;
        }
        self.factor.iter_mut().for_each(|g| *g = 0.0);
        for bucket in self.w1.chunks_exact(self.factor.len()) {
            for (g, b) in self.factor.iter_mut().zip(bucket) {
                *g += b;
            }
        }
    }

    pub(super) fn accumulate(
        &self,
        features: impl Iterator<Item = usize>,
        acc: &mut [f32; HIDDEN],
    ) {
        acc.copy_from_slice(&self.b1);
        for f in features {
            let row = &self.w1[f * HIDDEN..(f + 1) * HIDDEN];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// Where the output layer of bucket `b` lies in `w2`.
    pub(super) fn layer_range(b: usize) -> std::ops::Range<usize> {
        b * 2 * HIDDEN..(b + 1) * 2 * HIDDEN
    }

    /// The output layer of bucket `b`: its weights (side to move's half first) and bias.
    pub(super) fn layer(&self, b: usize) -> (&[f32], f32) {
        (&self.w2[Self::layer_range(b)], self.b2[b])
    }

    /// The output for one position's features (one per piece, which also picks the bucket),
    /// leaving in `act` what the backward pass needs.
    pub(super) fn forward(&self, feats: &[(u16, u16)], act: &mut Activations) -> f32 {
        self.accumulate(feats.iter().map(|f| usize::from(f.0)), &mut act.us);
        self.accumulate(feats.iter().map(|f| usize::from(f.1)), &mut act.them);
        for (s, a) in act.squared.iter_mut().zip(act.us.iter().chain(&act.them)) {
            *s = screlu(*a);
        }
        let b = bucket(feats.len());
        let (w2, b2) = self.layer(b);
        let mut out = b2 + dot(w2, &act.squared);
        if self.head > 0 {
            let rows = self.w3[b * self.head * 2 * HIDDEN..].chunks_exact(2 * HIDDEN);
            for (k, (h, row)) in act.head.iter_mut().zip(rows).enumerate() {
                let i = b * self.head + k;
                *h = dot(row, &act.squared) + self.b3[i];
                out += self.w4[i] * h.clamp(0.0, 1.0);
            }
        }
        out
    }

    /// Adds the gradient of the squared error on `entries` to `grad`; returns the summed error.
    pub(super) fn backward(&self, data: &Data, entries: &[Entry], grad: &mut FloatNet) -> f64 {
        let mut act = Activations::new(self);
        let mut loss = 0f64;
        let mut d_squared = [0f32; 2 * HIDDEN];
        for e in entries {
            let feats = data.features_of(e);
            let out = self.forward(feats, &mut act);
            let p = sigmoid(out);
            let diff = p - e.target;
            loss += f64::from(diff * diff);
            let d = 2.0 * diff * p * (1.0 - p);
            let b = bucket(feats.len());
            grad.b2[b] += d;
            let w2 = self.layer(b).0;
            let g2 = &mut grad.w2[Self::layer_range(b)];
            for j in 0..2 * HIDDEN {
                g2[j] += d * act.squared[j];
                d_squared[j] = d * w2[j];
            }
            for (k, &h) in act.head.iter().enumerate() {
                let i = b * self.head + k;
                grad.w4[i] += d * h.clamp(0.0, 1.0);
                if !(h > 0.0 && h < 1.0) || self.w4[i] == 0.0 {
                    continue;
                }
                let dh = d * self.w4[i];
                grad.b3[i] += dh;
                let rows = i * 2 * HIDDEN..(i + 1) * 2 * HIDDEN;
                let (g3, w3) = (&mut grad.w3[rows.clone()], &self.w3[rows]);
                for j in 0..2 * HIDDEN {
                    g3[j] += dh * act.squared[j];
                    d_squared[j] += dh * w3[j];
                }
            }
            let mut d_us = [0f32; HIDDEN];
            let mut d_them = [0f32; HIDDEN];
            for j in 0..HIDDEN {
                d_us[j] = d_squared[j] * screlu_slope(act.us[j]);
                d_them[j] = d_squared[HIDDEN + j] * screlu_slope(act.them[j]);
                grad.b1[j] += d_us[j] + d_them[j];
            }
            for &(fu, ft) in feats {
                let row = &mut grad.w1[usize::from(fu) * HIDDEN..(usize::from(fu) + 1) * HIDDEN];
                for (g, dj) in row.iter_mut().zip(&d_us) {
                    *g += dj;
                }
                let row = &mut grad.w1[usize::from(ft) * HIDDEN..(usize::from(ft) + 1) * HIDDEN];
                for (g, dj) in row.iter_mut().zip(&d_them) {
                    *g += dj;
                }
            }
        }
        loss
    }

    /// The mean squared error on `entries`.
    pub(super) fn error(&self, data: &Data, entries: &[Entry]) -> f64 {
        let mut act = Activations::new(self);
        let sum: f64 = entries
            .iter()
            .map(|e| {
                let feats = data.features_of(e);
                let diff = sigmoid(self.forward(feats, &mut act)) - e.target;
                f64::from(diff * diff)
            })
            .sum();
        sum / entries.len().max(1) as f64
    }

    pub(super) fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(self.factor.iter_mut())
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(self.b2.iter_mut())
            .chain(self.w3.iter_mut())
            .chain(self.b3.iter_mut())
            .chain(self.w4.iter_mut())
    }

    /// How many of the last parameters of `params` are the second layer's.
    pub(super) fn head_params(&self) -> usize {
        self.w3.len() + self.b3.len() + self.w4.len()
    }

    pub(super) fn params(&self) -> impl Iterator<Item = &f32> {
        self.w1
            .iter()
            .chain(self.factor.iter())
            .chain(self.b1.iter())
            .chain(self.w2.iter())
            .chain(self.b2.iter())
            .chain(self.w3.iter())
            .chain(self.b3.iter())
            .chain(self.w4.iter())
    }
}

#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[inline]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

#[inline]
fn screlu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 }
}

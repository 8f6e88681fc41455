//! `train`: fits a network to `datagen` positions by minibatch gradient descent (Adam) on the
//! squared error between the logistic of its output and a blend of the game's result and the
//! search's score, then quantizes it for the engine.

use shakmaty::{Color, Position};

use pivot::game::Game;
use pivot::nnue::file::Weights;
use pivot::nnue::{
    BUCKETS, HIDDEN, INPUTS, KingMap, NO_KING_BUCKETS, Network, QA, QB, QH, SCALE, bucket,
    check_king_map, feature, king_input_offset,
};

use crate::data;

/// One position: where its features start in `Data::features`, how many, and its target (the
/// expected score for the side to move).
#[derive(Clone, Copy)]
struct Entry {
    start: u32,
    len: u8,
    target: f32,
}

/// Training positions, each as its list of (side to move's, other side's) input indices,
/// king bucket included (after the king map the data is made for).
pub struct Data {
    features: Vec<(u16, u16)>,
    entries: Vec<Entry>,
    king_map: KingMap,
    /// Where the positions of separate validation files begin (see [`Data::start_validation`]);
    /// `None` while the last 2% of the positions are held out instead.
    validation_start: Option<usize>,
}

impl Default for Data {
    fn default() -> Data {
        Data::new(NO_KING_BUCKETS)
    }
}

/// The king bucket layouts `train --king-buckets` offers: a name, what it splits, the number
/// of buckets and the bucket of each square of a side's own king (from that side).
pub fn king_layout(name: &str) -> Option<(usize, KingMap)> {
    let by = |f: fn(usize, usize) -> usize| -> KingMap {
        std::array::from_fn(|sq| f(sq % 8, sq / 8) as u8)
    };
    match name {
        "none" => Some((1, NO_KING_BUCKETS)),
        // The king on the queen's side (files a–d) or the king's side (e–h).
        "halves" => Some((2, by(|file, _| file / 4))),
        // The same, each split into the two home ranks and the rest of the board.
        "four" => Some((4, by(|file, rank| file / 4 + 2 * usize::from(rank >= 2)))),
        // Pairs of files (a–b, c–d, e–f, g–h), each split into the home ranks and the rest.
        "eight" => Some((8, by(|file, rank| file / 2 + 4 * usize::from(rank >= 2)))),
        // The pairs of files, each split into the back rank, the second rank and the rest.
        "twelve" => Some((12, by(|file, rank| file / 2 + 4 * rank.min(2)))),
        // The pairs of files, each split into ranks 1, 2, 3–4 and 5–8.
        "sixteen" => Some((
            16,
            by(|file, rank| file / 2 + 4 * [0, 1, 2, 2, 3, 3, 3, 3][rank]),
        )),
        // `sixteen` with the back rank split by file: a king on g1 apart from one on h1.
        "twenty" => Some((
            20,
            by(|file, rank| match rank {
                0 => file,
                _ => 8 + file / 2 + 4 * [0, 0, 1, 1, 2, 2, 2, 2][rank],
            }),
        )),
        // `sixteen` with the first two ranks split by file.
        "twenty-four" => Some((
            24,
            by(|file, rank| match rank {
                0 | 1 => file + 8 * rank,
                _ => 16 + file / 2 + 4 * usize::from(rank >= 4),
            }),
        )),
        _ => None,
    }
}

/// The names [`king_layout`] knows.
pub const KING_LAYOUTS: &str = "none, halves, four, eight, twelve, sixteen, twenty, twenty-four";

/// Why a data line was not used.
#[derive(Debug, Default)]
pub struct Skipped {
    pub malformed: u64,
    pub in_check: u64,
}

impl Data {
    /// No positions yet, for a network with king map `king_map`.
    pub fn new(king_map: KingMap) -> Data {
        Data {
            features: Vec::new(),
            entries: Vec::new(),
            king_map,
            validation_start: None,
        }
    }

    /// The positions loaded from now on are the validation set, and every position loaded so
    /// far is trained on (none is held out of them). Candidates trained on different data can
    /// so be compared on the same positions.
    pub fn start_validation(&mut self) {
        self.validation_start = Some(self.entries.len());
    }

    /// How many positions are held out for validation.
    pub fn validation_len(&self) -> usize {
        split(self).1.len()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The features of one position: (side to move's index, other side's index) per piece.
    #[inline]
    fn features_of(&self, e: &Entry) -> &[(u16, u16)] {
        &self.features[e.start as usize..e.start as usize + usize::from(e.len)]
    }

    /// Adds the `FEN | score | result` lines of `text` (score in centipawns and result 1.0, 0.5
    /// or 0.0, both for White). The target mixes the result, weighted `result_weight`, with the
    /// logistic of the score. With `mirror`, positions without castling rights are added a
    /// second time mirrored left to right.
    pub fn load(&mut self, text: &str, result_weight: f32, mirror: bool, skipped: &mut Skipped) {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let Some((sample, Ok((game, _)))) =
                data::parse(line).map(|s| (s, Game::from_fen(s.fen)))
            else {
                skipped.malformed += 1;
                continue;
            };
            let (score, result) = (sample.score, sample.result);
            let pos = game.pos();
            if pos.is_check() {
                skipped.in_check += 1;
                continue;
            }
            let white_target = result_weight * result
                + (1.0 - result_weight) * sigmoid(score as f32 / SCALE as f32);
            let (us, target) = match pos.turn() {
                Color::White => (Color::White, white_target),
                Color::Black => (Color::Black, 1.0 - white_target),
            };
            self.push(pos.board(), us, target, false);
            // Without castling rights a position mirrored left to right is as good as the
            // original: a second example for free.
            if mirror && !pos.castles().any() {
                self.push(pos.board(), us, target, true);
            }
        }
    }

    fn push(&mut self, board: &shakmaty::Board, us: Color, target: f32, mirrored: bool) {
        let start = self.features.len() as u32;
        let place = |square: shakmaty::Square| {
            if mirrored {
                square.flip_horizontal()
            } else {
                square
            }
        };
        let offset = |side: Color| {
            board.king_of(side).map_or(0, |king| {
                king_input_offset(&self.king_map, side, place(king))
            })
        };
        let (ours, theirs) = (offset(us), offset(!us));
        for (square, piece) in board.clone() {
            let square = place(square);
            self.features.push((
                (ours + feature(us, piece, square)) as u16,
                (theirs + feature(!us, piece, square)) as u16,
            ));
        }
        self.entries.push(Entry {
            start,
            len: (self.features.len() as u32 - start) as u8,
            target,
        });
    }
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The network in floating point: output = w2[b] · s + b2[b] + Σₖ w4[b,k] · crelu(w3[b,k] · s +
/// b3[b,k]) for the position's output bucket b, with s = [screlu(acc_us), screlu(acc_them)],
/// in units of `SCALE` centipawns (the sum over k, the second layer, only if it has one).
#[derive(Clone)]
pub struct FloatNet {
    /// `INPUTS` rows of `HIDDEN` for each king bucket.
    w1: Vec<f32>,
    /// Empty, or (a factored network) `INPUTS` rows of `HIDDEN` that every king bucket shares:
    /// a bucket's input weights are then its rows in `w1` plus these.
    factor: Vec<f32>,
    b1: Vec<f32>,
    /// `BUCKETS` output layers of `2 * HIDDEN` weights each.
    w2: Vec<f32>,
    b2: Vec<f32>,
    /// Second-layer neurons per output bucket (0: none); per bucket and neuron, `2 * HIDDEN`
    /// input weights in `w3`, a bias in `b3` and an output weight in `w4`.
    head: usize,
    w3: Vec<f32>,
    b3: Vec<f32>,
    w4: Vec<f32>,
    king_buckets: usize,
    king_map: KingMap,
}

/// One position's values on the way through the network, kept for the backward pass.
struct Activations {
    us: [f32; HIDDEN],
    them: [f32; HIDDEN],
    /// screlu of `us`, then of `them`.
    squared: [f32; 2 * HIDDEN],
    /// The second layer's sums before the clip.
    head: Vec<f32>,
}

impl Activations {
    fn new(net: &FloatNet) -> Activations {
        Activations {
            us: [0.0; HIDDEN],
            them: [0.0; HIDDEN],
            squared: [0.0; 2 * HIDDEN],
            head: vec![0.0; net.head],
        }
    }
}

/// Weights stay within this, so that the quantized ones fit in i16.
const CLIP: f32 = 1.98;

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

    /// This network with a second layer of `head` neurons per output bucket, if it has none:
    /// small random input weights from `seed`, biases at the middle of the clip and zero
    /// output weights, so that it evaluates every position as before until training puts the
    /// new neurons to use. A network with a second layer of that size stays as it is.
    pub fn with_head(mut self, head: usize, seed: u64) -> Result<FloatNet, String> {
        if head == self.head {
            return Ok(self);
        }
        if self.head != 0 {
            return Err(format!(
                "the network has a second layer of {} neurons already",
                self.head
            ));
        }
        if head == 0 || head > pivot::nnue::MAX_HEAD {
            return Err(format!(
                "a second layer of {head} neurons; 1 to {} are possible",
                pivot::nnue::MAX_HEAD
            ));
        }
        let random = FloatNet::new(seed ^ 0x5EC0_17D1);
        // Scaled so that a neuron's sum over a position's 256 squared activations (mostly
        // well below 1) stays within the clip's range at the start.
        self.w3 = random
            .w1
            .iter()
            .cycle()
            .take(BUCKETS * head * 2 * HIDDEN)
            .map(|w| w * 0.5)
            .collect();
        self.b3 = vec![0.5; BUCKETS * head];
        self.w4 = vec![0.0; BUCKETS * head];
        self.head = head;
        Ok(self)
    }

    /// The king map positions must be read with for this network ([`Data::new`]).
    pub fn king_map(&self) -> KingMap {
        self.king_map
    }

    pub fn king_buckets(&self) -> usize {
        self.king_buckets
    }

    /// This network with king buckets after `map`, each starting from this network's input
    /// weights, so that it evaluates every position as before; the same network if it
    /// already has exactly these buckets (with a shared part at zero added if `factored` asks
    /// for one and it has none). A network with king buckets can only be split
    /// further: each new bucket must lie within one of its buckets, whose weights it copies
    /// (`four` into `eight`, for one). A `factored` network keeps the weights of a network
    /// without buckets as the part all buckets share, trained on every position, and starts
    /// each bucket's own part at zero, trained on the positions of its king squares;
    /// otherwise each bucket starts from a copy and learns from its own positions alone.
    pub fn with_king_buckets(
        mut self,
        king_buckets: usize,
        map: KingMap,
        factored: bool,
    ) -> Result<FloatNet, String> {
        if (self.king_buckets, self.king_map) == (king_buckets, map) {
            if factored {
                self.add_shared_part();
            }
            return Ok(self);
        }
        check_king_map(king_buckets, &map)?;
        if self.king_buckets != 1 {
            return self.split_king_buckets(king_buckets, map, factored);
        }
        if factored {
            self.factor = std::mem::take(&mut self.w1);
            self.w1 = vec![0.0; king_buckets * self.factor.len()];
        } else {
            self.w1 = self.w1.repeat(king_buckets);
        }
        self.king_buckets = king_buckets;
        self.king_map = map;
        Ok(self)
    }

    /// This network's king buckets split into the finer ones of `map` (see
    /// [`FloatNet::with_king_buckets`]); a shared part, if any or if `factored` asks for one
    /// (then at zero), stays shared.
    fn split_king_buckets(
        mut self,
        king_buckets: usize,
        map: KingMap,
        factored: bool,
    ) -> Result<FloatNet, String> {
        let mut parent = vec![None; king_buckets];
        for (&new, &old) in map.iter().zip(&self.king_map) {
            match parent[usize::from(new)] {
                None => parent[usize::from(new)] = Some(usize::from(old)),
                Some(p) if p == usize::from(old) => {}
                Some(_) => {
                    return Err(format!(
                        "king bucket {new} of the new layout spans more than one of the \
                         network's {} king buckets",
                        self.king_buckets
                    ));
                }
            }
        }
        let rows = INPUTS * HIDDEN;
        let mut w1 = Vec::with_capacity(king_buckets * rows);
        // check_king_map gave every new bucket a square, so every parent is known.
        for old in parent.into_iter().flatten() {
            w1.extend_from_slice(&self.w1[old * rows..][..rows]);
        }
        if factored {
            self.add_shared_part();
        }
        self.w1 = w1;
        self.king_buckets = king_buckets;
        self.king_map = map;
        Ok(self)
    }

    /// Gives a network with king buckets a part all buckets share, at zero (so that it evaluates
    /// as before), unless it has one.
    fn add_shared_part(&mut self) {
        if self.factor.is_empty() {
            self.factor = vec![0.0; INPUTS * HIDDEN];
        }
    }

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

    /// A network of this one's shape with every weight zero (a gradient).
    fn zeros_like(&self) -> FloatNet {
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
    fn effective(&self) -> std::borrow::Cow<'_, FloatNet> {
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
    fn fold_shared_gradient(&mut self) {
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

    fn accumulate(&self, features: impl Iterator<Item = usize>, acc: &mut [f32; HIDDEN]) {
        acc.copy_from_slice(&self.b1);
        for f in features {
            let row = &self.w1[f * HIDDEN..(f + 1) * HIDDEN];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// Where the output layer of bucket `b` lies in `w2`.
    fn layer_range(b: usize) -> std::ops::Range<usize> {
        b * 2 * HIDDEN..(b + 1) * 2 * HIDDEN
    }

    /// The output layer of bucket `b`: its weights (side to move's half first) and bias.
    fn layer(&self, b: usize) -> (&[f32], f32) {
        (&self.w2[Self::layer_range(b)], self.b2[b])
    }

    /// The output for one position's features (one per piece, which also picks the bucket),
    /// leaving in `act` what the backward pass needs.
    fn forward(&self, feats: &[(u16, u16)], act: &mut Activations) -> f32 {
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
    fn backward(&self, data: &Data, entries: &[Entry], grad: &mut FloatNet) -> f64 {
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
    fn error(&self, data: &Data, entries: &[Entry]) -> f64 {
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

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
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
    fn head_params(&self) -> usize {
        self.w3.len() + self.b3.len() + self.w4.len()
    }

    fn params(&self) -> impl Iterator<Item = &f32> {
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

/// How to train.
pub struct Settings {
    pub epochs: usize,
    pub batch: usize,
    /// Adam step size; it drops to 30% at 60% of the epochs and again at 85%.
    pub rate: f32,
    pub threads: usize,
    pub seed: u64,
    /// Where training starts: these weights, or random ones from `seed`.
    pub init: Option<FloatNet>,
    /// Leave each king bucket's own input weights as they are and train only the rest: the
    /// part all buckets share (of a factored network), the biases and the output layers.
    pub freeze_king_buckets: bool,
    /// Pull towards the starting weights (L2-SP, decoupled as in AdamW): each step moves every
    /// trained weight `rate × anchor` of the way back to where training started, so what the
    /// starting network learned from data no longer at hand gives way only to what the new
    /// data shows again and again (0: no pull).
    pub anchor: f32,
    /// Adam step size of the second layer's weights (which may start from nothing while the
    /// rest is refined), before the same drops as `rate`.
    pub head_rate: f32,
}

/// Progress after an epoch.
pub struct Epoch {
    pub epoch: usize,
    pub train_error: f64,
    pub validation_error: f64,
    pub rate: f32,
}

/// The training and validation positions of `data`: those of the validation files when there
/// are some ([`Data::start_validation`]); otherwise the last 2% are held out for the validation
/// error (whole games, since a file holds each game's positions together), or all of them when
/// that is none.
fn split(data: &Data) -> (&[Entry], &[Entry]) {
    if let Some(start) = data.validation_start {
        return data.entries.split_at(start);
    }
    let held_out = data.entries.len() / 50;
    let (training, validation) = data.entries.split_at(data.entries.len() - held_out);
    if validation.is_empty() {
        (training, &data.entries[..])
    } else {
        (training, validation)
    }
}

/// The error of `net` on the positions `train` holds out of `data`: for a starting network
/// (`--init`), the figure its training has to improve on.
pub fn validation_error(net: &FloatNet, data: &Data) -> f64 {
    net.effective().error(data, split(data).1)
}

/// Trains a network on `data`, holding out the validation positions of [`validation_error`].
pub fn train(data: &Data, settings: &Settings, mut report: impl FnMut(&Epoch)) -> FloatNet {
    let (training, validation) = split(data);
    let mut training = training.to_vec();
    let mut net = settings
        .init
        .clone()
        .unwrap_or_else(|| FloatNet::new(settings.seed));
    let params = net.params().count();
    let (mut m, mut v) = (vec![0f32; params], vec![0f32; params]);
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut rng = settings.seed | 1;
    let threads = settings.threads.max(1);
    assert!(
        net.king_map == data.king_map,
        "the data was read for another king map than the network's"
    );
    let mut grads: Vec<FloatNet> = (0..threads).map(|_| net.zeros_like()).collect();
    let start: Vec<f32> = if settings.anchor > 0.0 {
        net.params().copied().collect()
    } else {
        Vec::new()
    };
    // `params_mut` yields the buckets' own input weights first.
    let frozen = if settings.freeze_king_buckets {
        net.w1.len()
    } else {
        0
    };
    for epoch in 1..=settings.epochs {
        let decay = if epoch * 100 > settings.epochs * 85 {
            0.09
        } else if epoch * 100 > settings.epochs * 60 {
            0.3
        } else {
            1.0
        };
        let rate = settings.rate * decay;
        let head_rate = settings.head_rate * decay;
        // Fisher–Yates with a xorshift generator: the same seed trains the same network.
        for i in (1..training.len()).rev() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            training.swap(i, (rng % (i as u64 + 1)) as usize);
        }
        let mut loss = 0f64;
        for batch in training.chunks(settings.batch.max(1)) {
            let part = batch.len().div_ceil(threads);
            let effective = net.effective();
            let net_ref = effective.as_ref();
            loss += std::thread::scope(|scope| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(part))
                    .map(|(g, chunk)| {
                        scope.spawn(move || {
                            g.params_mut().for_each(|x| *x = 0.0);
                            net_ref.backward(data, chunk, g)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(0.0))
                    .sum::<f64>()
            });
            let used = batch.len().div_ceil(part);
            let (first, rest) = grads.split_at_mut(1);
            for other in &rest[..used.saturating_sub(1)] {
                for (a, b) in first[0].params_mut().zip(other.params()) {
                    *a += b;
                }
            }
            first[0].fold_shared_gradient();
            drop(effective);
            step += 1;
            let scale = 1.0 / batch.len() as f32;
            let c1 = 1.0 - beta1.powi(step);
            let c2 = 1.0 - beta2.powi(step);
            let pull = rate * settings.anchor;
            let head_start = params - net.head_params();
            for (i, (((w, g), m), v)) in net
                .params_mut()
                .zip(first[0].params())
                .zip(m.iter_mut())
                .zip(v.iter_mut())
                .enumerate()
                .skip(frozen)
            {
                let g = g * scale;
                *m = beta1 * *m + (1.0 - beta1) * g;
                *v = beta2 * *v + (1.0 - beta2) * g * g;
                let step_size = if i >= head_start { head_rate } else { rate };
                *w -= step_size * (*m / c1) / ((*v / c2).sqrt() + eps);
                if let Some(w0) = start.get(i) {
                    *w -= pull * (*w - w0);
                }
                *w = w.clamp(-CLIP, CLIP);
            }
        }
        report(&Epoch {
            epoch,
            train_error: loss / training.len().max(1) as f64,
            validation_error: net.effective().error(data, validation),
            rate,
        });
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use pivot::nnue::relative;

    const LINES: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 30 | 0.5
4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 900 | 1.0
3qk3/8/8/8/8/8/8/4K3 w - - 0 1 | -900 | 0.0
4k3/8/8/8/8/8/8/3RK3 b - - 0 1 | 500 | 1-0
not a fen | 0 | 0.5
4k3/8/8/8/8/8/8/4K3 w - - 0 1 | x | 0.5
4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0 | 2.0
4k3/8/8/8/8/8/4r3/4K3 w - - 0 1 | 0 | 0.5
";

    #[test]
    fn bad_lines_are_counted_not_used() {
        let mut data = Data::default();
        let mut skipped = Skipped::default();
        data.load(LINES, 0.5, false, &mut skipped);
        assert_eq!(data.len(), 4);
        assert_eq!(skipped.malformed, 3);
        assert_eq!(skipped.in_check, 1);
        // Black to move in a won position for White: a low target.
        assert!(data.entries[3].target < 0.2);
        assert!(data.entries[1].target > 0.9);
    }

    /// Training lowers the error, and the quantized network agrees with the float one.
    #[test]
    fn training_fits_and_quantizes() {
        let mut data = Data::default();
        let mut skipped = Skipped::default();
        data.load(&LINES.repeat(60), 0.5, false, &mut skipped);
        let settings = Settings {
            epochs: 30,
            batch: 64,
            rate: 0.01,
            threads: 2,
            seed: 7,
            init: None,
            freeze_king_buckets: false,
            anchor: 0.0,
            head_rate: 0.0,
        };
        let first = FloatNet::new(7).error(&data, &data.entries);
        let mut last = f64::MAX;
        let net = train(&data, &settings, |e| last = e.validation_error);
        assert!(last < first / 2.0, "{first} -> {last}");
        let quantized = net.quantize();
        let pos = Game::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap().0;
        let float_cp = {
            let e = data.entries[1];
            let feats = data.features_of(&e);
            net.forward(feats, &mut Activations::new(&net)) * SCALE as f32
        };
        let int_cp = quantized.eval_from_scratch(pos.pos()) as f32;
        assert!(
            (float_cp - int_cp).abs() < 10.0 + float_cp.abs() / 100.0,
            "{float_cp} vs {int_cp}"
        );
    }

    /// A position's error moves only its own bucket's output layer.
    #[test]
    fn each_position_trains_its_own_bucket() {
        let mut data = Data::default();
        let mut skipped = Skipped::default();
        data.load(LINES, 0.0, false, &mut skipped);
        let net = FloatNet::new(5);
        let mut grad = net.zeros_like();
        net.backward(&data, &data.entries, &mut grad);
        // The start position after 1.e4 has 32 pieces; the others have two or three.
        let touched: Vec<usize> = (0..BUCKETS)
            .filter(|&b| grad.b2[b] != 0.0 || grad.layer(b).0.iter().any(|&g| g != 0.0))
            .collect();
        assert_eq!(touched, vec![bucket(3), bucket(32)]);
    }

    /// Training can start from a shipped network: its weights come back exactly as they were.
    #[test]
    fn a_network_dequantizes_to_itself() {
        let shipped = pivot::nnue::network();
        let back = FloatNet::from_weights(&weights_of(shipped), 1)
            .unwrap()
            .quantize();
        assert_eq!(
            pivot::nnue::file::encode(&back),
            pivot::nnue::file::encode(shipped)
        );
    }

    /// Training from a network's weights starts at that network's error, not a random one's,
    /// and `validation_error` reports that starting error on the positions training holds out.
    #[test]
    fn training_starts_from_the_given_weights() {
        let mut data = Data::default();
        let mut skipped = Skipped::default();
        data.load(LINES, 0.0, false, &mut skipped);
        let shipped = plain_built_in();
        let before = validation_error(&shipped, &data);
        assert_eq!(before, shipped.error(&data, &data.entries));
        let settings = Settings {
            epochs: 1,
            batch: 64,
            rate: 1e-9,
            threads: 1,
            seed: 7,
            init: Some(shipped),
            freeze_king_buckets: false,
            anchor: 0.0,
            head_rate: 0.0,
        };
        let mut after = f64::MAX;
        train(&data, &settings, |e| after = e.validation_error);
        assert!((after - before).abs() < 1e-4, "{before} -> {after}");
        let random = FloatNet::new(7).error(&data, &data.entries);
        assert!((random - before).abs() > 1e-3, "{random} vs {before}");
    }

    /// With validation files, training uses every position before them and validation exactly
    /// theirs; without, the last 2% are held out.
    #[test]
    fn validation_files_replace_the_held_out_positions() {
        let mut skipped = Skipped::default();
        let mut held_out = Data::default();
        held_out.load(&LINES.repeat(25), 0.0, false, &mut skipped);
        assert_eq!(held_out.len(), 100);
        assert_eq!(held_out.validation_len(), 2);
        assert_eq!(split(&held_out).0.len(), 98);

        let mut separate = Data::default();
        separate.load(&LINES.repeat(25), 0.0, false, &mut skipped);
        separate.start_validation();
        separate.load(LINES, 0.0, false, &mut skipped);
        let (training, validation) = split(&separate);
        assert_eq!((training.len(), validation.len()), (100, 4));
        assert_eq!(separate.validation_len(), 4);
        let net = plain_built_in();
        assert_eq!(
            validation_error(&net, &separate),
            net.error(&separate, &separate.entries[100..])
        );
    }

    #[test]
    fn every_king_layout_is_a_valid_map() {
        for name in KING_LAYOUTS.split(", ") {
            let (n, map) = king_layout(name).unwrap();
            check_king_map(n, &map).unwrap();
        }
        assert!(king_layout("thirty-two").is_none());
        // From each side's own view: White's king on g1 and Black's on g8 share a bucket.
        let (_, map) = king_layout("four").unwrap();
        assert_eq!(map[relative(Color::White, shakmaty::Square::G1)], 1);
        assert_eq!(map[relative(Color::Black, shakmaty::Square::G8)], 1);
        assert_eq!(map[relative(Color::Black, shakmaty::Square::B7)], 0);
        assert_eq!(map[relative(Color::White, shakmaty::Square::E4)], 3);
        // `twelve` and `sixteen` tell g1 from g2, and `sixteen` the fourth rank from the fifth.
        let (_, map) = king_layout("twelve").unwrap();
        assert_eq!(map[relative(Color::White, shakmaty::Square::G1)], 3);
        assert_eq!(map[relative(Color::White, shakmaty::Square::G2)], 7);
        assert_eq!(map[relative(Color::Black, shakmaty::Square::A3)], 8);
        let (_, map) = king_layout("sixteen").unwrap();
        assert_eq!(map[relative(Color::Black, shakmaty::Square::G7)], 7);
        assert_eq!(map[relative(Color::White, shakmaty::Square::D4)], 9);
        assert_eq!(map[relative(Color::White, shakmaty::Square::D5)], 13);
        // `twenty` tells g1 from h1 and e1 from f1 but not g2 from h2; `twenty-four` does.
        let (_, map) = king_layout("twenty").unwrap();
        assert_eq!(map[relative(Color::White, shakmaty::Square::G1)], 6);
        assert_eq!(map[relative(Color::Black, shakmaty::Square::H8)], 7);
        assert_eq!(map[relative(Color::White, shakmaty::Square::G2)], 11);
        assert_eq!(map[relative(Color::White, shakmaty::Square::H2)], 11);
        assert_eq!(map[relative(Color::White, shakmaty::Square::A8)], 16);
        let (_, map) = king_layout("twenty-four").unwrap();
        assert_eq!(map[relative(Color::White, shakmaty::Square::G2)], 14);
        assert_eq!(map[relative(Color::Black, shakmaty::Square::H7)], 15);
        assert_eq!(map[relative(Color::White, shakmaty::Square::E4)], 18);
        assert_eq!(map[relative(Color::White, shakmaty::Square::H5)], 23);
    }

    /// The shipped network grown into king buckets evaluates the data as it did; training
    /// moves only the buckets its positions' kings stand in; and the trained network goes
    /// through the engine's file format and back unchanged.
    #[test]
    fn king_buckets_grow_train_and_quantize() {
        let shipped = plain_built_in();
        let (n, map) = king_layout("four").unwrap();
        let grown = shipped.clone().with_king_buckets(n, map, false).unwrap();
        let (mut flat, mut bucketed) = (Data::default(), Data::new(map));
        let mut skipped = Skipped::default();
        flat.load(LINES, 0.0, true, &mut skipped);
        bucketed.load(LINES, 0.0, true, &mut skipped);
        assert_same_evals((&shipped, &flat), (&grown, &bucketed), 1e-6);
        // Every king in LINES stands on its home ranks: buckets 0 and 1 only.
        let mut grad = grown.zeros_like();
        grown.backward(&bucketed, &bucketed.entries, &mut grad);
        let moved = |b: usize| {
            grad.w1[b * INPUTS * HIDDEN..][..INPUTS * HIDDEN]
                .iter()
                .any(|&g| g != 0.0)
        };
        assert_eq!((0..n).filter(|&b| moved(b)).collect::<Vec<_>>(), vec![0, 1]);
        let settings = Settings {
            epochs: 2,
            batch: 4,
            rate: 0.001,
            threads: 2,
            seed: 7,
            init: Some(grown),
            freeze_king_buckets: false,
            anchor: 0.0,
            head_rate: 0.0,
        };
        let trained = train(&bucketed, &settings, |_| {});
        let bytes = pivot::nnue::file::encode(&trained.quantize());
        let back =
            FloatNet::from_weights(&pivot::nnue::file::decode_weights(&bytes).unwrap(), 1).unwrap();
        assert_eq!((back.king_buckets(), back.king_map()), (n, map));
        assert_eq!(pivot::nnue::file::encode(&back.quantize()), bytes);
        assert!(
            back.with_king_buckets(2, king_layout("halves").unwrap().1, false)
                .is_err()
        );
    }

    /// A network with king buckets splits into finer ones (`four` into `eight`, `eight` into
    /// `twelve`, `twelve` into `sixteen`, on to `twenty` and `twenty-four`) and evaluates every
    /// position as before, but not into a layout that cuts across its buckets.
    #[test]
    fn king_buckets_split_into_finer_ones_only() {
        let text = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 | 50 | 1.0\n\
                    8/8/2k5/8/3P4/8/5K2/8 b - - 0 1 | -20 | 0.5\n\
                    r3k3/8/8/8/8/8/1K6/8 w - - 0 1 | -300 | 0.0\n\
                    8/8/8/2k5/8/6K1/8/8 w - - 0 1 | 0 | 0.5\n\
                    8/5k2/8/8/1K6/8/8/8 b - - 0 1 | 10 | 0.5\n";
        let data_for = |map| {
            let mut data = Data::new(map);
            data.load(LINES, 0.0, true, &mut Skipped::default());
            data.load(text, 0.0, true, &mut Skipped::default());
            data
        };
        let (n4, map4) = king_layout("four").unwrap();
        let mut coarse = plain_built_in().with_king_buckets(n4, map4, false).unwrap();
        for finer in ["eight", "twelve", "sixteen", "twenty", "twenty-four"] {
            // Tell the buckets apart, so that a split copying the wrong one shows.
            for (b, rows) in coarse.w1.chunks_exact_mut(INPUTS * HIDDEN).enumerate() {
                rows.iter_mut().for_each(|x| *x += 0.01 * b as f32);
            }
            let (n, map) = king_layout(finer).unwrap();
            let fine = coarse.clone().with_king_buckets(n, map, false).unwrap();
            assert_eq!((fine.king_buckets(), fine.king_map()), (n, map), "{finer}");
            let coarse_data = data_for(coarse.king_map());
            assert_same_evals((&coarse, &coarse_data), (&fine, &data_for(map)), 1e-5);
            let Err(err) = fine.clone().with_king_buckets(n4, map4, false) else {
                panic!("{finer} king buckets cannot merge into four");
            };
            assert!(err.contains("spans more than one"), "{finer}: {err}");
            coarse = fine;
        }
    }

    /// Grown with a shared part, the network evaluates and quantizes as the plain copies do;
    /// in training every position moves the shared part, so that a bucket none of the
    /// positions' kings stand in still learns, while its own part stays at zero.
    #[test]
    fn shared_king_weights_start_equal_and_learn_from_every_bucket() {
        let shipped = plain_built_in();
        let (n, map) = king_layout("four").unwrap();
        let copies = shipped.clone().with_king_buckets(n, map, false).unwrap();
        let shared = shipped.with_king_buckets(n, map, true).unwrap();
        assert_eq!(
            pivot::nnue::file::encode(&shared.quantize()),
            pivot::nnue::file::encode(&copies.quantize())
        );
        let (trained, _) = train_briefly_on_lines(&shared, false, 0.0);
        let own =
            |net: &FloatNet, b: usize| net.w1[b * INPUTS * HIDDEN..][..INPUTS * HIDDEN].to_vec();
        // Every king in LINES stands on its home ranks: buckets 2 and 3 see no position.
        assert!(own(&trained, 0).iter().any(|&w| w != 0.0));
        assert!(own(&trained, 3).iter().all(|&w| w == 0.0));
        assert_ne!(trained.factor, shared.factor);
        let before = shared.effective();
        let after = trained.effective();
        assert_ne!(own(&after, 3), own(&before, 3));
    }

    /// A bucketed network given a shared part at zero evaluates as before; with its buckets
    /// frozen, training moves only the shared part, the biases and the output layers.
    #[test]
    fn frozen_king_buckets_train_only_the_shared_part() {
        let (n, map) = king_layout("four").unwrap();
        let bucketed = plain_built_in().with_king_buckets(n, map, false).unwrap();
        let factored = bucketed.clone().with_king_buckets(n, map, true).unwrap();
        assert_eq!(factored.factor.len(), INPUTS * HIDDEN);
        assert!(factored.factor.iter().all(|&w| w == 0.0));
        assert_eq!(
            pivot::nnue::file::encode(&factored.quantize()),
            pivot::nnue::file::encode(&bucketed.quantize())
        );
        let (trained, data) = train_briefly_on_lines(&factored, true, 0.0);
        assert_eq!(trained.w1, factored.w1);
        assert_ne!(trained.factor, factored.factor);
        assert_ne!(trained.w2, factored.w2);
        let error = |net: &FloatNet| net.effective().error(&data, &data.entries);
        assert!(error(&trained) < error(&factored));
    }

    /// The anchor keeps a refined network nearer its start, and it still learns.
    #[test]
    fn an_anchor_holds_the_weights_near_their_start() {
        let start = plain_built_in();
        let distance = |net: &FloatNet| -> f64 {
            net.params()
                .zip(start.params())
                .map(|(a, b)| f64::from(a - b).powi(2))
                .sum()
        };
        let (free, data) = train_briefly_on_lines(&start, false, 0.0);
        let (anchored, _) = train_briefly_on_lines(&start, false, 200.0);
        assert!(distance(&anchored) > 0.0);
        assert!(
            distance(&anchored) < distance(&free) / 2.0,
            "{} against {}",
            distance(&anchored),
            distance(&free)
        );
        let error = |net: &FloatNet| net.error(&data, &data.entries);
        assert!(error(&anchored) < error(&start));
    }

    /// `init` trained for two epochs on LINES (mirrored, read for its king map), and the data.
    fn train_briefly_on_lines(
        init: &FloatNet,
        freeze_king_buckets: bool,
        anchor: f32,
    ) -> (FloatNet, Data) {
        let mut data = Data::new(init.king_map());
        data.load(LINES, 0.0, true, &mut Skipped::default());
        let settings = Settings {
            epochs: 2,
            batch: 2,
            rate: 0.001,
            threads: 2,
            seed: 7,
            init: Some(init.clone()),
            freeze_king_buckets,
            anchor,
            head_rate: 0.001,
        };
        (train(&data, &settings, |_| {}), data)
    }

    /// The built-in network's first king bucket as a float network without king buckets.
    /// Asserts that two networks, each on the same positions read for its own king map,
    /// evaluate every position alike, within `tolerance`.
    fn assert_same_evals(
        (a, a_data): (&FloatNet, &Data),
        (b, b_data): (&FloatNet, &Data),
        tolerance: f32,
    ) {
        assert_eq!(a_data.len(), b_data.len());
        let (mut act_a, mut act_b) = (Activations::new(a), Activations::new(b));
        for (ea, eb) in a_data.entries.iter().zip(&b_data.entries) {
            let x = a.forward(a_data.features_of(ea), &mut act_a);
            let y = b.forward(b_data.features_of(eb), &mut act_b);
            assert!((x - y).abs() < tolerance, "{x} vs {y}");
        }
    }

    fn plain_built_in() -> FloatNet {
        FloatNet::from_weights(&weights_of(&pivot::nnue::network().king_bucket(0)), 1).unwrap()
    }

    fn weights_of(net: &Network) -> Weights {
        use pivot::nnue::file;
        file::decode_weights(&file::encode(net)).unwrap()
    }

    /// A network of half the width, widened: its neurons keep their weights, the new ones
    /// start silent, so every position evaluates as the narrow network's neurons alone do.
    #[test]
    fn a_narrow_network_widens_without_changing_its_output() {
        let full = weights_of(&pivot::nnue::network().king_bucket(0));
        let h = HIDDEN / 2;
        let narrow = Weights {
            hidden: h,
            buckets: BUCKETS,
            king_buckets: 1,
            king_map: NO_KING_BUCKETS,
            hidden_weights: full
                .hidden_weights
                .chunks_exact(HIDDEN)
                .flat_map(|row| row[..h].to_vec())
                .collect(),
            hidden_bias: full.hidden_bias[..h].to_vec(),
            output_weights: full
                .output_weights
                .chunks_exact(2 * HIDDEN)
                .flat_map(|layer| [&layer[..h], &layer[HIDDEN..HIDDEN + h]].concat())
                .collect(),
            output_bias: full.output_bias.clone(),
            head: 0,
            head_weights: Vec::new(),
            head_output: Vec::new(),
            head_bias: Vec::new(),
        };
        let widened = FloatNet::from_weights(&narrow, 3).unwrap();
        // The same network with the second half's output weights zeroed.
        let mut reference = FloatNet::from_weights(&full, 3).unwrap();
        for layer in reference.w2.chunks_exact_mut(2 * HIDDEN) {
            for j in h..HIDDEN {
                layer[j] = 0.0;
                layer[HIDDEN + j] = 0.0;
            }
        }
        // The new neurons do get random input weights, so that training can move them.
        assert!(widened.w1[h..HIDDEN].iter().any(|&x| x != 0.0));
        let mut data = Data::default();
        let mut skipped = Skipped::default();
        data.load(LINES, 0.0, false, &mut skipped);
        let mut act = Activations::new(&widened);
        for e in &data.entries {
            let feats = data.features_of(e);
            let a = widened.forward(feats, &mut act);
            let b = reference.forward(feats, &mut act);
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
        let wider = Weights {
            hidden: HIDDEN + 1,
            buckets: 1,
            king_buckets: 1,
            king_map: NO_KING_BUCKETS,
            hidden_weights: vec![0; INPUTS * (HIDDEN + 1)],
            hidden_bias: vec![0; HIDDEN + 1],
            output_weights: vec![0; 2 * (HIDDEN + 1)],
            output_bias: vec![0],
            head: 0,
            head_weights: Vec::new(),
            head_output: Vec::new(),
            head_bias: Vec::new(),
        };
        assert!(
            FloatNet::from_weights(&wider, 1)
                .err()
                .unwrap()
                .contains("cannot start")
        );
    }

    /// A second layer grown on a network starts silent: the network evaluates and quantizes
    /// as before. Trained, it lowers the error, survives the file, and the engine's integer
    /// evaluation follows the floating-point one.
    #[test]
    fn a_second_layer_grows_silently_then_learns() {
        let start = plain_built_in();
        let grown = start.clone().with_head(4, 9).unwrap();
        assert_eq!(grown.head(), 4);
        let mut data = Data::default();
        data.load(&LINES.repeat(20), 0.5, true, &mut Skipped::default());
        assert_eq!(
            grown.error(&data, &data.entries),
            start.error(&data, &data.entries)
        );
        let pos = Game::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap().0;
        let engine = |net: &FloatNet| net.quantize().eval_from_scratch(pos.pos());
        assert_eq!(engine(&grown), engine(&start));
        assert!(grown.clone().with_head(4, 1).is_ok());
        assert!(
            grown
                .clone()
                .with_head(8, 1)
                .err()
                .unwrap()
                .contains("already")
        );
        assert!(
            start
                .clone()
                .with_head(65, 1)
                .err()
                .unwrap()
                .contains("1 to 64")
        );
        let settings = Settings {
            epochs: 20,
            batch: 16,
            rate: 0.0,
            threads: 2,
            seed: 7,
            init: Some(grown.clone()),
            freeze_king_buckets: false,
            anchor: 0.0,
            head_rate: 0.01,
        };
        let trained = train(&data, &settings, |_| {});
        // Only the second layer moved (the rest had step 0, beyond the clip to ±1.98 that
        // every step applies), and it lowered the error.
        let moved = |a: &[f32], b: &[f32]| a.iter().zip(b).any(|(x, y)| (x - y).abs() > 0.01);
        assert!(!moved(&trained.w1, &grown.w1));
        assert!(!moved(&trained.w2, &grown.w2));
        assert!(trained.w4.iter().any(|&w| w != 0.0));
        let error = |net: &FloatNet| net.error(&data, &data.entries);
        assert!(error(&trained) < error(&grown) * 0.95);
        let bytes = pivot::nnue::file::encode(&trained.quantize());
        let back =
            FloatNet::from_weights(&pivot::nnue::file::decode_weights(&bytes).unwrap(), 1).unwrap();
        assert_eq!(pivot::nnue::file::encode(&back.quantize()), bytes);
        let e = data.entries[1];
        let float_cp =
            trained.forward(data.features_of(&e), &mut Activations::new(&trained)) * SCALE as f32;
        let int_cp = engine(&trained) as f32;
        assert!(
            (float_cp - int_cp).abs() < 10.0 + float_cp.abs() / 100.0,
            "{float_cp} vs {int_cp}"
        );
    }

    /// The backward pass's gradient of the second layer and of the layers under it matches
    /// finite differences of the error.
    #[test]
    fn the_second_layer_backpropagates_its_gradient() {
        let mut net = plain_built_in().with_head(3, 5).unwrap();
        for (i, w) in net.w4.iter_mut().enumerate() {
            *w = 0.3 + 0.1 * (i % 5) as f32;
        }
        let mut data = Data::default();
        data.load(LINES, 0.5, false, &mut Skipped::default());
        let entries = &data.entries;
        let mut grad = net.zeros_like();
        net.backward(&data, entries, &mut grad);
        let n = entries.len() as f64;
        // One active second-layer neuron of the 32-piece position's bucket, and a hidden
        // neuron of that position.
        let b = bucket(32);
        let mut act = Activations::new(&net);
        net.forward(data.features_of(&entries[0]), &mut act);
        let k = act.head.iter().position(|&h| h > 0.05 && h < 0.95).unwrap();
        let i = b * 3 + k;
        let j = (0..HIDDEN)
            .find(|&j| act.us[j] > 0.05 && act.us[j] < 0.95)
            .unwrap();
        let f = usize::from(data.features_of(&entries[0])[0].0);
        type Pick = fn(&mut FloatNet, usize, usize, usize, usize) -> &mut f32;
        let picks: [(&str, Pick); 5] = [
            ("w4", |n, i, _, _, _| &mut n.w4[i]),
            ("b3", |n, i, _, _, _| &mut n.b3[i]),
            ("w3", |n, i, j, _, _| &mut n.w3[i * 2 * HIDDEN + j]),
            ("b1", |n, _, j, _, _| &mut n.b1[j]),
            ("w1", |n, _, j, f, _| &mut n.w1[f * HIDDEN + j]),
        ];
        for (name, pick) in picks {
            let analytic = f64::from(*pick(&mut grad, i, j, f, 0));
            let eps = 1e-3;
            let mut plus = net.clone();
            *pick(&mut plus, i, j, f, 0) += eps;
            let mut minus = net.clone();
            *pick(&mut minus, i, j, f, 0) -= eps;
            let numeric = (plus.error(&data, entries) - minus.error(&data, entries)) * n
                / (2.0 * f64::from(eps));
            assert!(
                (analytic - numeric).abs() <= 0.05 * numeric.abs().max(1e-4),
                "{name}: {analytic} vs {numeric}"
            );
        }
    }
}

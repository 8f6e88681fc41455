//! `train`: fits a network to `datagen` positions by minibatch gradient descent (Adam) on the
//! squared error between the logistic of its output and a blend of the game's result and the
//! search's score, then quantizes it for the engine.

mod float_net;
mod grow;
mod king_layouts;
mod positions;
mod quantize;
#[cfg(test)]
mod tests;

pub use float_net::FloatNet;
pub use king_layouts::{KING_LAYOUTS, king_layout};
pub use positions::{Data, Skipped};

use float_net::CLIP;
use positions::split;

/// The logistic: a score in units of `SCALE` centipawns as an expected result.
#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
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

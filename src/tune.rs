//! `tune`: fits the evaluation weights to game results (Texel's method) by gradient descent
//! on the mean squared error between the result and a logistic function of the evaluation.

use std::fmt::Write as _;

use shakmaty::{Chess, Position};

use crate::datagen::parse_result;
use crate::eval::layout::{GROUPS, S, WEIGHT_COUNT, is_fixed};
use crate::eval::weights::WEIGHTS;
use crate::eval::{FULL_PHASE, SCALE_NORMAL, Trace, trace};
use crate::game::Game;
use crate::search::see::see_ge;

/// One training position: its terms and the game's result for White (1, ½ or 0).
pub struct Sample {
    trace: Trace,
    result: f64,
}

/// Why a data line was not used.
#[derive(Debug, Default)]
pub struct Skipped {
    pub malformed: u64,
    pub in_check: u64,
    pub tactical: u64,
}

/// Parses `FEN | score | result` lines (the result as 1.0/0.5/0.0 or 1-0/1/2-1/2/0-1, always
/// for White; the score is ignored). Positions in check or with a winning capture are skipped:
/// the static evaluation cannot be right about them.
pub fn load(text: &str, samples: &mut Vec<Sample>, skipped: &mut Skipped) {
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut fields = line.split('|').map(str::trim);
        let (Some(fen), Some(result)) = (fields.next(), fields.next_back()) else {
            skipped.malformed += 1;
            continue;
        };
        let Some(result) = parse_result(result).map(f64::from) else {
            skipped.malformed += 1;
            continue;
        };
        let Ok((game, _)) = Game::from_fen(fen) else {
            skipped.malformed += 1;
            continue;
        };
        let pos = game.pos();
        if pos.is_check() {
            skipped.in_check += 1;
            continue;
        }
        if has_winning_capture(pos) {
            skipped.tactical += 1;
            continue;
        }
        samples.push(Sample {
            trace: trace(pos),
            result,
        });
    }
}

fn has_winning_capture(pos: &Chess) -> bool {
    pos.capture_moves().iter().any(|&m| see_ge(pos, m, 1)) || {
        let moves = pos.legal_moves();
        moves.iter().any(|m| m.is_promotion())
    }
}

/// Weights as reals, for the descent.
#[derive(Clone, Copy, Default)]
struct Real {
    mg: f64,
    eg: f64,
}

/// The evaluation of `sample` (White's view) under `w`, and its derivatives with respect to a
/// middlegame and an endgame weight per unit of count.
#[inline]
fn evaluate(sample: &Sample, w: &[Real]) -> (f64, f64, f64) {
    let t = &sample.trace;
    let mut mg = 0.0;
    let mut eg = 0.0;
    for &(i, c) in &t.counts {
        mg += w[usize::from(i)].mg * f64::from(c);
        eg += w[usize::from(i)].eg * f64::from(c);
    }
    let phase = f64::from(t.phase) / f64::from(FULL_PHASE);
    let eg_factor = (1.0 - phase) * f64::from(t.scale) / f64::from(SCALE_NORMAL);
    (mg * phase + eg * eg_factor, phase, eg_factor)
}

fn sigmoid(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + (-k * score / 400.0).exp())
}

/// Mean squared error of the predictions against the results.
fn error(samples: &[Sample], w: &[Real], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let (e, _, _) = evaluate(s, w);
            (s.result - sigmoid(k, e)).powi(2)
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The scaling constant K that best fits the current weights (a ternary search).
pub fn fit_k(samples: &[Sample]) -> f64 {
    let w = to_real(&WEIGHTS);
    let (mut lo, mut hi) = (0.1, 5.0);
    for _ in 0..60 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if error(samples, &w, a) < error(samples, &w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn to_real(weights: &[S]) -> Vec<Real> {
    weights
        .iter()
        .map(|s| Real {
            mg: f64::from(s.mg),
            eg: f64::from(s.eg),
        })
        .collect()
}

/// The gradient of the error over `samples`, summed into `grad`.
fn gradient(samples: &[Sample], w: &[Real], k: f64, grad: &mut [Real]) {
    for s in samples {
        let (e, phase, eg_factor) = evaluate(s, w);
        let p = sigmoid(k, e);
        let g = (p - s.result) * p * (1.0 - p);
        for &(i, c) in &s.trace.counts {
            let c = f64::from(c);
            grad[usize::from(i)].mg += g * c * phase;
            grad[usize::from(i)].eg += g * c * eg_factor;
        }
    }
}

/// Progress of a tuning run.
pub struct Epoch {
    pub epoch: usize,
    pub error: f64,
}

/// How the descent runs.
pub struct Schedule {
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub rate: f64,
    /// Pull of each weight back to its starting value (L2, per unit of mean gradient), so
    /// that weights of rare terms, which the data hardly constrains, stay where they were.
    pub l2: f64,
    pub threads: usize,
    /// `report` hears the error every this many epochs.
    pub every: usize,
}

/// Adam descent from the current weights on the mean squared error plus the L2 pull. Returns
/// the rounded weights.
pub fn tune(samples: &[Sample], k: f64, plan: &Schedule, mut report: impl FnMut(Epoch)) -> Vec<S> {
    let Schedule {
        epochs,
        rate,
        l2,
        threads,
        every,
    } = *plan;
    let start = to_real(&WEIGHTS);
    let mut w = start.clone();
    let n = samples.len().max(1) as f64;
    let mut m = vec![Real::default(); WEIGHT_COUNT];
    let mut v = vec![Real::default(); WEIGHT_COUNT];
    let (beta1, beta2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    for epoch in 1..=epochs {
        let mut grad = vec![Real::default(); WEIGHT_COUNT];
        std::thread::scope(|scope| {
            let handles: Vec<_> = samples
                .chunks(chunk)
                .map(|part| {
                    let w = &w;
                    scope.spawn(move || {
                        let mut g = vec![Real::default(); WEIGHT_COUNT];
                        gradient(part, w, k, &mut g);
                        g
                    })
                })
                .collect();
            for h in handles {
                if let Ok(g) = h.join() {
                    for (total, part) in grad.iter_mut().zip(g) {
                        total.mg += part.mg;
                        total.eg += part.eg;
                    }
                }
            }
        });
        let t = epoch as i32;
        let step = |g: f64, m: &mut f64, v: &mut f64, w: &mut f64| {
            *m = beta1 * *m + (1.0 - beta1) * g;
            *v = beta2 * *v + (1.0 - beta2) * g * g;
            let m_hat = *m / (1.0 - f64::powi(beta1, t));
            let v_hat = *v / (1.0 - f64::powi(beta2, t));
            *w -= rate * m_hat / (v_hat.sqrt() + eps);
        };
        for i in (0..WEIGHT_COUNT).filter(|&i| !is_fixed(i)) {
            let g_mg = grad[i].mg / n + l2 * (w[i].mg - start[i].mg);
            let g_eg = grad[i].eg / n + l2 * (w[i].eg - start[i].eg);
            let (m, v, w) = (&mut m[i], &mut v[i], &mut w[i]);
            step(g_mg, &mut m.mg, &mut v.mg, &mut w.mg);
            step(g_eg, &mut m.eg, &mut v.eg, &mut w.eg);
        }
        if epoch % every.max(1) == 0 || epoch == epochs {
            report(Epoch {
                epoch,
                error: error(samples, &w, k),
            });
        }
    }
    w.iter()
        .map(|r| S {
            mg: r.mg.round() as i32,
            eg: r.eg.round() as i32,
        })
        .collect()
}

/// The error of the built-in weights at `k`.
pub fn current_error(samples: &[Sample], k: f64) -> f64 {
    error(samples, &to_real(&WEIGHTS), k)
}

/// `weights.rs` for `weights`, with a header saying how they were made.
pub fn render(weights: &[S], provenance: &str) -> String {
    let mut out = String::new();
    out.push_str(
        "//! Evaluation weights, (middlegame, endgame) in centipawns, in the order of `layout.rs`.\n\
         //!\n\
         //! Starting values: material and piece-square tables from PeSTO (Ronald Friederich, as\n\
         //! published on the Chess Programming Wiki page \"PeSTO's Evaluation Function\"); the other\n\
         //! terms set by hand. `pivot tune` rewrites this file with weights fitted to game results.\n",
    );
    for line in provenance.lines() {
        let _ = writeln!(out, "//! {line}");
    }
    out.push_str("\nuse super::layout::{S, WEIGHT_COUNT, s};\n\n#[rustfmt::skip]\n");
    out.push_str("pub const WEIGHTS: [S; WEIGHT_COUNT] = [\n");
    for &(name, start, len) in GROUPS {
        let _ = writeln!(out, "    // {name}");
        for row in weights[start..start + len].chunks(8) {
            let cells: Vec<String> = row
                .iter()
                .map(|w| format!("s({}, {}),", w.mg, w.eg))
                .collect();
            let _ = writeln!(out, "    {}", cells.join(" "));
        }
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendering_the_current_weights_reproduces_their_table() {
        let text = render(&WEIGHTS, "");
        let source = include_str!("eval/weights.rs");
        let table = |t: &str| t[t.find("pub const WEIGHTS").unwrap_or(0)..].to_string();
        assert_eq!(table(&text), table(source));
    }

    #[test]
    fn bad_lines_are_counted_not_used() {
        let mut samples = Vec::new();
        let mut skipped = Skipped::default();
        load(
            "not a fen | 1.0\n\
             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 12 | 2.0\n\
             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 12 | 0.5\n\
             rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3 | 0 | 0.0\n",
            &mut samples,
            &mut skipped,
        );
        assert_eq!(samples.len(), 1);
        assert_eq!(skipped.malformed, 2);
        assert_eq!(skipped.in_check, 1);
    }
}

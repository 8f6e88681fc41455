//! `lookahead`: each position's search score replaced by a blend of the scores its own game
//! went on to reach, a temporal-difference target in the manner of TD(λ).
//!
//! A 5,000-node search misjudges what lies beyond its horizon, and the game that follows shows
//! it: a king attack it did not see lowers the scores some plies later. The game result carries
//! that too, but with every later mistake of either side mixed in. Here the target of a
//! position at ply `p` is the weighted mean, as an expected score, of the scores of its game's
//! positions at plies `q ≥ p`, each weighted `λ^(q − p)`: the position's own search counts most,
//! and what the game revealed within about `1 / (1 − λ)` plies counts the rest. Expected
//! scores are `sigmoid(score / SCALE)`, the scale `train` reads scores at, so a blend of a won
//! and a level score is not a half-won one in centipawns but in expected score.

use pivot::nnue::SCALE;

use crate::{data, split};

/// The blended score of each line, in White's centipawns, for the data `lines` of whole games
/// in played order (as `datagen` writes them); or the 1-based number of the first line that is
/// not a data line.
pub fn blended_scores(lines: &[&str], lambda: f64) -> Result<Vec<i32>, usize> {
    let mut plies_and_results = Vec::with_capacity(lines.len());
    let mut values = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let sample = data::parse(line).ok_or(i + 1)?;
        plies_and_results.push((split::plies(sample.fen).ok_or(i + 1)?, sample.result_text));
        values.push(expected(sample.score));
    }
    let starts = split::starts_of(&plies_and_results);
    let mut scores = vec![0; lines.len()];
    let ends = starts.iter().skip(1).copied().chain([lines.len()]);
    for (start, end) in starts.iter().copied().zip(ends) {
        // Backwards through the game: the weighted sums of the expected scores from each
        // position on, and of their weights.
        let (mut sum, mut weight) = (0.0, 0.0);
        let mut next_ply = None;
        for i in (start..end).rev() {
            let (ply, value) = (plies_and_results[i].0, values[i]);
            let decay = next_ply.map_or(0.0, |next: u32| {
                lambda.powi(next.saturating_sub(ply) as i32)
            });
            sum = value + decay * sum;
            weight = 1.0 + decay * weight;
            next_ply = Some(ply);
            scores[i] = centipawns(sum / weight);
        }
    }
    Ok(scores)
}

/// A score's expected result for the side it favours, as `train` reads it.
fn expected(score: i32) -> f64 {
    1.0 / (1.0 + (-f64::from(score) / f64::from(SCALE)).exp())
}

/// The centipawns whose expected result is `p` (within ±4,835: the expected results closest to
/// 0 and 1 are read as 10⁻¹⁵ from them).
fn centipawns(p: f64) -> i32 {
    let p = p.clamp(1e-15, 1.0 - 1e-15);
    (f64::from(SCALE) * (p / (1.0 - p)).ln()).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    // Two games: three positions of a White win (plies 3, 4 and 7: ply 5 and 6 were not
    // labelled), then two of a draw.
    const ROUND: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 0 | 1.0
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 | 140 | 1.0
rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 3 | 700 | 1.0
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1 | 30 | 0.5
rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2 | -30 | 0.5";

    fn lines() -> Vec<&'static str> {
        ROUND.lines().collect()
    }

    #[test]
    fn lambda_zero_keeps_each_search_score() {
        assert_eq!(
            blended_scores(&lines(), 0.0),
            Ok(vec![0, 140, 700, 30, -30])
        );
    }

    #[test]
    fn a_score_blends_with_its_own_games_later_scores_by_their_distance() {
        let lambda: f64 = 0.5;
        let scores = blended_scores(&lines(), lambda).unwrap();
        let (e0, e1, e2) = (expected(0), expected(140), expected(700));
        // Ply 4 weighs ply 7 by λ³; ply 3 weighs ply 4 by λ and ply 7 by λ⁴.
        let at_4 = (e1 + lambda.powi(3) * e2) / (1.0 + lambda.powi(3));
        let at_3 = (e0 + lambda * e1 + lambda.powi(4) * e2) / (1.0 + lambda + lambda.powi(4));
        assert_eq!(scores[..3], [centipawns(at_3), centipawns(at_4), 700]);
        // Averaged as expected results, not centipawns: 700 cp pulls ply 4 up by less than
        // the (700 − 140) / 9 cp a mean of centipawns would.
        assert!(
            scores[1] > 140 && scores[1] < 140 + (700 - 140) / 9,
            "{}",
            scores[1]
        );
        // The second game's first position reads nothing of the first game's.
        let draw = (expected(30) + lambda * expected(-30)) / (1.0 + lambda);
        assert_eq!(scores[3..], [centipawns(draw), -30]);
    }

    #[test]
    fn lambda_one_gives_every_position_the_mean_of_the_rest_of_its_game() {
        let scores = blended_scores(&lines(), 1.0).unwrap();
        let mean = (expected(0) + expected(140) + expected(700)) / 3.0;
        assert_eq!(scores[0], centipawns(mean));
        assert_eq!(scores[3], 0);
    }

    #[test]
    fn expected_scores_and_centipawns_are_inverse() {
        for cp in [-4000, -140, -1, 0, 1, 55, 140, 2500] {
            assert_eq!(centipawns(expected(cp)), cp);
        }
    }

    #[test]
    fn a_line_that_is_not_data_is_reported_by_its_number() {
        let mut bad = lines();
        bad[1] = "not data";
        assert_eq!(blended_scores(&bad, 0.9), Err(2));
    }
}

//! The training-data format, one position per line:
//!
//! ```text
//! <FEN> | <score> | <result>
//! ```
//!
//! `score` is the search's score in centipawns and `result` the game's result (`1.0`, `0.5` or
//! `0.0`; `1-0`, `1/2-1/2` and `0-1` are read too), both from White's point of view.

use shakmaty::{Chess, Color, Move, Position};

use pivot::score::{MATE_BOUND, TB_WIN};

/// One data line, split into its fields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample<'a> {
    pub fen: &'a str,
    /// White's score in centipawns.
    pub score: i32,
    /// White's result: 1.0, 0.5 or 0.0.
    pub result: f32,
    /// The result as written, kept when a line is written back.
    pub result_text: &'a str,
}

/// Splits a data line into its fields; `None` if it has not three fields, an integer score
/// and a known result. (Whether the FEN is a legal position is the reader's check.)
pub fn parse(line: &str) -> Option<Sample<'_>> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result_text] = fields[..] else {
        return None;
    };
    Some(Sample {
        fen,
        score: score.parse().ok()?,
        result: parse_result(result_text)?,
        result_text,
    })
}

/// A data line (without its line end).
pub fn line(fen: &str, white_score: i32, result_text: &str) -> String {
    format!("{fen} | {white_score} | {result_text}")
}

/// A result for White (`1.0`/`0.5`/`0.0`, or `1-0`/`1/2-1/2`/`0-1`); `None` for anything else.
pub fn parse_result(text: &str) -> Option<f32> {
    match text {
        "1.0" | "1" | "1-0" => Some(1.0),
        "0.5" | "1/2-1/2" => Some(0.5),
        "0.0" | "0" | "0-1" => Some(0.0),
        _ => None,
    }
}

/// Whether a searched position goes into the data: out of check, a quiet best move (neither
/// capture nor promotion) and a score that is no mate or tablebase win, so that the static
/// evaluation can learn it. `score` is the side to move's.
pub fn is_labelled(pos: &Chess, best: Move, score: i32) -> bool {
    !pos.is_check()
        && !best.is_capture()
        && !best.is_promotion()
        && score.abs() < TB_WIN.min(MATE_BOUND)
}

/// The side to move's `score` from White's point of view, as the data holds it.
pub fn white_view(pos: &Chess, score: i32) -> i32 {
    if pos.turn() == Color::White {
        score
    } else {
        -score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_splits_into_its_fields_and_back() {
        let text = "4k3/8/8/8/8/8/8/3QK3 b - - 0 1 | 512 | 1-0";
        let sample = parse(text).unwrap();
        assert_eq!(sample.fen, "4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
        assert_eq!((sample.score, sample.result), (512, 1.0));
        assert_eq!(line(sample.fen, sample.score, sample.result_text), text);
    }

    #[test]
    fn malformed_lines_are_none() {
        for bad in [
            "",
            "fen only",
            "a | b",
            "x | 12 | 1.0 | extra",
            "x | twelve | 1.0",
            "x | 12 | win",
            "x | 12.5 | 0.5",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}

//! The king-bucket layouts a network can be grown into: which squares of its own king share
//! one set of input weights.

use pivot::nnue::{KingMap, NO_KING_BUCKETS};

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

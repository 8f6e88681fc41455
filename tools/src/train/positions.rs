//! The training positions: each data line read into its inputs (for the network's king map)
//! and its target, the blend of the game's result and the search's score that it is fitted to.

use shakmaty::{Color, Position};

use pivot::game::Game;
use pivot::nnue::{KingMap, NO_KING_BUCKETS, SCALE, feature, king_input_offset};

use super::sigmoid;
use crate::data;

/// One position: where its features start in `Data::features`, how many, and its target (the
/// expected score for the side to move).
#[derive(Clone, Copy)]
pub(super) struct Entry {
    pub(super) start: u32,
    pub(super) len: u8,
    pub(super) target: f32,
}

/// Training positions, each as its list of (side to move's, other side's) input indices,
/// king bucket included (after the king map the data is made for).
pub struct Data {
    pub(super) features: Vec<(u16, u16)>,
    pub(super) entries: Vec<Entry>,
    pub(super) king_map: KingMap,
    /// Where the positions of separate validation files begin (see [`Data::start_validation`]);
    /// `None` while the last 2% of the positions are held out instead.
    pub(super) validation_start: Option<usize>,
}

impl Default for Data {
    fn default() -> Data {
        Data::new(NO_KING_BUCKETS)
    }
}

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
    pub(super) fn features_of(&self, e: &Entry) -> &[(u16, u16)] {
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

/// The training and validation positions of `data`: those of the validation files when there
/// are some ([`Data::start_validation`]); otherwise the last 2% are held out for the validation
/// error (whole games, since a file holds each game's positions together), or all of them when
/// that is none.
pub(super) fn split(data: &Data) -> (&[Entry], &[Entry]) {
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

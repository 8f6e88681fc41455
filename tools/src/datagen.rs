//! `datagen`: self-play games at a fixed node count per move, written as training positions
//! (the format of [`crate::data`]) for `train`.

use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use shakmaty::{Color, Position};

use pivot::game::Game;
use pivot::search::{SearchControl, Searcher, splitmix64};
use pivot::tt::TranspositionTable;

use crate::data::{self, is_labelled, white_view};

/// How the games are played.
#[derive(Clone, Debug)]
pub struct Settings {
    pub games: u64,
    pub nodes: u64,
    pub seed: u64,
    pub threads: usize,
    /// Random legal moves played after the opening position before the game proper.
    pub random_plies: u32,
    /// Opening positions (FENs); the start position when empty.
    pub openings: Vec<String>,
    /// Openings whose first search scores beyond this (either way) are skipped.
    pub max_opening_score: i32,
    pub hash_mb: usize,
}

/// Totals of a run.
#[derive(Debug, Default)]
pub struct Summary {
    pub games: u64,
    pub positions: u64,
    pub white_wins: u64,
    pub black_wins: u64,
    pub draws: u64,
}

/// A small deterministic generator (xorshift64*), so a seed reproduces its games.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        // SplitMix64 of the seed, never zero.
        Rng(splitmix64(seed) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One game's positions, each with White's score, before the result is known.
struct Record {
    fen: String,
    score: i32,
}

/// How a game ended, from White's point of view.
#[derive(Clone, Copy)]
enum Result {
    WhiteWins,
    BlackWins,
    Draw,
}

impl Result {
    fn label(self) -> &'static str {
        match self {
            Result::WhiteWins => "1.0",
            Result::BlackWins => "0.0",
            Result::Draw => "0.5",
        }
    }
}

/// Plays `settings.games` games over `settings.threads` threads and writes their positions to
/// `out`.
pub fn run(settings: &Settings, out: Box<dyn Write + Send>) -> std::io::Result<Summary> {
    let out = Arc::new(Mutex::new(BufWriter::new(out)));
    let next_game = Arc::new(AtomicU64::new(0));
    let summary = Arc::new(Mutex::new(Summary::default()));
    std::thread::scope(|scope| {
        for _ in 0..settings.threads.max(1) {
            let out = Arc::clone(&out);
            let next_game = Arc::clone(&next_game);
            let summary = Arc::clone(&summary);
            scope.spawn(move || -> std::io::Result<()> {
                let mut player = Player::new(settings);
                loop {
                    let index = next_game.fetch_add(1, Ordering::Relaxed);
                    if index >= settings.games {
                        return Ok(());
                    }
                    let Some((records, result)) = player.play(index) else {
                        continue;
                    };
                    let mut text = String::new();
                    for r in &records {
                        text.push_str(&data::line(&r.fen, r.score, result.label()));
                        text.push('\n');
                    }
                    out.lock()
                        .map_err(|_| std::io::Error::other("output lock poisoned"))?
                        .write_all(text.as_bytes())?;
                    if let Ok(mut s) = summary.lock() {
                        s.games += 1;
                        s.positions += records.len() as u64;
                        match result {
                            Result::WhiteWins => s.white_wins += 1,
                            Result::BlackWins => s.black_wins += 1,
                            Result::Draw => s.draws += 1,
                        }
                        if s.games % 100 == 0 {
                            log::info!("datagen: {} games, {} positions", s.games, s.positions);
                        }
                    }
                }
            });
        }
    });
    out.lock()
        .map_err(|_| std::io::Error::other("output lock poisoned"))?
        .flush()?;
    let summary = std::mem::take(
        &mut *summary
            .lock()
            .map_err(|_| std::io::Error::other("summary lock poisoned"))?,
    );
    Ok(summary)
}

/// A searcher and its table, reused from game to game.
struct Player<'a> {
    settings: &'a Settings,
    searcher: Searcher,
    tt: Arc<TranspositionTable>,
}

/// A side winning by this much for `ADJUDICATE_PLIES` plies in a row wins the game.
const WIN_SCORE: i32 = 1500;
const ADJUDICATE_PLIES: u32 = 6;
/// Games reaching this many plies are drawn.
const MAX_PLIES: usize = 400;

impl<'a> Player<'a> {
    fn new(settings: &'a Settings) -> Player<'a> {
        let control = Arc::new(SearchControl::default());
        let tt = TranspositionTable::new(settings.hash_mb)
            .or_else(|_| TranspositionTable::new(16))
            .expect("a 16 MB table");
        Player {
            settings,
            searcher: Searcher::new(control),
            tt: Arc::new(tt),
        }
    }

    /// The best move and score (side to move's view) of a search of `game`.
    fn search(&mut self, game: &Game) -> (Option<shakmaty::Move>, i32) {
        let outcome = self.searcher.run_nodes(game, self.settings.nodes, &self.tt);
        (outcome.best, outcome.score)
    }

    /// The opening of game `index`: a book position and random moves. `None` when it ends the
    /// game or leaves no legal move.
    fn opening(&self, rng: &mut Rng) -> Option<Game> {
        let openings = &self.settings.openings;
        let mut game = if openings.is_empty() {
            Game::default()
        } else {
            Game::from_fen(&openings[rng.below(openings.len())]).ok()?.0
        };
        for _ in 0..self.settings.random_plies {
            let moves = game.pos().legal_moves();
            if moves.is_empty() {
                return None;
            }
            game.play(moves[rng.below(moves.len())]);
        }
        (!game.pos().legal_moves().is_empty()).then_some(game)
    }

    /// Plays game `index`; `None` when its opening was rejected.
    fn play(&mut self, index: u64) -> Option<(Vec<Record>, Result)> {
        let mut rng = Rng::new(self.settings.seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407));
        let mut game = self.opening(&mut rng)?;
        self.tt.clear();
        self.searcher.clear();
        let (_, first) = self.search(&game);
        if first.abs() > self.settings.max_opening_score {
            return None;
        }
        let mut records = Vec::new();
        let mut winning = (0u32, Color::White);
        loop {
            let pos = game.pos();
            if pos.is_checkmate() {
                let winner = pos.turn().other();
                return Some((records, won_by(winner)));
            }
            if pos.is_stalemate()
                || pos.is_insufficient_material()
                || pos.halfmoves() >= 100
                || game.is_threefold()
                || game.history().len() >= MAX_PLIES
            {
                return Some((records, Result::Draw));
            }
            let (best, score) = self.search(&game);
            let best = best?;
            let pos = game.pos();
            let white_score = white_view(pos, score);
            if is_labelled(pos, best, score) {
                records.push(Record {
                    fen: game.fen(),
                    score: white_score,
                });
            }
            if white_score.abs() >= WIN_SCORE {
                let leader = if white_score > 0 {
                    Color::White
                } else {
                    Color::Black
                };
                winning = if winning.1 == leader {
                    (winning.0 + 1, leader)
                } else {
                    (1, leader)
                };
                if winning.0 >= ADJUDICATE_PLIES {
                    return Some((records, won_by(leader)));
                }
            } else {
                winning = (0, Color::White);
            }
            game.play(best);
        }
    }
}

fn won_by(color: Color) -> Result {
    match color {
        Color::White => Result::WhiteWins,
        Color::Black => Result::BlackWins,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_plays_the_same_games() {
        let settings = Settings {
            games: 2,
            nodes: 300,
            seed: 7,
            threads: 1,
            random_plies: 6,
            openings: Vec::new(),
            max_opening_score: 1000,
            hash_mb: 1,
        };
        let mut first = Player::new(&settings);
        let mut second = Player::new(&settings);
        let a = first
            .play(1)
            .map(|(r, _)| r.into_iter().map(|r| r.fen).collect::<Vec<_>>());
        let b = second
            .play(1)
            .map(|(r, _)| r.into_iter().map(|r| r.fen).collect::<Vec<_>>());
        assert_eq!(a, b);
        assert!(a.is_some_and(|fens| !fens.is_empty()));
    }
}

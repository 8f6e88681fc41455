//! `rescore`: searches every position of a `datagen` file again, usually deeper, and writes it
//! back with the new score, so a network can learn from better labels than the games had.

use std::collections::BTreeMap;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use shakmaty::Position;

use pivot::game::Game;
use pivot::search::{SearchControl, Searcher};
use pivot::tt::TranspositionTable;

use crate::data::{self, is_labelled, white_view};

/// How the positions are searched.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Nodes searched per position.
    pub nodes: u64,
    pub threads: usize,
    pub hash_mb: usize,
}

/// Totals of a run.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Lines written with their new score.
    pub kept: u64,
    /// Positions left out because the deeper search found a capture, promotion or check
    /// evasion best, or a mate or tablebase score: `datagen` keeps neither.
    pub noisy: u64,
    /// Lines that are not `FEN | score | result` with a valid FEN and a result of 0, 0.5 or 1.
    pub invalid: u64,
}

/// Consecutive lines searched with one table (a game's positions share much of their trees).
/// The table is cleared between blocks, so each block's scores depend on nothing else.
const BLOCK: usize = 256;

/// Searches every line of `text` and writes the kept ones, in input order, to `out`.
pub fn run(
    text: &str,
    settings: &Settings,
    out: Box<dyn Write + Send>,
) -> std::io::Result<Summary> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let blocks: Vec<&[&str]> = lines.chunks(BLOCK).collect();
    let next_block = AtomicUsize::new(0);
    let writer = Mutex::new(InOrder {
        out: BufWriter::new(out),
        next: 0,
        waiting: BTreeMap::new(),
        summary: Summary::default(),
    });
    std::thread::scope(|scope| -> std::io::Result<()> {
        let workers: Vec<_> = (0..settings.threads.max(1))
            .map(|_| {
                scope.spawn(|| -> std::io::Result<()> {
                    let mut scorer = Scorer::new(settings);
                    loop {
                        let index = next_block.fetch_add(1, Ordering::Relaxed);
                        let Some(block) = blocks.get(index) else {
                            return Ok(());
                        };
                        let done = scorer.block(block);
                        writer
                            .lock()
                            .map_err(|_| std::io::Error::other("output lock poisoned"))?
                            .put(index, done, blocks.len())?;
                    }
                })
            })
            .collect();
        for worker in workers {
            worker
                .join()
                .map_err(|_| std::io::Error::other("a rescoring thread panicked"))??;
        }
        Ok(())
    })?;
    let mut writer = writer
        .into_inner()
        .map_err(|_| std::io::Error::other("output lock poisoned"))?;
    writer.out.flush()?;
    Ok(writer.summary)
}

/// A finished block: its text and its counts.
struct Done {
    text: String,
    summary: Summary,
}

/// Writes blocks in their input order whatever order the threads finish them in.
struct InOrder<W: Write> {
    out: W,
    next: usize,
    waiting: BTreeMap<usize, Done>,
    summary: Summary,
}

impl<W: Write> InOrder<W> {
    fn put(&mut self, index: usize, done: Done, total: usize) -> std::io::Result<()> {
        self.waiting.insert(index, done);
        while let Some(done) = self.waiting.remove(&self.next) {
            self.out.write_all(done.text.as_bytes())?;
            self.summary.kept += done.summary.kept;
            self.summary.noisy += done.summary.noisy;
            self.summary.invalid += done.summary.invalid;
            self.next += 1;
            if self.next.is_multiple_of(100) || self.next == total {
                self.out.flush()?;
                log::info!(
                    "rescore: {} of {total} blocks, {:?}",
                    self.next,
                    self.summary
                );
            }
        }
        Ok(())
    }
}

/// A searcher and its table, reused from block to block.
struct Scorer<'a> {
    settings: &'a Settings,
    searcher: Searcher,
    tt: Arc<TranspositionTable>,
}

impl<'a> Scorer<'a> {
    fn new(settings: &'a Settings) -> Scorer<'a> {
        let tt = TranspositionTable::new(settings.hash_mb)
            .or_else(|_| TranspositionTable::new(16))
            .expect("a 16 MB table");
        Scorer {
            settings,
            searcher: Searcher::new(Arc::new(SearchControl::default())),
            tt: Arc::new(tt),
        }
    }

    fn block(&mut self, lines: &[&str]) -> Done {
        self.tt.clear();
        self.searcher.clear();
        let mut done = Done {
            text: String::new(),
            summary: Summary::default(),
        };
        for line in lines {
            match self.line(line) {
                Some(Some(rescored)) => {
                    done.text.push_str(&rescored);
                    done.text.push('\n');
                    done.summary.kept += 1;
                }
                Some(None) => done.summary.noisy += 1,
                None => done.summary.invalid += 1,
            }
        }
        done
    }

    /// The line with its new score; `Some(None)` when the position is no longer quiet, `None`
    /// when the line is invalid.
    fn line(&mut self, line: &str) -> Option<Option<String>> {
        let sample = data::parse(line)?;
        let (game, _) = Game::from_fen(sample.fen).ok()?;
        if game.pos().is_game_over() {
            return None;
        }
        let outcome = self
            .searcher
            .run_nodes(&game, self.settings.nodes, &self.tt);
        let pos = game.pos();
        if !outcome
            .best
            .is_some_and(|best| is_labelled(pos, best, outcome.score))
        {
            return Some(None);
        }
        let white = white_view(pos, outcome.score);
        Some(Some(data::line(sample.fen, white, sample.result_text)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `Write` whose bytes stay readable after the run.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| std::io::Error::other("poisoned"))?
                .extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn rescore(text: &str, threads: usize) -> (String, Summary) {
        let sink = Shared::default();
        let settings = Settings {
            nodes: 2000,
            threads,
            hash_mb: 1,
        };
        let summary = run(text, &settings, Box::new(sink.clone())).expect("in-memory output");
        let bytes = sink.0.lock().expect("not poisoned").clone();
        (String::from_utf8(bytes).expect("UTF-8"), summary)
    }

    #[test]
    fn a_quiet_position_keeps_its_fen_and_result_and_gets_white_s_new_score() {
        // Black to move, a queen down: the new score must be White's, clearly positive.
        let line = "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3 | 0 | 1.0";
        let (text, summary) = rescore(line, 1);
        let fields: Vec<&str> = text.trim().split(" | ").collect();
        assert_eq!(summary.kept, 1, "{text}");
        assert_eq!(
            fields[0],
            "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
        );
        assert!(fields[1].parse::<i32>().is_ok_and(|s| s > 500), "{text}");
        assert_eq!(fields[2], "1.0");
    }

    #[test]
    fn a_position_whose_best_move_captures_is_left_out() {
        // White's queen takes the undefended rook on a8.
        let line = "r3k3/8/8/8/8/8/8/Q3K3 w - - 0 1 | 0 | 0.5";
        let (text, summary) = rescore(line, 1);
        assert_eq!(text, "");
        assert_eq!(
            summary,
            Summary {
                kept: 0,
                noisy: 1,
                invalid: 0
            }
        );
    }

    #[test]
    fn bad_lines_are_counted_not_written() {
        let text = "not a fen | 0 | 0.5\n\
                    8/8/8/8/8/8/8/K6k w - - 0 1 | x | 0.5\n\
                    8/8/8/8/8/8/8/K6k w - - 0 1 | 0 | 2\n\
                    8/8/8/8/8/8/8/K6k w - - 0 1 | 0\n";
        let (out, summary) = rescore(text, 1);
        assert_eq!(out, "");
        assert_eq!(
            summary,
            Summary {
                kept: 0,
                noisy: 0,
                invalid: 4
            }
        );
    }

    #[test]
    fn two_threads_write_what_one_writes_in_the_same_order() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "8/5k2/8/3K4/8/8/5P2/8 w - - 0 1",
        ];
        // More than two blocks, so the threads share them.
        let text: String = (0..3 * BLOCK)
            .map(|i| format!("{} | 0 | 0.5\n", fens[i % fens.len()]))
            .collect();
        assert_eq!(rescore(&text, 1), rescore(&text, 2));
    }
}

//! Command line: UCI by default, plus `bench`, `perft`, `pv-check`, `datagen`, `rescore`,
//! `tune` and `train`.

use std::fs::File;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Parser, Subcommand};

use pivot::engine::Engine;
use pivot::game::Game;
use pivot::nnue::{self, train};
use pivot::uci::fmt::uci_move;
use pivot::{bench, datagen, frontend, perft, pvcheck, rescore, tune};

/// Pivot, a UCI chess engine. With no subcommand it speaks UCI on stdin/stdout.
#[derive(Parser)]
#[command(name = "pivot", version, about, long_about = None)]
struct Cli {
    /// Record every UCI line in and out, with timestamps, in this file (RUST_LOG sets the
    /// level; without this option logging goes to stderr and is off unless RUST_LOG is set).
    #[arg(long, global = true, value_name = "PATH")]
    log_file: Option<PathBuf>,

    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Search the built-in positions to a fixed depth; the last line is `<nodes> nodes <nps> nps`.
    Bench {
        /// Search depth for every position.
        #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Do not search the previous iteration's PV first (to measure what follow-PV saves).
        #[arg(long)]
        no_follow_pv: bool,
    },
    /// Audit Pivot's principal variations on an EPD file: every move legal, exact lines as long
    /// as their depth, final PVs whose leaf evaluation reproduces the score, mates that mate.
    PvCheck {
        /// EPD (or FEN) file, one position per line.
        epd: PathBuf,
        /// Search each position to this depth.
        #[arg(long, conflicts_with = "movetime")]
        depth: Option<u32>,
        /// Search each position for this many milliseconds instead.
        #[arg(long)]
        movetime: Option<u64>,
        /// Hash table size in MB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// Play self-play games at a fixed node count per move and write their quiet positions as
    /// `FEN | score | result` lines (White's point of view), for `tune`.
    Datagen {
        /// Output file.
        #[arg(long, short)]
        out: PathBuf,
        /// Number of games.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Nodes searched per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Seed of the random opening moves (the same seed plays the same games).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// EPD or FEN file of opening positions (default: the start position).
        #[arg(long)]
        book: Option<PathBuf>,
        /// Random legal moves played after the opening position.
        #[arg(long, default_value_t = 4)]
        random_plies: u32,
        /// Skip openings whose first search scores beyond this many centipawns.
        #[arg(long, default_value_t = 300)]
        max_opening_score: i32,
    },
    /// Search every position of `datagen` files again at a fixed node count and write them back
    /// with the new scores (in input order; positions whose best move is no longer quiet are
    /// left out), so `train` can learn from deeper searches than the games had.
    Rescore {
        /// Data files of `FEN | score | result` lines.
        #[arg(required = true)]
        data: Vec<PathBuf>,
        /// Output file.
        #[arg(long, short)]
        out: PathBuf,
        /// Nodes searched per position.
        #[arg(long, default_value_t = 20000)]
        nodes: u64,
        /// Positions searched at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Hash table size in MB, per thread.
        #[arg(long, default_value_t = 16)]
        hash: usize,
    },
    /// Fit the evaluation weights to game results in `datagen` files and write them as Rust
    /// source (src/eval/weights.rs) to rebuild with.
    Tune {
        /// Data files of `FEN | score | result` lines.
        #[arg(required = true)]
        data: Vec<PathBuf>,
        /// Where to write the new weights.
        #[arg(long, short)]
        out: PathBuf,
        /// Full passes over the data.
        #[arg(long, default_value_t = 500)]
        epochs: usize,
        /// Adam step size, in centipawns.
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
        /// Pull of each weight towards its current value (L2), which keeps rarely seen terms
        /// from drifting.
        #[arg(long, default_value_t = 1e-6)]
        l2: f64,
        /// Worker threads for the gradient.
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
    /// Train the evaluation network on `datagen` files and write it in Pivot's network format
    /// (src/nnue/pivot.nnue is the one built in).
    Train {
        /// Data files of `FEN | score | result` lines.
        #[arg(required = true)]
        data: Vec<PathBuf>,
        /// Where to write the network.
        #[arg(long, short)]
        out: PathBuf,
        /// Full passes over the data.
        #[arg(long, default_value_t = 15)]
        epochs: usize,
        /// Positions per gradient step.
        #[arg(long, default_value_t = 16384)]
        batch: usize,
        /// Adam step size (it drops to 30% at 60% of the epochs, and again at 85%).
        #[arg(long, default_value_t = 0.003)]
        rate: f32,
        /// Weight of the game's result in each target, against the search score's (0 to 1).
        #[arg(long, default_value_t = 0.0)]
        result_weight: f32,
        /// Also train on each position without castling rights mirrored left to right.
        #[arg(long)]
        mirror: bool,
        /// Worker threads for the gradient.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Seed of the initial weights and of the shuffling.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Start from this network's weights instead of random ones (e.g. src/nnue/pivot.nnue,
        /// to keep what it learned from data no longer at hand). A narrower network is widened
        /// to this build's hidden size: new neurons start with zero output weights.
        #[arg(long, value_name = "NETWORK")]
        init: Option<PathBuf>,
    },
    /// Count legal move sequences to DEPTH, split by first move.
    Perft {
        /// Number of plies.
        depth: u32,
        /// Position to start from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
    },
}

fn init_logging(log_file: Option<&PathBuf>) -> Result<(), String> {
    let default_level = if log_file.is_some() { "debug" } else { "off" };
    let mut builder =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(default_level));
    builder.format_timestamp_millis();
    if let Some(path) = log_file {
        let file = File::options()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open log file {}: {e}", path.display()))?;
        builder.target(env_logger::Target::Pipe(Box::new(file)));
    }
    builder.try_init().map_err(|e| e.to_string())
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = init_logging(cli.log_file.as_ref()) {
        eprintln!("pivot: {e}");
        std::process::exit(2);
    }
    match cli.command {
        None => {
            let mut engine = Engine::new();
            frontend::run(&mut engine);
        }
        Some(Cmd::Bench {
            depth,
            no_follow_pv,
        }) => {
            let result = bench::run(depth, !no_follow_pv);
            println!(
                "{} positions, depth {depth}, {} ms",
                bench::POSITIONS.len(),
                result.elapsed.as_millis()
            );
            println!("{} nodes {} nps", result.nodes, result.nps());
        }
        Some(Cmd::PvCheck {
            epd,
            depth,
            movetime,
            hash,
        }) => {
            let budget = match (depth, movetime) {
                (_, Some(ms)) => pvcheck::Budget::MoveTimeMs(ms),
                (d, None) => pvcheck::Budget::Depth(d.unwrap_or(10)),
            };
            let text = std::fs::read_to_string(&epd).unwrap_or_else(|e| {
                eprintln!("pivot: cannot read {}: {e}", epd.display());
                std::process::exit(2);
            });
            match pvcheck::run(&text, budget, hash) {
                Ok(audit) => {
                    println!("pv-check {} ({budget:?})", epd.display());
                    for line in audit.summary() {
                        println!("{line}");
                    }
                    for example in &audit.examples {
                        println!("  {example}");
                    }
                }
                Err(e) => {
                    eprintln!("pivot: {e}");
                    std::process::exit(2);
                }
            }
        }
        Some(Cmd::Datagen {
            out,
            games,
            nodes,
            seed,
            threads,
            book,
            random_plies,
            max_opening_score,
        }) => run_datagen(
            out,
            datagen::Settings {
                games,
                nodes,
                seed,
                threads,
                random_plies,
                openings: Vec::new(),
                max_opening_score,
                hash_mb: 16,
            },
            book,
        ),
        Some(Cmd::Rescore {
            data,
            out,
            nodes,
            threads,
            hash,
        }) => run_rescore(
            &data,
            &out,
            &rescore::Settings {
                nodes,
                threads,
                hash_mb: hash,
            },
        ),
        Some(Cmd::Tune {
            data,
            out,
            epochs,
            rate,
            l2,
            threads,
        }) => run_tune(
            &data,
            &out,
            tune::Schedule {
                epochs,
                rate,
                l2,
                threads,
                every: 50,
            },
        ),
        Some(Cmd::Train {
            data,
            out,
            epochs,
            batch,
            rate,
            result_weight,
            mirror,
            threads,
            seed,
            init,
        }) => {
            if !(0.0..=1.0).contains(&result_weight) {
                fail(format!(
                    "--result-weight must lie in 0..1, not {result_weight}"
                ));
            }
            run_train(
                &data,
                &out,
                result_weight,
                mirror,
                train::Settings {
                    epochs,
                    batch,
                    rate,
                    threads,
                    seed,
                    init: init.map(|path| {
                        let bytes = std::fs::read(&path).unwrap_or_else(|e| {
                            fail(format!("cannot read {}: {e}", path.display()))
                        });
                        nnue::file::decode_weights(&bytes)
                            .and_then(|w| train::FloatNet::from_weights(&w, seed))
                            .unwrap_or_else(|e| fail(format!("{}: {e}", path.display())))
                    }),
                },
            )
        }
        Some(Cmd::Perft { depth, fen }) => {
            let game = match fen {
                None => Game::default(),
                Some(fen) => match Game::from_fen_in(&fen, pivot::game::castling_mode_of(&fen)) {
                    Ok((game, warnings)) => {
                        for w in warnings {
                            eprintln!("warning: {w}");
                        }
                        game
                    }
                    Err(e) => {
                        eprintln!("pivot: {e}");
                        std::process::exit(2);
                    }
                },
            };
            let started = Instant::now();
            let parts = perft::divide(game.pos(), depth);
            for (m, n) in &parts {
                println!("{}: {n}", uci_move(*m, game.castling()));
            }
            let total: u64 = if depth == 0 {
                1
            } else {
                parts.iter().map(|p| p.1).sum()
            };
            let ms = started.elapsed().as_millis();
            println!();
            println!("Nodes: {total}");
            println!("Time: {ms} ms");
        }
    }
}

/// Prints `message` to stderr and exits with status 2.
fn fail(message: String) -> ! {
    eprintln!("pivot: {message}");
    std::process::exit(2);
}

fn run_datagen(out: PathBuf, mut settings: datagen::Settings, book: Option<PathBuf>) {
    if let Some(book) = book {
        let text = std::fs::read_to_string(&book)
            .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", book.display())));
        // An EPD line is a FEN's first four fields plus operations; keep the four.
        settings.openings = text
            .lines()
            .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" "))
            .filter(|fen| Game::from_fen(fen).is_ok())
            .collect();
        if settings.openings.is_empty() {
            fail(format!("no valid position in {}", book.display()));
        }
    }
    let file = File::create(&out)
        .unwrap_or_else(|e| fail(format!("cannot create {}: {e}", out.display())));
    let started = Instant::now();
    match datagen::run(&settings, Box::new(file)) {
        Ok(s) => println!(
            "{} games ({} white wins, {} black wins, {} draws), {} positions in {} s",
            s.games,
            s.white_wins,
            s.black_wins,
            s.draws,
            s.positions,
            started.elapsed().as_secs()
        ),
        Err(e) => fail(format!("writing {}: {e}", out.display())),
    }
}

fn run_rescore(data: &[PathBuf], out: &PathBuf, settings: &rescore::Settings) {
    let mut text = String::new();
    for path in data {
        let part = std::fs::read_to_string(path)
            .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", path.display())));
        text.push_str(&part);
        if !text.ends_with('\n') {
            text.push('\n');
        }
    }
    let file =
        File::create(out).unwrap_or_else(|e| fail(format!("cannot create {}: {e}", out.display())));
    let started = Instant::now();
    match rescore::run(&text, settings, Box::new(file)) {
        Ok(s) => println!(
            "{} positions rescored, {} no longer quiet, {} invalid lines, in {} s",
            s.kept,
            s.noisy,
            s.invalid,
            started.elapsed().as_secs()
        ),
        Err(e) => fail(format!("writing {}: {e}", out.display())),
    }
}

fn run_train(
    data: &[PathBuf],
    out: &PathBuf,
    result_weight: f32,
    mirror: bool,
    settings: train::Settings,
) {
    let mut positions = train::Data::default();
    let mut skipped = train::Skipped::default();
    for path in data {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", path.display())));
        positions.load(&text, result_weight, mirror, &mut skipped);
    }
    println!(
        "{} positions ({} malformed, {} in check skipped)",
        positions.len(),
        skipped.malformed,
        skipped.in_check
    );
    if positions.is_empty() {
        fail("no usable position".to_string());
    }
    println!(
        "error of the hand-crafted evaluation on the same targets {:.6}",
        positions.classical_error()
    );
    if let Some(init) = &settings.init {
        println!(
            "validation error of the starting network {:.6}",
            train::validation_error(init, &positions)
        );
    }
    let started = Instant::now();
    let net = train::train(&positions, &settings, |e| {
        println!(
            "epoch {} rate {:.6} train {:.6} validation {:.6} ({} s)",
            e.epoch,
            e.rate,
            e.train_error,
            e.validation_error,
            started.elapsed().as_secs()
        );
    });
    std::fs::write(out, nnue::file::encode(&net.quantize()))
        .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", out.display())));
    println!("wrote {}", out.display());
}

fn run_tune(data: &[PathBuf], out: &PathBuf, plan: tune::Schedule) {
    let mut samples = Vec::new();
    let mut skipped = tune::Skipped::default();
    for path in data {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", path.display())));
        tune::load(&text, &mut samples, &mut skipped);
    }
    println!(
        "{} positions ({} malformed, {} in check, {} with a winning capture skipped)",
        samples.len(),
        skipped.malformed,
        skipped.in_check,
        skipped.tactical
    );
    if samples.is_empty() {
        fail("no usable position".to_string());
    }
    let k = tune::fit_k(&samples);
    let before = tune::current_error(&samples, k);
    println!("K = {k:.4}, error of the current weights {before:.6}");
    let weights = tune::tune(&samples, k, &plan, |e| {
        println!("epoch {} error {:.6}", e.epoch, e.error);
    });
    let provenance = format!(
        "Fitted by `pivot tune` on {} positions ({} epochs, rate {}, L2 {}, K {k:.4}).",
        samples.len(),
        plan.epochs,
        plan.rate,
        plan.l2
    );
    std::fs::write(out, tune::render(&weights, &provenance))
        .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", out.display())));
    println!("wrote {}", out.display());
}

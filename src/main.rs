//! The engine binary: UCI by default, plus `bench`, `perft`, `pv-check` and `tunables` (the
//! training pipeline is the separate `pivot-tools`).

use std::fs::File;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Parser, Subcommand};

use pivot::game::Game;
use pivot::search::params;
use pivot::uci::Session;
use pivot::uci::fmt::uci_move;
use pivot::{bench, frontend, perft, pvcheck};

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
        /// Also report and audit a refutation line for every root move after each depth, as
        /// UCI_ShowRefutations does.
        #[arg(long)]
        refutations: bool,
    },
    /// List the search's tunable parameters, one a line in OpenBench's SPSA input format:
    /// `name, int, value, min, max, step, 0.002`. A build with `--features tune` takes each as a
    /// UCI option of that name (scripts/spsa.py tunes them).
    Tunables,
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
        fail(e);
    }
    match cli.command {
        None => {
            let mut session = Session::new();
            frontend::run(&mut session);
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
            refutations,
        }) => {
            let budget = match (depth, movetime) {
                (_, Some(ms)) => pvcheck::Budget::MoveTimeMs(ms),
                (d, None) => pvcheck::Budget::Depth(d.unwrap_or(10)),
            };
            let text = std::fs::read_to_string(&epd)
                .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", epd.display())));
            match pvcheck::run(&text, budget, hash, refutations) {
                Ok(audit) => {
                    println!("pv-check {} ({budget:?})", epd.display());
                    for line in audit.summary() {
                        println!("{line}");
                    }
                    for example in &audit.examples {
                        println!("  {example}");
                    }
                }
                Err(e) => fail(e),
            }
        }
        Some(Cmd::Tunables) => {
            for t in params::TUNABLES {
                println!(
                    "{}, int, {}, {}, {}, {}, 0.002",
                    t.name,
                    t.get(),
                    t.min,
                    t.max,
                    t.step
                );
            }
            if !params::TUNING_BUILD {
                eprintln!(
                    "note: this build has them fixed; build with --features tune to set them"
                );
            }
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
                    Err(e) => fail(e),
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

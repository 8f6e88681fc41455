//! `pivot-tools`: Pivot's training pipeline on the command line: `datagen`, `rescore`,
//! `split`, `lookahead` and `train`. (The engine binary, `pivot`, holds only what a player or a
//! tester uses.)

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Parser, Subcommand};

use pivot::game::Game;
use pivot::nnue;
use pivot_tools::{data, datagen, lookahead, rescore, split, train};

/// Pivot's training pipeline: self-play data, rescoring, and network training.
#[derive(Parser)]
#[command(name = "pivot-tools", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Play self-play games at a fixed node count per move and write their quiet positions as
    /// `FEN | score | result` lines (White's point of view), for `train`.
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
    /// Cut a `datagen` round into a training file and a held-out file of whole games (the last
    /// games that cover at least `--hold` lines), for `train --validate`.
    Split {
        /// The round's data file.
        data: PathBuf,
        /// Lines held out, at least.
        #[arg(long, default_value_t = 40_000)]
        hold: usize,
        /// Where the training part goes (default: beside DATA, `_train` added to its name).
        #[arg(long)]
        train: Option<PathBuf>,
        /// Where the held-out part goes (default: beside DATA, `_valid` added to its name).
        #[arg(long)]
        valid: Option<PathBuf>,
    },
    /// Replace each position's score by a blend of the scores its game went on to reach (a
    /// temporal-difference target, TD(λ)): the search score of each later position of the same
    /// game weighted λ per ply further on, averaged as expected results.
    Lookahead {
        /// A `datagen` round (whole games in played order).
        data: PathBuf,
        /// Output file.
        #[arg(long, short)]
        out: PathBuf,
        /// Weight of a score one ply further on (0: the search scores as they are; 1: the mean
        /// of the rest of the game).
        #[arg(long, default_value_t = 0.75)]
        lambda: f64,
    },
    /// Train the evaluation network on `datagen` files and write it in Pivot's network format
    /// (the engine's src/nnue/pivot.nnue is the one built in).
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
        /// Give the network king buckets: one set of input weights per region of the own
        /// king's square (none, halves, four, eight, twelve, sixteen, twenty, twenty-four; see
        /// the README). Each bucket starts from the `--init` network's inputs, so training
        /// starts from its evaluation. A network that has king buckets keeps its own, or splits
        /// them into a finer layout (`four` into `eight`, `eight` into `twelve` or `sixteen`,
        /// `twelve` into `sixteen`, `sixteen` into `twenty`, `twenty` into `twenty-four`: each
        /// new bucket copies the one it lies in).
        #[arg(long, value_name = "LAYOUT")]
        king_buckets: Option<String>,
        /// Grow king buckets as a part all buckets share (the `--init` network's inputs,
        /// trained on every position) plus each bucket's own part (starting at zero, trained on
        /// its own positions), added up when the network is written; without this flag each
        /// bucket starts as a copy and learns from its own positions alone.
        #[arg(long, requires = "king_buckets")]
        shared_king_inputs: bool,
        /// Keep each king bucket's own input weights as `--init` has them and train only the
        /// rest: the shared part of `--shared-king-inputs` (then a correction every bucket
        /// learns from every position), the biases and the output layers. For refining a
        /// bucketed network on less data than its buckets can learn from one by one.
        #[arg(long, requires = "init")]
        freeze_king_buckets: bool,
        /// Pull the weights towards the `--init` network's at each step, `rate × anchor` of the
        /// way (L2-SP, decoupled as in AdamW; 0: none): a prior for refining a network on less
        /// data than made it.
        #[arg(long, default_value_t = 0.0, requires = "init")]
        anchor: f32,
        /// Give the network a second layer of N neurons per output bucket (1 to 64) beside its
        /// output layer, if it has none: their output weights start at zero, so training
        /// starts from the `--init` network's evaluation.
        #[arg(long, value_name = "N")]
        head: Option<usize>,
        /// Adam step size of the second layer's weights (default: ten times `--rate`, for a
        /// layer that starts from nothing while the rest is refined).
        #[arg(long)]
        head_rate: Option<f32>,
        /// Measure the validation error on the positions of this file (as they are, not
        /// mirrored; repeat the option for several) instead of holding out the last 2% of the
        /// data: candidates trained on different data then compare on the same positions.
        #[arg(long, value_name = "FILE")]
        validate: Vec<PathBuf>,
    },
}

/// Progress goes to stderr through `log` (RUST_LOG sets the level; `info` by default).
fn init_logging() -> Result<(), String> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .format_timestamp_millis()
        .try_init()
        .map_err(|e| e.to_string())
}

fn main() {
    if let Err(e) = init_logging() {
        fail(e);
    }
    match Cli::parse().command {
        Cmd::Datagen {
            out,
            games,
            nodes,
            seed,
            threads,
            book,
            random_plies,
            max_opening_score,
        } => run_datagen(
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
        Cmd::Rescore {
            data,
            out,
            nodes,
            threads,
            hash,
        } => run_rescore(
            &data,
            &out,
            &rescore::Settings {
                nodes,
                threads,
                hash_mb: hash,
            },
        ),
        Cmd::Split {
            data,
            hold,
            train,
            valid,
        } => {
            let beside = |suffix: &str| {
                let mut name = data.file_stem().unwrap_or_default().to_owned();
                name.push(suffix);
                data.with_file_name(name)
            };
            let train = train.unwrap_or_else(|| beside("_train.txt"));
            let valid = valid.unwrap_or_else(|| beside("_valid.txt"));
            run_split(&data, hold, &train, &valid)
        }
        Cmd::Lookahead { data, out, lambda } => {
            if !(0.0..=1.0).contains(&lambda) {
                fail(format!("--lambda must lie in 0..1, not {lambda}"));
            }
            run_lookahead(&data, &out, lambda)
        }
        Cmd::Train {
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
            king_buckets,
            shared_king_inputs,
            freeze_king_buckets,
            anchor,
            head,
            head_rate,
            validate,
        } => {
            if !(anchor >= 0.0 && anchor.is_finite()) {
                fail(format!("--anchor must be 0 or more, not {anchor}"));
            }
            if !(0.0..=1.0).contains(&result_weight) {
                fail(format!(
                    "--result-weight must lie in 0..1, not {result_weight}"
                ));
            }
            run_train(
                &data,
                &validate,
                &out,
                result_weight,
                mirror,
                train::Settings {
                    epochs,
                    batch,
                    rate,
                    threads,
                    seed,
                    init: starting_network(
                        init,
                        king_buckets.as_deref(),
                        shared_king_inputs,
                        head,
                        seed,
                    ),
                    freeze_king_buckets,
                    anchor,
                    head_rate: head_rate.unwrap_or(10.0 * rate),
                },
            )
        }
    }
}

/// The network training starts from: `init`'s weights (or, with a king layout or a second
/// layer alone, random ones), given the king buckets of `layout` if it names any (`shared`:
/// factored, see [`train::FloatNet::with_king_buckets`]) and a second layer of `head`
/// neurons if it asks for one.
fn starting_network(
    init: Option<PathBuf>,
    layout: Option<&str>,
    shared: bool,
    head: Option<usize>,
    seed: u64,
) -> Option<train::FloatNet> {
    let net = init.map(|path| {
        let bytes = std::fs::read(&path)
            .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", path.display())));
        float_network(&bytes, seed, &path)
    });
    let net = with_layout(net, layout, shared, seed);
    let Some(head) = head else {
        return net;
    };
    let net = net.unwrap_or_else(|| train::FloatNet::new(seed));
    Some(
        net.with_head(head, seed)
            .unwrap_or_else(|e| fail(format!("--head {head}: {e}"))),
    )
}

/// `net` (or a random network) with the king buckets of `layout`, if it names any.
fn with_layout(
    net: Option<train::FloatNet>,
    layout: Option<&str>,
    shared: bool,
    seed: u64,
) -> Option<train::FloatNet> {
    let Some(layout) = layout else {
        return net;
    };
    let (buckets, map) = train::king_layout(layout).unwrap_or_else(|| {
        fail(format!(
            "--king-buckets {layout}: unknown layout (known: {})",
            train::KING_LAYOUTS
        ))
    });
    let net = net.unwrap_or_else(|| train::FloatNet::new(seed));
    Some(
        net.with_king_buckets(buckets, map, shared)
            .unwrap_or_else(|e| fail(format!("--king-buckets {layout}: {e}"))),
    )
}

/// Prints `message` to stderr and exits with status 2.
fn fail(message: String) -> ! {
    eprintln!("pivot-tools: {message}");
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

fn run_split(data: &PathBuf, hold: usize, train: &PathBuf, valid: &PathBuf) {
    let text = std::fs::read_to_string(data)
        .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", data.display())));
    let lines = finished_lines(&text, data);
    let starts = split::game_starts(&lines).unwrap_or_else(|n| not_data(data, n));
    let Some(cut) = split::cut(&starts, lines.len(), hold) else {
        fail(format!(
            "{}: {} games in {} lines: too few to hold out {hold} lines and train on the rest",
            data.display(),
            starts.len(),
            lines.len()
        ))
    };
    let write = |path: &PathBuf, part: &[&str]| {
        let mut body = part.join("\n");
        body.push('\n');
        std::fs::write(path, body)
            .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", path.display())));
    };
    write(train, &lines[..cut.at]);
    write(valid, &lines[cut.at..]);
    println!(
        "{}: {} lines, {} games; {}: {} lines, {} games",
        train.display(),
        cut.at,
        cut.training_games,
        valid.display(),
        lines.len() - cut.at,
        cut.held_out_games
    );
}

/// The lines of a data round, less an unfinished last one (a datagen run stopped while
/// writing leaves one).
fn finished_lines<'a>(text: &'a str, data: &Path) -> Vec<&'a str> {
    let mut lines: Vec<&str> = text.lines().collect();
    if !text.is_empty() && !text.ends_with('\n') {
        lines.pop();
        eprintln!(
            "pivot-tools: {}: the unfinished last line is left out",
            data.display()
        );
    }
    lines
}

fn not_data(data: &Path, line: usize) -> ! {
    fail(format!(
        "{}: line {line} is not a `FEN | score | result` line with a full FEN",
        data.display()
    ))
}

fn run_lookahead(data: &PathBuf, out: &PathBuf, lambda: f64) {
    let text = std::fs::read_to_string(data)
        .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", data.display())));
    let lines = finished_lines(&text, data);
    let scores = lookahead::blended_scores(&lines, lambda).unwrap_or_else(|n| not_data(data, n));
    let mut body = String::with_capacity(text.len());
    let mut moved = 0usize;
    for (i, (line, &score)) in lines.iter().zip(&scores).enumerate() {
        let sample = data::parse(line).unwrap_or_else(|| not_data(data, i + 1));
        moved += usize::from(score != sample.score);
        body.push_str(&data::line(sample.fen, score, sample.result_text));
        body.push('\n');
    }
    std::fs::write(out, body)
        .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", out.display())));
    println!(
        "{}: {} positions, {} with a new score (lambda {lambda})",
        out.display(),
        lines.len(),
        moved
    );
}

fn run_train(
    data: &[PathBuf],
    validate: &[PathBuf],
    out: &PathBuf,
    result_weight: f32,
    mirror: bool,
    settings: train::Settings,
) {
    let king_map = settings
        .init
        .as_ref()
        .map_or(nnue::NO_KING_BUCKETS, |net| net.king_map());
    let mut positions = train::Data::new(king_map);
    let mut skipped = train::Skipped::default();
    let read = |path: &PathBuf| {
        std::fs::read_to_string(path)
            .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", path.display())))
    };
    for path in data {
        positions.load(&read(path), result_weight, mirror, &mut skipped);
    }
    if positions.is_empty() {
        fail("no usable position".to_string());
    }
    if !validate.is_empty() {
        positions.start_validation();
        for path in validate {
            positions.load(&read(path), result_weight, false, &mut skipped);
        }
        if positions.validation_len() == 0 {
            fail("no usable position in the --validate files".to_string());
        }
    }
    println!(
        "{} positions, {} of them for validation ({} malformed, {} in check skipped)",
        positions.len(),
        positions.validation_len(),
        skipped.malformed,
        skipped.in_check
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
    let bytes = nnue::file::encode(&net.quantize());
    std::fs::write(out, &bytes)
        .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", out.display())));
    println!("wrote {}", out.display());
    // The epochs report the floating-point network; the engine plays the quantized one, and the
    // starting network's figure above is a quantized network's too. Rounding costs a trained
    // network some of its gain, so this is the figure to compare with the starting one.
    let written = float_network(&bytes, settings.seed, out);
    println!(
        "validation error of the written network {:.6}",
        train::validation_error(&written, &positions)
    );
}

/// The network file `bytes` (read from `path`) as a floating-point network to train or measure.
fn float_network(bytes: &[u8], seed: u64, path: &Path) -> train::FloatNet {
    nnue::file::decode_weights(bytes)
        .and_then(|w| train::FloatNet::from_weights(&w, seed))
        .unwrap_or_else(|e| fail(format!("{}: {e}", path.display())))
}

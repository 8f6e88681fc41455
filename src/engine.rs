//! The engine: owns the game, the options, the hash table and the search thread, and carries
//! out each UCI command. The search runs on its own thread, fed over a channel; the front end
//! never waits for it except where the protocol requires the running search to end first.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, unbounded};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, Move, Position};

use crate::bench;
use crate::eval::{mopup, static_eval, wdl};
use crate::game::Game;
use crate::nnue;
use crate::options::{self, OptionChange};
use crate::out;
use crate::perft;
use crate::search::threads::SearchPool;
use crate::search::time::Clock;
use crate::search::{Job, Limits, Reporter, SearchControl};
use crate::tb::{Tablebases, TbSettings};
use crate::tt::TranspositionTable;
use crate::uci::report::UciReport;
use crate::uci::{Command, GoParams, fmt, parse};

/// What the search thread is asked to do.
enum Request {
    /// A search, and where its reports go.
    Go(Box<Job>, Box<dyn Reporter + Send>),
    NewGame,
    Threads(usize),
}

/// Whether the input loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct Engine {
    game: Game,
    tt: Arc<TranspositionTable>,
    hash_mb: usize,
    move_overhead_ms: u64,
    ponder: bool,
    /// `UCI_Chess960`: FENs are read, and castling written, the Chess960 way.
    chess960: bool,
    multipv: usize,
    show_wdl: bool,
    tb: Option<Arc<Tablebases>>,
    tb_settings: TbSettings,
    debug: bool,
    control: Arc<SearchControl>,
    requests: Option<Sender<Request>>,
    finished: Receiver<()>,
    worker: Option<JoinHandle<()>>,
    /// A `go` was sent whose `bestmove` has not been collected yet.
    searching: bool,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    pub fn new() -> Engine {
        let tt =
            Arc::new(TranspositionTable::new(options::HASH_DEFAULT).expect("default hash table"));
        let control = Arc::new(SearchControl::default());
        let (requests, finished, worker) = spawn_worker(Arc::clone(&control));
        Engine {
            game: Game::default(),
            tt,
            hash_mb: options::HASH_DEFAULT,
            move_overhead_ms: options::OVERHEAD_DEFAULT,
            ponder: false,
            chess960: false,
            multipv: options::MULTIPV_DEFAULT,
            show_wdl: false,
            tb: None,
            tb_settings: TbSettings::default(),
            debug: false,
            control,
            requests: Some(requests),
            finished,
            worker: Some(worker),
            searching: false,
        }
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        match parse(line) {
            Ok(Some(command)) => self.handle(command),
            Ok(None) => Flow::Continue,
            Err(message) => {
                out::send(&fmt::info_string(&message));
                Flow::Continue
            }
        }
    }

    pub fn handle(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => {
                out::send(&format!("id name Pivot {}", env!("CARGO_PKG_VERSION")));
                out::send("id author the Pivot developers");
                for line in options::declarations() {
                    out::send(&line);
                }
                out::send("uciok");
            }
            Command::IsReady => out::send("readyok"),
            Command::Debug(on) => self.debug = on,
            Command::Register => {}
            Command::UciNewGame => {
                self.finish_search();
                self.tt.clear();
                self.send_request(Request::NewGame);
            }
            Command::SetOption { name, value } => {
                self.finish_search();
                self.set_option(&name, value.as_deref());
            }
            Command::Position { fen, moves } => {
                self.finish_search();
                self.set_position(fen.as_deref(), &moves);
            }
            Command::Go(params) => {
                self.finish_search();
                self.go(params);
            }
            Command::Stop => {
                self.control.stop.store(true, Ordering::Relaxed);
                self.wake_worker();
            }
            Command::PonderHit => {
                self.control.pondering.store(false, Ordering::Relaxed);
                self.wake_worker();
            }
            Command::Quit => {
                self.finish_search();
                return Flow::Quit;
            }
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Perft(depth) => {
                self.finish_search();
                self.perft(depth);
            }
            Command::Bench(depth) => {
                self.finish_search();
                let result = bench::run(depth.unwrap_or(bench::DEFAULT_DEPTH), true);
                out::send(&fmt::info_string(&format!(
                    "{} nodes {} nps",
                    result.nodes,
                    result.nps()
                )));
            }
        }
        Flow::Continue
    }

    /// Stops the running search, if any, and waits until its `bestmove` has been sent.
    pub fn finish_search(&mut self) {
        if !self.searching {
            return;
        }
        self.control.stop.store(true, Ordering::Relaxed);
        self.wake_worker();
        if self.finished.recv().is_err() {
            log::error!("the search thread ended unexpectedly; starting a new one");
            out::send(&fmt::error(
                "the search thread failed; a new one was started",
            ));
            self.restart_worker();
        }
        self.searching = false;
    }

    /// Ends the search thread (at `quit` or end of input).
    pub fn shutdown(&mut self) {
        self.finish_search();
        self.requests = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }

    /// Wakes the search thread if it is holding a finished search's `bestmove` back.
    fn wake_worker(&self) {
        if let Some(worker) = &self.worker {
            worker.thread().unpark();
        }
    }

    fn send_request(&mut self, request: Request) {
        let sent = self
            .requests
            .as_ref()
            .is_some_and(|r| r.send(request).is_ok());
        if !sent {
            log::error!("the search thread is gone; starting a new one");
            self.restart_worker();
        }
    }

    fn restart_worker(&mut self) {
        let (requests, finished, worker) = spawn_worker(Arc::clone(&self.control));
        self.requests = Some(requests);
        self.finished = finished;
        self.worker = Some(worker);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match options::parse(name, value) {
            Ok(OptionChange::Hash(mb)) => self.resize_hash(mb),
            Ok(OptionChange::ClearHash) => self.tt.clear(),
            Ok(OptionChange::MoveOverhead(ms)) => self.move_overhead_ms = ms,
            Ok(OptionChange::Ponder(on)) => self.ponder = on,
            Ok(OptionChange::MultiPv(n)) => self.multipv = n,
            Ok(OptionChange::Threads(n)) => self.send_request(Request::Threads(n)),
            Ok(OptionChange::ShowWdl(on)) => self.show_wdl = on,
            Ok(OptionChange::SyzygyPath(path)) => self.load_tablebases(&path),
            Ok(OptionChange::SyzygyProbeDepth(d)) => self.tb_settings.probe_depth = d,
            Ok(OptionChange::Syzygy50MoveRule(on)) => self.tb_settings.rule50 = on,
            Ok(OptionChange::SyzygyProbeLimit(n)) => self.tb_settings.probe_limit = n,
            Ok(OptionChange::Chess960(on)) => {
                self.chess960 = on;
                self.game = std::mem::take(&mut self.game).with_castling(self.castling_mode());
            }
            Err(e) => out::send(&fmt::error(&format!("{e}; option unchanged"))),
        }
        log::debug!(
            "options: ponder={} overhead={}",
            self.ponder,
            self.move_overhead_ms
        );
    }

    /// Replaces the hash table, freeing the old one first so memory never holds both. If the
    /// new size cannot be allocated, the old size is restored.
    fn resize_hash(&mut self, mb: usize) {
        self.tt = Arc::new(TranspositionTable::new(0).expect("a one-slot table"));
        match TranspositionTable::new(mb) {
            Ok(tt) => {
                self.tt = Arc::new(tt);
                self.hash_mb = mb;
            }
            Err(e) => {
                out::send(&fmt::error(&format!("{e}; Hash unchanged")));
                let fallback = TranspositionTable::new(self.hash_mb)
                    .or_else(|_| TranspositionTable::new(1))
                    .expect("a one-megabyte table");
                self.tt = Arc::new(fallback);
            }
        }
    }

    /// Loads the Syzygy tables of `path` (empty: none) and says what was found.
    fn load_tablebases(&mut self, path: &str) {
        self.tb = None;
        if path.is_empty() {
            return;
        }
        match Tablebases::open(path) {
            Ok(tables) => {
                out::send(&fmt::info_string(&format!(
                    "Syzygy: {} table files, up to {} pieces, in '{path}'",
                    tables.files(),
                    tables.max_pieces()
                )));
                self.tb = Some(Arc::new(tables));
            }
            Err(e) => out::send(&fmt::error(&format!("{e}; no tablebases in use"))),
        }
    }

    fn castling_mode(&self) -> CastlingMode {
        CastlingMode::from_chess960(self.chess960)
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        let mut game = match fen {
            None => Game::start(self.castling_mode()),
            Some(fen) => match Game::from_fen_in(fen, self.castling_mode()) {
                Ok((game, warnings)) => {
                    for w in warnings {
                        out::send(&fmt::warning(&w));
                    }
                    game
                }
                Err(e) => {
                    out::send(&fmt::error(&format!("{e}; position unchanged")));
                    return;
                }
            },
        };
        for (i, text) in moves.iter().enumerate() {
            if let Err(e) = game.play_uci(text) {
                out::send(&fmt::error(&format!(
                    "{e} (move {} of the list); position set to before it: {}",
                    i + 1,
                    game.fen()
                )));
                break;
            }
        }
        self.game = game;
    }

    fn go(&mut self, params: GoParams) {
        for problem in &params.problems {
            out::send(&fmt::error(problem));
        }
        let pos = self.game.pos();
        let mut searchmoves: Vec<Move> = Vec::new();
        for text in &params.searchmoves {
            match text
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(pos).ok())
            {
                Some(m) => searchmoves.push(m),
                None => out::send(&fmt::error(&format!(
                    "searchmoves: '{text}' is not a legal move here; ignored"
                ))),
            }
        }
        let (time, inc, time_name) = match pos.turn() {
            Color::White => (params.wtime, params.winc, "wtime"),
            Color::Black => (params.btime, params.binc, "btime"),
        };
        // A clock for the other side only: the GUI runs a clock we were not told about, so
        // the safe reading is an empty one (a move at once), never an endless search.
        let time = if time.is_none() && (params.wtime.is_some() || params.btime.is_some()) {
            out::send(&fmt::warning(&format!(
                "go: no '{time_name}' for the side to move; moving at once"
            )));
            Some(0)
        } else {
            time
        };
        let clock = time.map(|time_ms| Clock {
            time_ms,
            inc_ms: inc.unwrap_or(0),
            movestogo: params.movestogo.filter(|&m| m > 0),
        });
        let limits = Limits {
            depth: params.depth,
            nodes: params.nodes,
            mate: params.mate.filter(|&m| m > 0),
            movetime: params.movetime,
            clock,
            infinite: params.infinite,
            ponder: params.ponder,
            searchmoves,
            multipv: self.multipv,
            tb: self.tb.clone(),
            tb_settings: self.tb_settings,
        };
        if self.debug {
            out::send(&fmt::info_string(&format!("go: {limits:?}")));
        }
        self.control.stop.store(false, Ordering::Relaxed);
        self.control
            .pondering
            .store(params.ponder, Ordering::Relaxed);
        self.control
            .infinite
            .store(params.infinite, Ordering::Relaxed);
        let job = Job {
            game: self.game.clone(),
            limits,
            tt: Arc::clone(&self.tt),
            move_overhead_ms: self.move_overhead_ms,
        };
        let report = UciReport::new(self.game.pos(), self.game.castling(), self.show_wdl);
        self.send_request(Request::Go(Box::new(job), Box::new(report)));
        self.searching = true;
    }

    fn display(&self) {
        let board = self.game.pos().board();
        let border = " +---+---+---+---+---+---+---+---+";
        out::send(&fmt::info_string(border));
        for rank in (0..8u32).rev() {
            let mut row = String::from(" |");
            for file in 0..8u32 {
                let sq = shakmaty::Square::from_coords(
                    shakmaty::File::new(file),
                    shakmaty::Rank::new(rank),
                );
                let c = board.piece_at(sq).map_or(' ', |p| p.char());
                row.push_str(&format!(" {c} |"));
            }
            row.push_str(&format!(" {}", rank + 1));
            out::send(&fmt::info_string(&row));
            out::send(&fmt::info_string(border));
        }
        out::send(&fmt::info_string("   a   b   c   d   e   f   g   h"));
        out::send(&fmt::info_string(&format!("Fen: {}", self.game.fen())));
        out::send(&fmt::info_string(&format!("Key: {:016X}", self.game.key())));
        let checkers: Vec<String> = self
            .game
            .pos()
            .checkers()
            .into_iter()
            .map(|s| s.to_string())
            .collect();
        out::send(&fmt::info_string(&format!(
            "Checkers: {}",
            checkers.join(" ")
        )));
    }

    /// The `eval` command: the network's output under each output layer (the piece count
    /// picks one), the bare-king score where it takes over, the win/draw/loss estimate, and
    /// last the static evaluation the search would start from.
    fn eval(&self) {
        let pos = self.game.pos();
        let pieces = pos.board().occupied().count();
        let in_use = nnue::bucket(pieces);
        out::send(&fmt::info_string(&format!(
            "network output by layer, {} to move, {pieces} pieces use layer {}:",
            side_name(pos.turn()),
            in_use + 1
        )));
        for (b, cp) in nnue::network().outputs_by_bucket(pos).iter().enumerate() {
            let mark = if b == in_use { " <-" } else { "" };
            out::send(&fmt::info_string(&format!(
                "layer {}: {cp} cp{mark}",
                b + 1
            )));
        }
        if let Some(cp) = mopup::bare_king(pos) {
            out::send(&fmt::info_string(&format!(
                "a queen or rook against a bare king: mating score {cp} cp replaces the network's"
            )));
        }
        let cp = static_eval(pos);
        let phase = wdl::phase(pos);
        let (w, d, l) = wdl::wdl(cp, phase);
        out::send(&fmt::info_string(&format!(
            "wdl {w} {d} {l} per mille at phase {phase}/{}",
            wdl::FULL_PHASE
        )));
        out::send(&fmt::info_string(&format!("eval {cp} cp (side to move)")));
    }

    fn perft(&self, depth: u32) {
        let started = Instant::now();
        let parts = perft::divide(self.game.pos(), depth);
        let mut total = 0;
        for (m, n) in &parts {
            out::send(&fmt::info_string(&format!(
                "{}: {n}",
                fmt::uci_move(*m, self.game.castling())
            )));
            total += n;
        }
        if depth == 0 {
            total = 1;
        }
        let ms = started.elapsed().as_millis().max(1) as u64;
        out::send(&fmt::info_string(&format!(
            "perft {depth} nodes {total} time {ms} nps {}",
            total * 1000 / ms
        )));
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Starts the search thread: it takes requests in order and answers each `go` with exactly one
/// `bestmove`, then a message on the returned receiver.
fn spawn_worker(control: Arc<SearchControl>) -> (Sender<Request>, Receiver<()>, JoinHandle<()>) {
    let (requests, inbox) = unbounded::<Request>();
    let (done, finished) = unbounded::<()>();
    let worker = thread::Builder::new()
        .name("search".to_string())
        .stack_size(64 * 1024 * 1024)
        .spawn(move || {
            let mut pool = SearchPool::new(Arc::clone(&control));
            for request in inbox {
                match request {
                    Request::Go(job, mut report) => {
                        let outcome = pool.run(*job, report.as_mut());
                        // Under `go infinite` / `go ponder` the answer waits for stop or
                        // ponderhit; the front end unparks this thread when one arrives (the
                        // timeout only guards against a wake-up lost to a restarted thread).
                        while control.must_wait() {
                            thread::park_timeout(Duration::from_millis(50));
                        }
                        report.best_move(outcome.best, outcome.ponder);
                        if done.send(()).is_err() {
                            break;
                        }
                    }
                    Request::NewGame => pool.clear(),
                    Request::Threads(n) => pool.set_threads(n),
                }
            }
        })
        .expect("spawning the search thread");
    (requests, finished, worker)
}

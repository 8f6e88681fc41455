//! The engine: owns the game, the options, the hash table, the tablebases and the search
//! thread. It writes no UCI text: its methods take parsed values and return what the user
//! should be told as [`Notice`]s, and a search reports through the [`Reporter`] that comes
//! with its `go`. The search runs on its own thread, fed over a channel; the caller never
//! waits for it except where the protocol requires the running search to end first.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, unbounded};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, Move, Position};

use crate::game::Game;
use crate::nnue::{self, Network};
use crate::options::{self, OptionChange};
use crate::search::strength::{self, Strength};
use crate::search::threads::SearchPool;
use crate::search::time::Clock;
use crate::search::{Job, Limits, Reporter, SearchControl};
use crate::tb::{Tablebases, TbSettings};
use crate::tt::TranspositionTable;

/// What the search thread is asked to do.
enum Request {
    /// A search, and where its reports go.
    Go(Box<Job>, Box<dyn Reporter + Send>),
    NewGame,
    Threads(usize),
}

/// Something the user should be told, in plain words (the front end decides how).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    Info(String),
    Warning(String),
    Error(String),
}

/// What a `go` asks for, as numbers (from the side to move's and the other side's clock);
/// what could not be read is listed in `problems`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub searchmoves: Vec<String>,
    pub ponder: bool,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub problems: Vec<String>,
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
    show_refutations: bool,
    show_currline: bool,
    /// `UCI_LimitStrength`, `UCI_Elo` and `Skill Level`.
    limit_strength: bool,
    elo: u32,
    skill_level: u32,
    tb: Option<Arc<Tablebases>>,
    tb_settings: TbSettings,
    /// The network searches evaluate with: the built-in one, or the last `EvalFile` loaded.
    network: Arc<Network>,
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
            show_refutations: false,
            show_currline: false,
            limit_strength: false,
            elo: strength::MIN_ELO,
            skill_level: strength::MAX_SKILL,
            tb: None,
            tb_settings: TbSettings::default(),
            network: nnue::embedded(),
            debug: false,
            control,
            requests: Some(requests),
            finished,
            worker: Some(worker),
            searching: false,
        }
    }

    /// The game as it stands (the position to search).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The playing level: `UCI_Elo` with `UCI_LimitStrength` on, else `Skill Level` below 20,
    /// else none (full strength).
    fn strength(&self) -> Option<Strength> {
        if self.limit_strength {
            Some(Strength::from_elo(self.elo))
        } else {
            Strength::from_skill(self.skill_level)
        }
    }

    /// The network searches evaluate with.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// `UCI_ShowWDL`: whether the reports of a search add win/draw/loss estimates.
    pub fn show_wdl(&self) -> bool {
        self.show_wdl
    }

    /// `debug on|off`: with it on, `go` also tells what it asked the search for.
    pub fn set_debug(&mut self, on: bool) {
        self.debug = on;
    }

    /// A new game: the table and the search heuristics are cleared.
    pub fn new_game(&mut self) -> Vec<Notice> {
        let notices = self.finish_search();
        self.tt.clear();
        self.send_request(Request::NewGame);
        notices
    }

    /// Asks the running search, if any, to stop; its best move follows at once.
    pub fn stop(&self) {
        self.control.stop.store(true, Ordering::Relaxed);
        self.wake_worker();
    }

    /// The move being pondered on was played: the search goes on under the clock.
    pub fn ponderhit(&self) {
        self.control.pondering.store(false, Ordering::Relaxed);
        self.wake_worker();
    }

    /// Stops the running search, if any, and waits until its best move has been reported.
    pub fn finish_search(&mut self) -> Vec<Notice> {
        let mut notices = Vec::new();
        if !self.searching {
            return notices;
        }
        self.stop();
        if self.finished.recv().is_err() {
            log::error!("the search thread ended unexpectedly; starting a new one");
            notices.push(Notice::Error(
                "the search thread failed; a new one was started".to_string(),
            ));
            self.restart_worker();
        }
        self.searching = false;
        notices
    }

    /// Ends the search thread (at `quit` or end of input).
    pub fn shutdown(&mut self) {
        let _ = self.finish_search();
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

    /// `setoption`: sets one option (the running search, if any, is finished first).
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Vec<Notice> {
        let mut notices = self.finish_search();
        match options::parse(name, value) {
            Ok(OptionChange::Hash(mb)) => notices.extend(self.resize_hash(mb)),
            Ok(OptionChange::ClearHash) => self.tt.clear(),
            Ok(OptionChange::MoveOverhead(ms)) => self.move_overhead_ms = ms,
            Ok(OptionChange::Ponder(on)) => self.ponder = on,
            Ok(OptionChange::MultiPv(n)) => self.multipv = n,
            Ok(OptionChange::Threads(n)) => self.send_request(Request::Threads(n)),
            Ok(OptionChange::ShowWdl(on)) => self.show_wdl = on,
            Ok(OptionChange::ShowRefutations(on)) => self.show_refutations = on,
            Ok(OptionChange::ShowCurrLine(on)) => self.show_currline = on,
            Ok(OptionChange::LimitStrength(on)) => self.limit_strength = on,
            Ok(OptionChange::Elo(elo)) => self.elo = elo,
            Ok(OptionChange::SkillLevel(level)) => self.skill_level = level,
            Ok(OptionChange::Tunable(i, value)) => crate::search::params::set(i, value),
            Ok(OptionChange::SyzygyPath(path)) => notices.extend(self.load_tablebases(&path)),
            Ok(OptionChange::SyzygyProbeDepth(d)) => self.tb_settings.probe_depth = d,
            Ok(OptionChange::Syzygy50MoveRule(on)) => self.tb_settings.rule50 = on,
            Ok(OptionChange::SyzygyProbeLimit(n)) => self.tb_settings.probe_limit = n,
            Ok(OptionChange::EvalFile(path)) => notices.push(self.load_network(path.as_deref())),
            Ok(OptionChange::Chess960(on)) => {
                self.chess960 = on;
                self.game = std::mem::take(&mut self.game).with_castling(self.castling_mode());
            }
            Err(e) => notices.push(Notice::Error(format!("{e}; option unchanged"))),
        }
        log::debug!(
            "options: ponder={} overhead={}",
            self.ponder,
            self.move_overhead_ms
        );
        notices
    }

    /// Replaces the hash table, freeing the old one first so memory never holds both. If the
    /// new size cannot be allocated, the old size is restored.
    fn resize_hash(&mut self, mb: usize) -> Option<Notice> {
        self.tt = Arc::new(TranspositionTable::new(0).expect("a one-slot table"));
        match TranspositionTable::new(mb) {
            Ok(tt) => {
                self.tt = Arc::new(tt);
                self.hash_mb = mb;
                None
            }
            Err(e) => {
                let fallback = TranspositionTable::new(self.hash_mb)
                    .or_else(|_| TranspositionTable::new(1))
                    .expect("a one-megabyte table");
                self.tt = Arc::new(fallback);
                Some(Notice::Error(format!("{e}; Hash unchanged")))
            }
        }
    }

    /// Switches to the network in the file at `path` (`None`: the built-in one), and clears
    /// the hash table, whose entries hold the old network's evaluations. A file that cannot be
    /// read or is not a network of this build's shape leaves the current one in use.
    fn load_network(&mut self, path: Option<&str>) -> Notice {
        let Some(path) = path else {
            self.network = nnue::embedded();
            self.tt.clear();
            return Notice::Info("EvalFile: using the built-in network".to_string());
        };
        let loaded = std::fs::read(path)
            .map_err(|e| format!("cannot read '{path}': {e}"))
            .and_then(|bytes| {
                nnue::file::decode(&bytes)
                    .map_err(|e| format!("'{path}' is not a network Pivot can use: {e}"))
            });
        match loaded {
            Ok(net) => {
                let shape = net.shape();
                self.network = Arc::new(net);
                self.tt.clear();
                Notice::Info(format!("EvalFile: using the network in '{path}' ({shape})"))
            }
            Err(e) => Notice::Error(format!("EvalFile: {e}; the previous network stays in use")),
        }
    }

    /// Loads the Syzygy tables of `path` (empty: none) and says what was found.
    fn load_tablebases(&mut self, path: &str) -> Option<Notice> {
        self.tb = None;
        if path.is_empty() {
            return None;
        }
        match Tablebases::open(path) {
            Ok(tables) => {
                let found = format!(
                    "Syzygy: {} table files, up to {} pieces, in '{path}'",
                    tables.files(),
                    tables.max_pieces()
                );
                self.tb = Some(Arc::new(tables));
                Some(Notice::Info(found))
            }
            Err(e) => Some(Notice::Error(format!("{e}; no tablebases in use"))),
        }
    }

    fn castling_mode(&self) -> CastlingMode {
        CastlingMode::from_chess960(self.chess960)
    }

    /// `position`: the game from `fen` (the start position if `None`) and `moves`. A bad FEN
    /// leaves the position as it was; an illegal move stops the list there.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Vec<Notice> {
        let mut notices = self.finish_search();
        let mut game = match fen {
            None => Game::start(self.castling_mode()),
            Some(fen) => match Game::from_fen_in(fen, self.castling_mode()) {
                Ok((game, warnings)) => {
                    notices.extend(warnings.into_iter().map(Notice::Warning));
                    game
                }
                Err(e) => {
                    notices.push(Notice::Error(format!("{e}; position unchanged")));
                    return notices;
                }
            },
        };
        for (i, text) in moves.iter().enumerate() {
            if let Err(e) = game.play_uci(text) {
                notices.push(Notice::Error(format!(
                    "{e} (move {} of the list); position set to before it: {}",
                    i + 1,
                    game.fen()
                )));
                break;
            }
        }
        self.game = game;
        notices
    }

    /// `go`: starts a search of the current position (the running one, if any, is finished
    /// first) that reports to `report`; the best move is reported when the search ends (under
    /// `infinite` or `ponder`, not before `stop` or `ponderhit`). What there is to say about
    /// the parameters goes to `tell` before the search starts, so that it comes before any of
    /// the search's own output.
    pub fn go(
        &mut self,
        params: GoParams,
        report: Box<dyn Reporter + Send>,
        tell: impl FnOnce(Vec<Notice>),
    ) {
        let mut notices = self.finish_search();
        notices.extend(params.problems.iter().cloned().map(Notice::Error));
        let pos = self.game.pos();
        let mut searchmoves: Vec<Move> = Vec::new();
        for text in &params.searchmoves {
            match text
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(pos).ok())
            {
                Some(m) => searchmoves.push(m),
                None => notices.push(Notice::Error(format!(
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
            notices.push(Notice::Warning(format!(
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
            show_refutations: self.show_refutations,
            show_currline: self.show_currline,
            strength: self.strength(),
            tb: self.tb.clone(),
            tb_settings: self.tb_settings,
        };
        if self.debug {
            notices.push(Notice::Info(format!("go: {limits:?}")));
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
            network: Arc::clone(&self.network),
        };
        tell(notices);
        self.send_request(Request::Go(Box::new(job), report));
        self.searching = true;
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Starts the search thread: it takes requests in order and answers each `go` with exactly one
/// best move, then a message on the returned receiver.
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

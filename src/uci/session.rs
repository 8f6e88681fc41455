//! A UCI session: each input line parsed into a command, carried out by the [`Engine`], and
//! answered in UCI text on stdout. This is where the protocol's words are: `id`, the option
//! declarations, `readyok`, `info string` for every notice, and (through
//! [`UciReport`]) the search's `info` and `bestmove` lines.

use crate::engine::{Engine, Notice};
use crate::options;
use crate::out;
use crate::uci::report::UciReport;
use crate::uci::{Command, fmt, keyboard, parse};

/// Whether the input loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

#[derive(Default)]
pub struct Session {
    engine: Engine,
}

impl Session {
    pub fn new() -> Session {
        Session::default()
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
        let engine = &mut self.engine;
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
            Command::Debug(on) => engine.set_debug(on),
            Command::Register => {}
            Command::UciNewGame => tell(engine.new_game()),
            Command::SetOption { name, value } => {
                tell(engine.set_option(&name, value.as_deref()));
            }
            Command::Position { fen, moves } => {
                tell(engine.set_position(fen.as_deref(), &moves));
            }
            Command::Go(params) => {
                let game = engine.game();
                let report = UciReport::new(game.pos(), game.castling(), engine.show_wdl());
                engine.go(params, Box::new(report), tell);
            }
            Command::Stop => engine.stop(),
            Command::PonderHit => engine.ponderhit(),
            Command::Quit => {
                tell(engine.finish_search());
                return Flow::Quit;
            }
            Command::Display => keyboard::display(engine.game()),
            Command::Eval => keyboard::eval(engine.game(), engine.network()),
            Command::Perft(depth) => {
                tell(engine.finish_search());
                keyboard::perft(engine.game(), depth);
            }
            Command::Bench(depth) => {
                tell(engine.finish_search());
                keyboard::bench(depth);
            }
        }
        Flow::Continue
    }

    /// Stops the running search, if any, and waits until its `bestmove` has been sent.
    pub fn finish_search(&mut self) {
        tell(self.engine.finish_search());
    }

    /// Ends the search thread (at `quit` or end of input).
    pub fn shutdown(&mut self) {
        self.engine.shutdown();
    }
}

/// Sends each notice as an `info string` line (`error:` and `warning:` prefixed).
fn tell(notices: Vec<Notice>) {
    for notice in notices {
        out::send(&match notice {
            Notice::Info(text) => fmt::info_string(&text),
            Notice::Warning(text) => fmt::warning(&text),
            Notice::Error(text) => fmt::error(&text),
        });
    }
}

//! Parsing one input line into a [`Command`]. Pure: no engine state is touched here.

pub use crate::engine::GoParams;

/// A parsed input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    Register,
    UciNewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `fen: None` is the start position; moves are still text, checked against the position.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    /// `d`: board diagram, FEN and key.
    Display,
    /// `eval`: static evaluation of the current position.
    Eval,
    /// `go perft <depth>`.
    Perft(u32),
    /// `bench [depth]`.
    Bench(Option<u32>),
}

const COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
];

const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// Parses a line. `Ok(None)` for a blank line; `Err` holds a message for `info string`.
/// Unknown tokens before a command are skipped, as the UCI specification asks.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.is_empty() {
        return Ok(None);
    }
    let Some(start) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
        return Err(format!("unknown command: {}", line.trim()));
    };
    let args = &tokens[start + 1..];
    let command = match tokens[start] {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "register" => Command::Register,
        "ucinewgame" => Command::UciNewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "debug" => match args.first() {
            Some(&"on") => Command::Debug(true),
            Some(&"off") => Command::Debug(false),
            _ => return Err("debug: expected 'on' or 'off'".to_string()),
        },
        "bench" => match args.first() {
            None => Command::Bench(None),
            Some(d) => Command::Bench(Some(
                d.parse()
                    .map_err(|_| format!("bench: invalid depth '{d}'"))?,
            )),
        },
        "setoption" => parse_setoption(args)?,
        "position" => parse_position(args)?,
        "go" => parse_go(args)?,
        _ => unreachable!("every entry of COMMANDS is matched"),
    };
    Ok(Some(command))
}

fn parse_setoption(args: &[&str]) -> Result<Command, String> {
    if args.first().map(|t| t.to_ascii_lowercase()) != Some("name".to_string()) {
        return Err("setoption: expected 'setoption name <id> [value <x>]'".to_string());
    }
    let rest = &args[1..];
    let value_at = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let (name, value) = match value_at {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err("setoption: missing option name".to_string());
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(args: &[&str]) -> Result<Command, String> {
    let moves_at = args.iter().position(|t| *t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    let fen = match setup.first() {
        Some(&"startpos") => None,
        Some(&"fen") if setup.len() > 1 => Some(setup[1..].join(" ")),
        Some(&"fen") => return Err("position: missing FEN after 'fen'".to_string()),
        _ => return Err("position: expected 'startpos' or 'fen <FEN>'".to_string()),
    };
    Ok(Command::Position {
        fen,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

/// Reads the number after a `go` keyword. Negative values count as zero; a whole number too
/// large for its field is taken as the field's maximum, with a note.
fn number<T: TryFrom<u128> + Copy + Into<u128>>(
    key: &str,
    text: Option<&&str>,
    max: T,
    problems: &mut Vec<String>,
) -> Option<T> {
    let Some(text) = text else {
        problems.push(format!("go: missing value after '{key}'"));
        return None;
    };
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        problems.push(format!("go: invalid value for '{key}': '{text}'"));
        return None;
    }
    if text.starts_with('-') {
        return T::try_from(0).ok();
    }
    let fits = digits
        .parse::<u128>()
        .ok()
        .filter(|&v| v <= max.into())
        .and_then(|v| T::try_from(v).ok());
    fits.or_else(|| {
        problems.push(format!(
            "go: '{key}' {text} is too large; using {}",
            max.into()
        ));
        Some(max)
    })
}

fn parse_go(args: &[&str]) -> Result<Command, String> {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let value = args.get(i + 1);
        let mut takes_value = true;
        match key {
            "searchmoves" => {
                let end = args[i + 1..]
                    .iter()
                    .position(|t| GO_KEYWORDS.contains(t))
                    .map_or(args.len(), |p| i + 1 + p);
                go.searchmoves = args[i + 1..end].iter().map(|m| m.to_string()).collect();
                i = end;
                continue;
            }
            "ponder" => {
                go.ponder = true;
                takes_value = false;
            }
            "infinite" => {
                go.infinite = true;
                takes_value = false;
            }
            "wtime" => go.wtime = number(key, value, u64::MAX, &mut go.problems),
            "btime" => go.btime = number(key, value, u64::MAX, &mut go.problems),
            "winc" => go.winc = number(key, value, u64::MAX, &mut go.problems),
            "binc" => go.binc = number(key, value, u64::MAX, &mut go.problems),
            "movestogo" => go.movestogo = number(key, value, u64::MAX, &mut go.problems),
            "depth" => go.depth = number(key, value, u32::MAX, &mut go.problems),
            "nodes" => go.nodes = number(key, value, u64::MAX, &mut go.problems),
            "mate" => go.mate = number(key, value, u32::MAX, &mut go.problems),
            "movetime" => go.movetime = number(key, value, u64::MAX, &mut go.problems),
            "perft" => {
                return match value.and_then(|v| v.parse::<u32>().ok()) {
                    Some(d) => Ok(Command::Perft(d)),
                    None => Err("go perft: expected a depth".to_string()),
                };
            }
            _ => {
                go.problems
                    .push(format!("go: ignoring unknown token '{key}'"));
                takes_value = false;
            }
        }
        // A keyword's value is consumed only when it is not itself a keyword.
        i += if takes_value && value.is_some_and(|v| !GO_KEYWORDS.contains(v)) {
            2
        } else {
            1
        };
    }
    Ok(Command::Go(go))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    #[test]
    fn simple_commands_and_whitespace() {
        assert_eq!(ok("uci"), Command::Uci);
        assert_eq!(ok("  isready \r"), Command::IsReady);
        assert_eq!(ok("\tquit"), Command::Quit);
        assert_eq!(ok("debug on"), Command::Debug(true));
        assert_eq!(ok("joho debug off"), Command::Debug(false));
        assert_eq!(parse("   ").unwrap(), None);
        assert_eq!(parse("xboard").unwrap_err(), "unknown command: xboard");
        assert!(parse("debug maybe").is_err());
    }

    #[test]
    fn setoption_names_and_values_may_contain_spaces() {
        assert_eq!(
            ok("setoption name Move Overhead value 100"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            ok("setoption NAME SyzygyPath VALUE /a b/c"),
            Command::SetOption {
                name: "SyzygyPath".into(),
                value: Some("/a b/c".into())
            }
        );
        assert!(parse("setoption Hash 12").is_err());
        assert!(parse("setoption name").is_err());
    }

    #[test]
    fn position_variants() {
        assert_eq!(
            ok("position startpos moves e2e4 e7e5"),
            Command::Position {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
        assert_eq!(
            ok("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1b1"),
            Command::Position {
                fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec!["a1b1".into()]
            }
        );
        assert_eq!(
            ok("position startpos moves"),
            Command::Position {
                fen: None,
                moves: vec![]
            }
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position moves e2e4").is_err());
    }

    #[test]
    fn go_reads_every_parameter() {
        let Command::Go(go) = ok(
            "go searchmoves e2e4 d2d4 ponder wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 depth 7 nodes 9000 mate 3 movetime 500 infinite",
        ) else {
            panic!()
        };
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
        assert!(go.ponder && go.infinite);
        assert_eq!(
            (go.wtime, go.btime, go.winc, go.binc),
            (Some(1000), Some(2000), Some(10), Some(20))
        );
        assert_eq!(
            (go.movestogo, go.depth, go.nodes, go.mate, go.movetime),
            (Some(5), Some(7), Some(9000), Some(3), Some(500))
        );
        assert!(go.problems.is_empty());
        assert_eq!(ok("go perft 3"), Command::Perft(3));
        assert!(parse("go perft x").is_err());
    }

    #[test]
    fn go_with_garbage_numbers_reports_and_keeps_going() {
        let Command::Go(go) = ok("go wtime abc btime -50 depth 99999999999 movetime") else {
            panic!()
        };
        assert_eq!(go.wtime, None);
        assert_eq!(go.btime, Some(0));
        assert_eq!(go.depth, Some(u32::MAX));
        assert_eq!(go.movetime, None);
        assert_eq!(
            go.problems,
            [
                "go: invalid value for 'wtime': 'abc'",
                "go: 'depth' 99999999999 is too large; using 4294967295",
                "go: missing value after 'movetime'"
            ]
        );
        let Command::Go(go) =
            ok("go wtime 99999999999999999999999999999999999999999 winc +5 binc - nodes 1e6")
        else {
            panic!()
        };
        assert_eq!(
            (go.wtime, go.winc, go.binc, go.nodes),
            (Some(u64::MAX), Some(5), None, None)
        );
        assert_eq!(go.problems.len(), 3, "{:?}", go.problems);
        let Command::Go(go) = ok("go depth infinite") else {
            panic!()
        };
        assert!(go.infinite && go.depth.is_none() && go.problems.len() == 1);
    }
}

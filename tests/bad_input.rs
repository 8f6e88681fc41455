//! One test per row of the README's "Bad input" table: each kind of bad input gets the answer
//! the table promises, and the engine keeps working afterwards.

mod common;

use common::{Pivot, bestmove_of, bestmoves, last_pv_line, position, pv_is_legal, pv_of};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

/// The FEN that `d` reports for the current position.
fn current_fen(p: &mut Pivot) -> String {
    p.send("d");
    let lines = p.sync();
    lines
        .iter()
        .find_map(|l| l.strip_prefix("info string Fen: "))
        .unwrap_or_else(|| panic!("no Fen line in {lines:?}"))
        .to_string()
}

/// Sends `line`, then `isready`, and returns what came back in between.
fn reply(p: &mut Pivot, line: &str) -> Vec<String> {
    p.send(line);
    p.sync()
}

/// A `go depth 2` from the current position returns a legal move whose PV is legal from `fen`.
fn still_searches(p: &mut Pivot, fen: &str) {
    p.send("go depth 2");
    let lines = p.read_until("bestmove");
    let (best, _) = bestmove_of(lines.last().unwrap());
    let pv = pv_of(last_pv_line(&lines).expect("a pv line"));
    assert_eq!(pv[0], best, "{lines:?}");
    pv_is_legal(&lenient_position(fen), &pv).unwrap();
}

/// Like [`position`], but also takes the impossible checks that Pivot accepts with a warning.
#[allow(clippy::result_large_err)]
fn lenient_position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .or_else(|e| e.ignore_impossible_check())
        .unwrap()
}

#[test]
fn row_unknown_command_and_xboard_sent_first() {
    let mut p = Pivot::start();
    p.send("xboard");
    p.send("protover 2");
    p.send("hello world");
    p.send("uci");
    let lines = p.read_until("uciok");
    assert_eq!(lines[0], "info string unknown command: xboard");
    assert_eq!(lines[1], "info string unknown command: protover 2");
    assert_eq!(lines[2], "info string unknown command: hello world");
    assert!(lines[3].starts_with("id name Pivot "), "{lines:?}");
    assert_eq!(p.sync(), Vec::<String>::new());
}

#[test]
fn row_known_command_with_malformed_arguments() {
    let mut p = Pivot::start();
    p.send("position startpos moves e2e4");
    for (line, answer) in [
        ("debug maybe", "info string debug: expected 'on' or 'off'"),
        (
            "setoption Hash 12",
            "info string setoption: expected 'setoption name <id> [value <x>]'",
        ),
        (
            "setoption name",
            "info string setoption: missing option name",
        ),
        (
            "position",
            "info string position: expected 'startpos' or 'fen <FEN>'",
        ),
        (
            "position moves e2e4",
            "info string position: expected 'startpos' or 'fen <FEN>'",
        ),
        (
            "position fen",
            "info string position: missing FEN after 'fen'",
        ),
        ("go perft x", "info string go perft: expected a depth"),
        ("bench fast", "info string bench: invalid depth 'fast'"),
    ] {
        assert_eq!(reply(&mut p, line), [answer], "{line}");
    }
    assert_eq!(current_fen(&mut p), AFTER_E4);
}

/// Each invalid FEN is refused with its reason, and the previous position stays.
fn refused(fen: &str, reason: &str) {
    let mut p = Pivot::start();
    p.send("position startpos moves e2e4");
    assert_eq!(
        reply(&mut p, &format!("position fen {fen}")),
        [format!(
            "info string error: invalid FEN '{fen}': {reason}; position unchanged"
        )]
    );
    assert_eq!(current_fen(&mut p), AFTER_E4);
    still_searches(&mut p, AFTER_E4);
}

#[test]
fn row_fen_that_cannot_be_read() {
    refused("8/8/8 w - - 0 1", "invalid board part in fen");
    refused(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "invalid board part in fen",
    );
    refused(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "invalid turn part in fen",
    );
    refused(
        "4k3/8/8/8/8/8/8/4K3 w XYZ - 0 1",
        "invalid castling part in fen",
    );
    refused("4k3/8/8/8/8/8/8/4K3 w - z9 0 1", "invalid ep square in fen");
    refused(
        "4k3/8/8/8/8/8/8/4K3 w - - -5 1",
        "invalid halfmove clock in fen",
    );
    refused("garbage", "invalid board part in fen");
}

#[test]
fn row_fen_missing_a_king_or_with_two() {
    refused(
        "8/8/8/8/8/8/8/K7 w - - 0 1",
        "illegal position: missing king",
    );
    refused(
        "4k3/8/8/8/8/8/8/4K2K w - - 0 1",
        "illegal position: too many kings",
    );
}

#[test]
fn row_fen_with_too_many_pieces() {
    refused(
        "4k3/8/8/8/8/8/NNNNNNNN/NNNNNNNK w - - 0 1",
        "illegal position: too much material",
    );
    refused(
        "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1",
        "illegal position: too much material",
    );
}

#[test]
fn row_fen_with_pawns_on_the_back_rank() {
    refused(
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "illegal position: pawns on backrank",
    );
    refused(
        "4k3/8/8/8/8/8/8/p3K3 b - - 0 1",
        "illegal position: pawns on backrank",
    );
}

#[test]
fn row_fen_with_the_side_not_to_move_in_check() {
    refused(
        "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
        "illegal position: opposite check",
    );
}

/// Each repairable FEN is used after a warning; `repaired` is its FEN once repaired.
fn repaired(fen: &str, reason: &str, repaired: &str) {
    let mut p = Pivot::start();
    assert_eq!(
        reply(&mut p, &format!("position fen {fen}")),
        [format!(
            "info string warning: FEN '{fen}' repaired: illegal position: {reason}"
        )]
    );
    assert_eq!(current_fen(&mut p), repaired);
    still_searches(&mut p, repaired);
}

#[test]
fn row_fen_with_bad_castling_rights() {
    repaired(
        "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
        "invalid castling rights",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    );
    repaired(
        "r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1",
        "invalid castling rights",
        "r3k2r/8/8/8/8/8/8/R3K1R1 w Qkq - 0 1",
    );
}

#[test]
fn row_fen_with_a_bad_en_passant_square() {
    repaired(
        "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
        "invalid ep square",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    );
    repaired(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 1",
        "invalid ep square",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
    );
}

#[test]
fn row_fen_with_an_impossible_check() {
    repaired(
        "4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1",
        "impossible check",
        "4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1",
    );
}

#[test]
fn row_illegal_or_unparsable_move() {
    let mut p = Pivot::start();
    assert_eq!(
        reply(&mut p, "position startpos moves e2e4 e7e5 e1e3 g1f3"),
        [
            "info string error: illegal move 'e1e3' (move 3 of the list); position set to before it: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        ]
    );
    assert_eq!(
        reply(&mut p, "position startpos moves e2e4 zz9 g1f3"),
        [format!(
            "info string error: unparsable move 'zz9' (move 2 of the list); position set to before it: {AFTER_E4}"
        )]
    );
    assert_eq!(current_fen(&mut p), AFTER_E4);
    still_searches(&mut p, AFTER_E4);
}

#[test]
fn row_option_value_out_of_range_or_of_the_wrong_kind() {
    let mut p = Pivot::start();
    for (line, answer) in [
        (
            "setoption name Hash value 0",
            "info string error: option 'Hash': 0 is out of range (1 to 65536); option unchanged",
        ),
        (
            "setoption name Hash value 99999999999999999999999",
            "info string error: option 'Hash': 99999999999999999999999 is out of range (1 to 65536); option unchanged",
        ),
        (
            "setoption name Hash value -1",
            "info string error: option 'Hash': -1 is out of range (1 to 65536); option unchanged",
        ),
        (
            "setoption name Hash value big",
            "info string error: option 'Hash': 'big' is not a number (1 to 65536); option unchanged",
        ),
        (
            "setoption name Hash",
            "info string error: option 'Hash' needs a value (1 to 65536); option unchanged",
        ),
        (
            "setoption name Move Overhead value 5001",
            "info string error: option 'Move Overhead': 5001 is out of range (0 to 5000); option unchanged",
        ),
        (
            "setoption name Ponder value maybe",
            "info string error: option 'Ponder' takes 'true' or 'false', not 'maybe'; option unchanged",
        ),
    ] {
        assert_eq!(reply(&mut p, line), [answer], "{line}");
    }
    still_searches(&mut p, START_FEN);
}

#[test]
fn row_unknown_option() {
    let mut p = Pivot::start();
    assert_eq!(
        reply(&mut p, "setoption name Foo value 3"),
        ["info string error: unknown option 'Foo'; option unchanged"]
    );
    assert_eq!(
        reply(&mut p, "setoption name No Such Option value 2"),
        ["info string error: unknown option 'No Such Option'; option unchanged"]
    );
    still_searches(&mut p, START_FEN);
}

/// The last line of `eval`: the static evaluation with the network in use.
fn eval_line(p: &mut Pivot) -> String {
    reply(p, "eval").pop().expect("an eval line")
}

#[test]
fn row_evalfile_missing_truncated_or_not_a_network() {
    let dir = std::env::temp_dir().join(format!("pivot-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let network = pivot::nnue::file::encode(pivot::nnue::network());
    let truncated = dir.join("truncated.nnue");
    std::fs::write(&truncated, &network[..network.len() / 2]).unwrap();
    let text = dir.join("notes.txt");
    std::fs::write(&text, "not a network at all").unwrap();
    let missing = dir.join("missing.nnue");

    let mut p = Pivot::start();
    p.send("position startpos moves e2e4");
    let before = eval_line(&mut p);
    for (path, why) in [
        (&missing, "cannot read"),
        (
            &truncated,
            "is not a network Pivot can use: a network of 128 hidden neurons",
        ),
        (
            &text,
            "is not a network Pivot can use: not a Pivot network file",
        ),
    ] {
        let answer = reply(
            &mut p,
            &format!("setoption name EvalFile value {}", path.display()),
        );
        assert_eq!(answer.len(), 1, "{answer:?}");
        let line = &answer[0];
        assert!(
            line.starts_with("info string error: EvalFile: ") && line.contains(why),
            "{line}"
        );
        assert!(
            line.ends_with("; the previous network stays in use"),
            "{line}"
        );
        assert_eq!(eval_line(&mut p), before);
    }
    still_searches(&mut p, AFTER_E4);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn row_a_clock_for_the_other_side_only() {
    let mut p = Pivot::start();
    p.send("position startpos");
    p.send("go btime 5000 binc 100");
    let lines = p.read_until("bestmove");
    assert_eq!(
        lines[0],
        "info string warning: go: no 'wtime' for the side to move; moving at once"
    );
    let (best, _) = bestmove_of(lines.last().unwrap());
    pv_is_legal(&position(START_FEN), &[best]).unwrap();
}

#[test]
fn row_negative_times_count_as_zero() {
    let mut p = Pivot::start();
    p.send("go wtime -100 btime -100 winc -5 binc -5");
    let lines = p.read_until("bestmove");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string")),
        "{lines:?}"
    );
    let (best, _) = bestmove_of(lines.last().unwrap());
    pv_is_legal(&position(START_FEN), &[best]).unwrap();
}

#[test]
fn row_huge_numbers_are_capped_with_a_note() {
    let mut p = Pivot::start();
    p.send("go wtime 99999999999999999999 btime 99999999999999999999 depth 3");
    let lines = p.read_until("bestmove");
    assert_eq!(
        lines[..2],
        [
            "info string error: go: 'wtime' 99999999999999999999 is too large; using 18446744073709551615",
            "info string error: go: 'btime' 99999999999999999999 is too large; using 18446744073709551615",
        ]
    );
    let last = last_pv_line(&lines).unwrap();
    assert!(last.starts_with("info depth 3 "), "{lines:?}");
    // A clock of u64::MAX ms, an increment and a movetime as large: the search keeps going
    // until told to stop, and still answers.
    p.send("go wtime 18446744073709551615 winc 18446744073709551615 movestogo 1");
    p.send("go movetime 18446744073709551615 nodes 18446744073709551615 mate 4294967295");
    p.send("stop");
    let lines = p.read_until("bestmove");
    let lines2 = p.read_until("bestmove");
    assert_eq!(bestmoves(&lines) + bestmoves(&lines2), 2);
    assert!(
        lines
            .iter()
            .chain(&lines2)
            .all(|l| !l.starts_with("info string")),
        "{lines:?} {lines2:?}"
    );
    assert_eq!(p.sync(), Vec::<String>::new());
}

#[test]
fn row_go_value_missing_or_not_a_number() {
    let mut p = Pivot::start();
    p.send("go depth x3 movetime");
    p.send("stop");
    let lines = p.read_until("bestmove");
    assert_eq!(
        lines[..2],
        [
            "info string error: go: invalid value for 'depth': 'x3'",
            "info string error: go: missing value after 'movetime'",
        ]
    );
    p.send("go depth 1e3 nodes 500");
    let lines = p.read_until("bestmove");
    assert_eq!(
        lines[0],
        "info string error: go: invalid value for 'depth': '1e3'"
    );
    assert!(
        common::field(last_pv_line(&lines).unwrap(), "nodes")
            .unwrap()
            .parse::<u64>()
            .unwrap()
            <= 500
    );
}

#[test]
fn row_searchmoves_naming_an_illegal_move() {
    let mut p = Pivot::start();
    p.send("go depth 3 searchmoves e2e5 a2a3");
    let lines = p.read_until("bestmove");
    assert_eq!(
        lines[0],
        "info string error: searchmoves: 'e2e5' is not a legal move here; ignored"
    );
    assert_eq!(bestmove_of(lines.last().unwrap()).0, "a2a3");
}

#[test]
fn row_go_before_any_position_searches_the_start_position() {
    let mut p = Pivot::start();
    p.send("go depth 3");
    let lines = p.read_until("bestmove");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string")),
        "{lines:?}"
    );
    pv_is_legal(&position(START_FEN), &pv_of(last_pv_line(&lines).unwrap())).unwrap();
}

#[test]
fn row_stop_or_ponderhit_when_idle_is_ignored() {
    let mut p = Pivot::start();
    p.send("stop");
    p.send("ponderhit");
    p.send("stop");
    assert_eq!(p.sync(), Vec::<String>::new());
    still_searches(&mut p, START_FEN);
    p.send("stop");
    p.send("ponderhit");
    assert_eq!(p.sync(), Vec::<String>::new());
}

#[test]
fn row_odd_line_endings_and_invalid_utf8() {
    let mut p = Pivot::start();
    p.send_raw(b"position startpos moves e2e4\r\n\tisready\r\n");
    assert_eq!(p.read_until("readyok"), ["readyok"]);
    p.send_raw(b"\xff\xfe junk \xc3\n");
    assert_eq!(
        p.sync(),
        ["info string unknown command: \u{fffd}\u{fffd} junk \u{fffd}"]
    );
    p.send_raw(b"isready\r");
    p.send_raw(b"\n");
    assert_eq!(p.read_until("readyok"), ["readyok"]);
    assert_eq!(current_fen(&mut p), AFTER_E4);
}

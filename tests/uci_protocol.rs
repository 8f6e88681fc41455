//! The UCI conversation, command by command, against the real binary.

mod common;

use std::time::Duration;

use common::{Pivot, bestmove_of, bestmoves, field, last_pv_line, position, pv_is_legal, pv_of};

const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";

#[test]
fn handshake_lists_id_options_and_uciok() {
    let mut p = Pivot::start();
    p.send("uci");
    let lines = p.read_until("uciok");
    assert_eq!(
        lines[0],
        format!("id name Pivot {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines[1].starts_with("id author "));
    assert_eq!(
        &lines[2..],
        &[
            "option name Hash type spin default 16 min 1 max 65536",
            "option name Clear Hash type button",
            "option name Threads type spin default 1 min 1 max 256",
            "option name Move Overhead type spin default 30 min 0 max 5000",
            "option name Ponder type check default false",
            "option name MultiPV type spin default 1 min 1 max 256",
            "option name UCI_Chess960 type check default false",
            "option name UCI_ShowWDL type check default false",
            "option name UCI_ShowRefutations type check default false",
            "option name UCI_ShowCurrLine type check default false",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin default 1320 min 1320 max 3000",
            "option name Skill Level type spin default 20 min 0 max 20",
            "option name SyzygyPath type string default <empty>",
            "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
            "option name Syzygy50MoveRule type check default true",
            "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
            "option name EvalFile type string default <internal>",
            "uciok",
        ]
    );
    assert!(p.sync().is_empty());
}

#[test]
fn crlf_tabs_debug_register_and_newgame_are_accepted_silently() {
    let mut p = Pivot::start();
    p.send_raw(b"uci\r\n");
    p.read_until("uciok");
    p.send_raw(b"  debug   on \r\n\tregister later\r\nucinewgame\r\ndebug off\r\n");
    p.send_raw(b"isready\r\n");
    assert_eq!(p.read_until("readyok"), vec!["readyok"]);
}

#[test]
fn unknown_commands_get_an_info_string_and_the_engine_keeps_working() {
    let mut p = Pivot::start();
    p.send("xboard");
    p.send("protover 2");
    let lines = p.sync();
    assert_eq!(
        lines,
        vec![
            "info string unknown command: xboard",
            "info string unknown command: protover 2"
        ]
    );
    p.send("uci");
    p.read_until("uciok");
}

#[test]
fn go_depth_ends_at_that_depth_and_bestmove_is_the_first_pv_move() {
    let mut p = Pivot::start();
    p.send("position startpos moves e2e4 e7e5");
    p.send("go depth 5");
    let lines = p.read_until("bestmove");
    let last = last_pv_line(&lines).unwrap();
    assert_eq!(field(last, "depth"), Some("5"));
    let pv = pv_of(last);
    let (best, ponder) = bestmove_of(lines.last().unwrap());
    assert_eq!(best, pv[0]);
    assert_eq!(ponder.as_deref(), pv.get(1).map(String::as_str));
    for line in &lines[..lines.len() - 1] {
        assert!(line.starts_with("info depth "), "{line}");
        for key in [
            "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time",
        ] {
            assert!(field(line, key).is_some(), "{key} missing in {line}");
        }
    }
}

#[test]
fn go_nodes_never_searches_more_than_asked() {
    let mut p = Pivot::start();
    p.send("position startpos");
    p.send("go nodes 3000");
    let lines = p.read_until("bestmove");
    for line in lines.iter().filter(|l| l.starts_with("info depth")) {
        let nodes: u64 = field(line, "nodes").unwrap().parse().unwrap();
        assert!(nodes <= 3000, "{line}");
    }
    let (best, _) = bestmove_of(lines.last().unwrap());
    assert_eq!(best, pv_of(last_pv_line(&lines).unwrap())[0]);
}

#[test]
fn go_nodes_one_still_answers_with_a_legal_move() {
    let mut p = Pivot::start();
    p.send("position startpos");
    p.send("go nodes 1");
    let lines = p.read_until("bestmove");
    let (best, _) = bestmove_of(lines.last().unwrap());
    pv_is_legal(
        &position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        &[best],
    )
    .unwrap();
}

#[test]
fn go_movetime_and_go_with_a_clock_return_a_move() {
    let mut p = Pivot::start();
    for (position, go) in [
        ("position startpos", "go movetime 150"),
        (
            "position startpos moves d2d4",
            "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 3",
        ),
    ] {
        p.send(position);
        p.send(go);
        let lines = p.read_until("bestmove");
        assert!(last_pv_line(&lines).is_some(), "{go}: {lines:?}");
    }
}

#[test]
fn go_mate_finds_the_mate_and_stops() {
    let mut p = Pivot::start();
    // A back-rank mate lies within the two moves asked for.
    p.send("position fen 6k1/5ppp/8/8/8/8/r4PPP/1R1R2K1 w - - 0 1");
    p.send("go mate 2");
    let lines = p.read_until("bestmove");
    let last = last_pv_line(&lines).unwrap();
    assert!(last.contains(" score mate "), "{last}");
    let (best, _) = bestmove_of(lines.last().unwrap());
    assert_eq!(best, pv_of(last)[0]);
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut p = Pivot::start();
    p.send("position startpos");
    p.send("go depth 4 searchmoves a2a3 h2h3");
    let lines = p.read_until("bestmove");
    let (best, _) = bestmove_of(lines.last().unwrap());
    assert!(best == "a2a3" || best == "h2h3", "{best}");
}

#[test]
fn isready_is_answered_during_go_infinite_and_stop_gives_one_bestmove() {
    let mut p = Pivot::start();
    p.send("position startpos");
    p.send("go infinite");
    let before = p.sync();
    assert!(before.iter().all(|l| l.starts_with("info")), "{before:?}");
    p.send("stop");
    let lines = p.read_until("bestmove");
    assert!(p.sync().is_empty());
    let (best, _) = bestmove_of(lines.last().unwrap());
    let all: Vec<String> = p.seen.clone();
    assert_eq!(best, pv_of(last_pv_line(&all).unwrap())[0]);
    assert_eq!(bestmoves(&all), 1);
}

#[test]
fn go_infinite_holds_bestmove_back_even_after_finding_mate() {
    let mut p = Pivot::start();
    p.send(&format!("position fen {MATE_IN_ONE}"));
    p.send("go infinite");
    // The mate is found within a millisecond; give a premature bestmove time to show up.
    let early = p.drain_for(Duration::from_millis(500));
    assert_eq!(bestmoves(&early), 0, "{early:?}");
    assert!(
        early.iter().any(|l| l.contains("score mate 1")),
        "{early:?}"
    );
    assert_eq!(bestmoves(&p.sync()), 0);
    p.send("stop");
    let lines = p.read_until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove d1d8");
}

#[test]
fn go_ponder_waits_for_ponderhit() {
    let mut p = Pivot::start();
    p.send(&format!("position fen {MATE_IN_ONE}"));
    p.send("go ponder wtime 1000 btime 1000");
    let early = p.drain_for(Duration::from_millis(300));
    assert_eq!(bestmoves(&early), 0, "{early:?}");
    p.send("ponderhit");
    let lines = p.read_until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove d1d8");
}

/// Every kind of clock a GUI can send, with the Move Overhead set beside it.
const CLOCKS: [(u64, &str); 11] = [
    (30, "wtime 60000 btime 60000"),
    (100, "wtime 1000 btime 1000 winc 1000 binc 1000"),
    (100, "wtime 50 btime 50 winc 2000 binc 2000"),
    (30, "wtime 20000 btime 20000 movestogo 40"),
    (30, "wtime 1000 btime 1000 movestogo 1"),
    (0, "movetime 200"),
    (30, "wtime 3000 btime 3000"),
    (1000, "wtime 500 btime 500 winc 100 binc 100"),
    (5000, "wtime 4000 btime 9000"),
    (0, "wtime 0 btime 0"),
    (
        5000,
        "wtime 3600000 btime 3600000 winc 10000 binc 10000 movestogo 40",
    ),
];

/// The long clocks of [`CLOCKS`] would think for minutes: the tests stop them.
fn thinks_for_minutes(clock: &str) -> bool {
    clock.contains("3600000") || clock.contains("60000 ")
}

#[test]
fn every_kind_of_clock_gives_a_legal_bestmove_that_agrees_with_the_pv() {
    let mut p = Pivot::start();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    for (overhead, clock) in CLOCKS {
        p.send(&format!("setoption name Move Overhead value {overhead}"));
        p.send(&format!("position fen {fen}"));
        p.send(&format!("go {clock}"));
        if thinks_for_minutes(clock) {
            p.send("stop");
        }
        let lines = p.read_until("bestmove");
        let (best, _) = bestmove_of(lines.last().unwrap());
        pv_is_legal(&position(fen), std::slice::from_ref(&best))
            .unwrap_or_else(|e| panic!("{clock}: {e}"));
        assert_eq!(
            best,
            pv_of(last_pv_line(&lines).unwrap())[0],
            "{clock}: {lines:?}"
        );
        assert!(
            lines.iter().all(|l| !l.contains("error")),
            "{clock}: {lines:?}"
        );
    }
}

#[test]
fn ponderhit_under_every_kind_of_clock_gives_one_bestmove() {
    let mut p = Pivot::start();
    p.send("setoption name Ponder value true");
    for (overhead, clock) in CLOCKS {
        p.send(&format!("setoption name Move Overhead value {overhead}"));
        p.send("position startpos moves e2e4 e7e5 g1f3");
        p.send(&format!("go ponder {clock}"));
        let early = p.sync();
        assert_eq!(bestmoves(&early), 0, "{clock}: {early:?}");
        p.send("ponderhit");
        if thinks_for_minutes(clock) {
            p.send("stop");
        }
        let lines = p.read_until("bestmove");
        let (best, ponder) = bestmove_of(lines.last().unwrap());
        // The last PV may have come while pondering: when the clock is spent at ponderhit the
        // search stops at once, with nothing new to report.
        let all: Vec<String> = early.iter().chain(&lines).cloned().collect();
        let pv = pv_of(last_pv_line(&all).unwrap());
        assert_eq!(best, pv[0], "{clock}: {all:?}");
        assert_eq!(ponder.as_deref(), pv.get(1).map(String::as_str), "{clock}");
        assert_eq!(bestmoves(&p.sync()), 0, "{clock}: a second bestmove");
    }
}

#[test]
fn a_burst_of_go_and_stop_gives_exactly_one_bestmove_per_go() {
    let mut p = Pivot::start();
    p.send("position startpos moves e2e4");
    for i in 0..25 {
        if i % 3 == 0 {
            p.send("go infinite");
        } else {
            p.send("go depth 30");
        }
        p.send("stop");
    }
    p.send("go depth 1");
    let lines = p.sync();
    let rest = if bestmoves(&lines) < 26 {
        p.read_until("bestmove")
    } else {
        Vec::new()
    };
    let count = bestmoves(&lines) + bestmoves(&rest);
    assert_eq!(count, 26);
}

#[test]
fn position_or_go_during_a_search_stops_it_first() {
    let mut p = Pivot::start();
    p.send("position startpos");
    p.send("go infinite");
    p.send("position startpos moves e2e4");
    p.send("go depth 3");
    let first = p.read_until("bestmove");
    let (best, _) = bestmove_of(first.last().unwrap());
    // The first search was on the start position.
    pv_is_legal(
        &position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        &[best],
    )
    .unwrap();
    let second = p.read_until("bestmove");
    let (best, _) = bestmove_of(second.last().unwrap());
    let after_e4 = position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    pv_is_legal(&after_e4, &[best]).unwrap();
}

#[test]
fn checkmated_and_stalemated_roots_answer_0000_after_a_final_score() {
    let mut p = Pivot::start();
    p.send("position fen 3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1");
    p.send("go depth 5");
    let lines = p.read_until("bestmove");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("info depth 0 ") && lines[0].contains("score mate 0"),
        "{lines:?}"
    );
    assert_eq!(lines[1], "bestmove 0000");

    p.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    p.send("go depth 5");
    let lines = p.read_until("bestmove");
    assert!(lines[0].contains("score cp 0"), "{lines:?}");
    assert_eq!(lines[1], "bestmove 0000");
}

#[test]
fn invalid_fen_keeps_the_previous_position() {
    let mut p = Pivot::start();
    p.send("position startpos moves e2e4");
    for bad in [
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K2r b - - 0 1",
        "position fen garbage",
        "position fen",
        "position",
    ] {
        p.send(bad);
        let lines = p.sync();
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert!(lines[0].starts_with("info string "), "{bad}: {lines:?}");
        assert!(
            lines[0].contains("position") || lines[0].contains("FEN"),
            "{lines:?}"
        );
    }
    p.send("d");
    let lines = p.sync();
    assert!(lines.iter().any(
        |l| l == "info string Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    ));
}

#[test]
fn illegal_move_names_the_move_and_stops_before_it() {
    let mut p = Pivot::start();
    p.send("position startpos moves e2e4 e7e5 e1e3 g1f3");
    let lines = p.sync();
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].starts_with("info string error: illegal move 'e1e3'"),
        "{lines:?}"
    );
    p.send("position startpos moves e2e4 zz9 g1f3");
    let lines = p.sync();
    assert!(lines[0].contains("'zz9'"), "{lines:?}");
    p.send("d");
    let lines = p.sync();
    assert!(lines.iter().any(
        |l| l == "info string Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    ));
    p.send("go depth 2");
    let lines = p.read_until("bestmove");
    let after_e4 = position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    pv_is_legal(&after_e4, &pv_of(last_pv_line(&lines).unwrap())).unwrap();
}

#[test]
fn stale_castling_rights_are_repaired_with_a_warning() {
    let mut p = Pivot::start();
    p.send("position fen 4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1");
    let lines = p.sync();
    assert!(lines[0].starts_with("info string warning: "), "{lines:?}");
    p.send("go depth 1");
    assert!(
        p.read_until("bestmove")
            .last()
            .unwrap()
            .starts_with("bestmove ")
    );
}

#[test]
fn setoption_accepts_valid_values_and_rejects_bad_ones() {
    let mut p = Pivot::start();
    for good in [
        "setoption name Hash value 32",
        "setoption name hash value 1",
        "setoption name Clear Hash",
        "setoption name move overhead value 100",
        "setoption name Ponder value true",
    ] {
        p.send(good);
        assert!(p.sync().is_empty(), "{good}");
    }
    for bad in [
        "setoption name Hash value 0",
        "setoption name Hash value 70000",
        "setoption name Hash value lots",
        "setoption name Hash",
        "setoption name Move Overhead value -5",
        "setoption name Ponder value maybe",
        "setoption name NoSuchOption value 3",
        "setoption Hash 64",
    ] {
        p.send(bad);
        let lines = p.sync();
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert!(lines[0].starts_with("info string "), "{bad}: {lines:?}");
    }
    p.send("go depth 3");
    p.read_until("bestmove");
}

#[test]
fn go_with_garbage_numbers_reports_and_still_searches() {
    let mut p = Pivot::start();
    p.send("position startpos");
    p.send("go depth x3 movetime");
    let lines = p.sync();
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string error: go:"))
            .count()
            == 2,
        "{lines:?}"
    );
    p.send("stop");
    p.read_until("bestmove");
    p.send("go wtime -100 btime -100");
    assert!(
        p.read_until("bestmove")
            .last()
            .unwrap()
            .starts_with("bestmove ")
    );
}

#[test]
fn display_eval_and_perft_extensions() {
    let mut p = Pivot::start();
    p.send("position startpos");
    p.send("d");
    let lines = p.sync();
    assert!(lines.iter().all(|l| l.starts_with("info string ")));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("| r | n | b | q | k | b | n | r |"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "info string Key: 463B96181691FC9C"),
        "{lines:?}"
    );
    p.send("eval");
    let lines = p.sync();
    // One line per output layer, the start position's 32 pieces picking the last; the last
    // line is the static evaluation.
    let start = shakmaty::Chess::default();
    let cp = pivot::eval::static_eval(pivot::nnue::network(), &start);
    assert_eq!(
        lines.last().unwrap(),
        &format!("info string eval {cp} cp (side to move)")
    );
    let layers: Vec<&String> = lines.iter().filter(|l| l.contains(" layer ")).collect();
    assert_eq!(layers.len(), pivot::nnue::BUCKETS + 1, "{lines:?}");
    assert!(
        lines.contains(&format!("info string layer 8: {cp} cp <-")),
        "{lines:?}"
    );
    p.send("position fen 4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    p.send("eval");
    let lines = p.sync();
    let last = lines.last().unwrap();
    let cp: i32 = last.split_whitespace().nth(3).unwrap().parse().unwrap();
    // A queen against a bare king: the mating score replaces the network's, far below zero
    // for the side with the bare king, and the WDL estimate calls it lost.
    assert!(cp < -2000, "{last}");
    assert!(
        lines.iter().any(|l| l.starts_with(&format!(
            "info string a queen or rook against a bare king: mating score {cp} cp"
        ))),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info string wdl 0 ")),
        "{lines:?}"
    );
    p.send("position startpos");
    p.send("go perft 3");
    let lines = p.sync();
    assert_eq!(lines.len(), 21);
    assert!(
        lines[20].starts_with("info string perft 3 nodes 8902 "),
        "{lines:?}"
    );
}

#[test]
fn stop_and_ponderhit_while_idle_are_harmless() {
    let mut p = Pivot::start();
    p.send("stop");
    p.send("ponderhit");
    assert!(p.sync().is_empty());
}

#[test]
fn end_of_input_exits_cleanly_even_mid_search() {
    let mut p = Pivot::start();
    p.send("position startpos");
    p.send("go infinite");
    assert_eq!(p.close(), Some(0));
}

#[test]
fn quit_ends_a_running_search_promptly() {
    let mut p = Pivot::start();
    p.send("go infinite");
    p.send("quit");
    assert_eq!(p.wait_exit(), Some(0));
}

#[test]
fn log_file_records_lines_in_and_out() {
    let dir = std::env::temp_dir().join(format!("pivot-log-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("uci.log");
    let _ = std::fs::remove_file(&path);
    let mut p = Pivot::start_with(&["--log-file", path.to_str().unwrap()]);
    p.send("uci");
    p.read_until("uciok");
    p.sync();
    assert_eq!(p.close(), Some(0));
    let log = std::fs::read_to_string(&path).unwrap();
    assert!(log.contains("<< uci"), "{log}");
    assert!(log.contains(">> uciok"), "{log}");
    assert!(log.contains(">> readyok"), "{log}");
}

#[test]
fn a_dead_drawn_root_sends_one_line_not_a_flood() {
    let mut p = Pivot::start();
    p.send("position fen 8/8/8/8/8/2k5/8/K7 w - - 0 1");
    p.send("go infinite");
    let before = p.sync();
    p.send("stop");
    let after = p.read_until("bestmove");
    let pv_lines = before
        .iter()
        .chain(after.iter())
        .filter(|l| l.contains(" pv "))
        .count();
    assert_eq!(pv_lines, 1, "{before:?} {after:?}");
    // An explicit depth is still searched to that depth.
    p.send("go depth 4");
    let lines = p.read_until("bestmove");
    assert_eq!(field(last_pv_line(&lines).unwrap(), "depth"), Some("4"));
}

//! Options beyond the basic protocol, through the real binary: MultiPV, UCI_Chess960,
//! UCI_ShowWDL and Threads.

mod common;

use common::{Pivot, bestmove_of, field, position, pv_is_legal, pv_of};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

fn chess960(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Chess960)
        .unwrap()
}

/// The `info … pv` lines of the last completed depth, by `multipv` index.
fn lines_at_depth(lines: &[String], depth: &str) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.contains(" pv ") && field(l, "depth") == Some(depth))
        .cloned()
        .collect()
}

/// Under `UCI_LimitStrength`/`UCI_Elo` and `Skill Level`: every level plays legal moves on a
/// clock, the move agrees with the last PV shown, only one line is shown per depth, and the
/// lowest level plays other moves than full strength in some positions.
#[test]
fn limited_strength_plays_legal_moves_that_agree_with_the_last_pv() {
    let fens: Vec<String> = include_str!("data/wac.epd")
        .lines()
        .step_by(30)
        .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" ") + " 0 1")
        .collect();
    let play = |setup: &[&str]| -> Vec<String> {
        let mut p = Pivot::start();
        for line in setup {
            p.send(line);
        }
        fens.iter()
            .map(|fen| {
                p.send(&format!("position fen {fen}"));
                p.send("go wtime 20000 btime 20000 winc 200 binc 200");
                let lines = p.read_until("bestmove");
                let (best, _) = bestmove_of(lines.last().unwrap());
                let last = lines
                    .iter()
                    .rev()
                    .find(|l| l.contains(" pv "))
                    .expect("a pv line");
                assert_eq!(pv_of(last)[0], best, "{fen}: {lines:?}");
                assert!(
                    lines
                        .iter()
                        .all(|l| field(l, "multipv").is_none_or(|k| k == "1")),
                    "{fen}: {lines:?}"
                );
                let root = position(fen);
                pv_is_legal(&root, &pv_of(last)).unwrap();
                best
            })
            .collect()
    };
    let full = play(&[]);
    let weakest = play(&[
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1320",
    ]);
    for setup in [
        &[
            "setoption name UCI_LimitStrength value true",
            "setoption name UCI_Elo value 2200",
        ][..],
        &[
            "setoption name UCI_LimitStrength value true",
            "setoption name UCI_Elo value 3000",
        ][..],
        &["setoption name Skill Level value 0"][..],
        &["setoption name Skill Level value 10"][..],
    ] {
        play(setup);
    }
    let differ = full.iter().zip(&weakest).filter(|(a, b)| a != b).count();
    assert!(differ >= 2, "{differ} of {} moves differ", full.len());
}

/// A strong limited level still saves an attacked queen (the choice among moves never loses
/// more than about two pawns at 2400).
#[test]
fn a_level_of_2400_does_not_leave_its_queen_en_prise() {
    for (fen, queen) in [
        (
            "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 3",
            "h4",
        ),
        (
            "rnbqkb1r/pppp1ppp/5n2/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3",
            "h5",
        ),
    ] {
        let mut p = Pivot::start();
        p.send("setoption name UCI_LimitStrength value true");
        p.send("setoption name UCI_Elo value 2400");
        p.send(&format!("position fen {fen}"));
        p.send("go wtime 60000 btime 60000");
        let lines = p.read_until("bestmove");
        let (best, _) = bestmove_of(lines.last().unwrap());
        assert!(best.starts_with(queen), "{fen}: {best}");
    }
}

/// `EvalFile` loads a network from a file (here the built-in one with every output bias
/// raised by a pawn's worth), `eval` and searches use it, and `<internal>` goes back to the
/// built-in one.
#[test]
fn evalfile_loads_a_network_that_searches_then_use() {
    use pivot::nnue::{QA, QB, SCALE, file, network};
    let mut shifted = network().clone();
    for bias in &mut shifted.output_bias {
        *bias += QA * QB * 100 / SCALE;
    }
    let path = std::env::temp_dir().join(format!("pivot-shifted-{}.nnue", std::process::id()));
    std::fs::write(&path, file::encode(&shifted)).unwrap();
    let cp = |line: &str| -> i32 { line.split_whitespace().nth(3).unwrap().parse().unwrap() };

    let mut p = Pivot::start();
    p.send("position fen 4k3/pppp4/8/8/8/8/4PPPP/4K3 w - - 0 1");
    p.send("eval");
    let built_in = cp(p.sync().last().unwrap());
    let depth_one = |p: &mut Pivot| -> i32 {
        p.send("go depth 1");
        let lines = p.read_until("bestmove");
        field(&lines[lines.len() - 2], "cp")
            .unwrap()
            .parse()
            .unwrap()
    };
    let searched = depth_one(&mut p);
    p.send(&format!("setoption name EvalFile value {}", path.display()));
    assert_eq!(
        p.sync(),
        [format!(
            "info string EvalFile: using the network in '{}' ({})",
            path.display(),
            shifted.shape()
        )]
    );
    p.send("eval");
    let raised = cp(p.sync().last().unwrap());
    assert!(
        (raised - built_in - 100).abs() <= 2,
        "{built_in} -> {raised}"
    );
    // The search evaluates with it too. (Its leaves one ply down are the opponent's, who
    // gains the pawn, so the depth-1 score falls.)
    let shifted_search = depth_one(&mut p);
    assert!(
        shifted_search <= searched - 50,
        "{searched} -> {shifted_search}"
    );
    p.send("setoption name EvalFile value <internal>");
    assert_eq!(
        p.sync(),
        ["info string EvalFile: using the built-in network"]
    );
    p.send("eval");
    assert_eq!(cp(p.sync().last().unwrap()), built_in);
    std::fs::remove_file(&path).ok();
}

/// A network grown into king buckets (every bucket a copy of a network without them: the
/// built-in one's first king bucket) evaluates every position alike, so through `EvalFile` it
/// searches exactly the same tree as that network: the same nodes, scores and PVs at every
/// depth, with castling and king walks that cross buckets.
#[test]
fn evalfile_reads_king_buckets_and_a_grown_network_searches_the_same_tree() {
    use pivot::nnue::{file, network};
    let map = std::array::from_fn(|sq| (sq % 8 / 2) as u8 + 4 * u8::from(sq >= 16));
    let plain = network().king_bucket(0);
    let grown = plain.with_king_buckets(8, map).unwrap();
    let file_of = |name: &str, net| {
        let path = std::env::temp_dir().join(format!("pivot-{name}-{}.nnue", std::process::id()));
        std::fs::write(&path, file::encode(net)).unwrap();
        path
    };
    let paths = [file_of("plain", &plain), file_of("kings", &grown)];
    // Everything of the search's report but its clock.
    let tree = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .map(|l| {
                let mut words = l.split_whitespace().peekable();
                let mut kept = Vec::new();
                while let Some(w) = words.next() {
                    if matches!(w, "time" | "nps" | "hashfull") {
                        words.next();
                    } else {
                        kept.push(w);
                    }
                }
                kept.join(" ")
            })
            .collect()
    };
    let mut searches = Vec::new();
    for (path, shape) in paths.iter().zip(["output buckets)", ", 8 king buckets)"]) {
        let mut p = Pivot::start();
        p.send(&format!("setoption name EvalFile value {}", path.display()));
        let reply = p.sync();
        assert!(reply[0].contains("using the network in"), "{reply:?}");
        assert!(reply[0].ends_with(shape), "{reply:?}");
        let mut lines = Vec::new();
        for position in [
            "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6",
            "position fen 8/5pk1/6p1/8/3K4/8/5PP1/8 w - - 0 1",
        ] {
            p.send(position);
            p.send("go depth 9");
            lines.extend(p.read_until("bestmove"));
        }
        searches.push(tree(&lines));
    }
    assert!(searches[0].len() > 10);
    assert_eq!(searches[0], searches[1]);
    for path in paths {
        std::fs::remove_file(path).ok();
    }
}

#[test]
fn multipv_sends_k_lines_per_depth_best_first_with_distinct_moves() {
    let mut p = Pivot::start();
    p.send("setoption name MultiPV value 4");
    p.send("position startpos moves e2e4 e7e5");
    p.send("go depth 6");
    let lines = p.read_until("bestmove");
    let start = common::position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    for depth in 1..=6 {
        let at = lines_at_depth(&lines, &depth.to_string());
        assert_eq!(at.len(), 4, "depth {depth}: {at:#?}");
        let index: Vec<&str> = at.iter().map(|l| field(l, "multipv").unwrap()).collect();
        assert_eq!(index, ["1", "2", "3", "4"]);
        let scores: Vec<i32> = at
            .iter()
            .map(|l| field(l, "cp").unwrap().parse().unwrap())
            .collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        let mut firsts: Vec<String> = at.iter().map(|l| pv_of(l)[0].clone()).collect();
        for l in &at {
            pv_is_legal(&start, &pv_of(l)).unwrap();
        }
        firsts.sort();
        firsts.dedup();
        assert_eq!(firsts.len(), 4, "{at:#?}");
    }
    let (best, _) = bestmove_of(lines.last().unwrap());
    assert_eq!(pv_of(&lines_at_depth(&lines, "6")[0])[0], best);
}

#[test]
fn multipv_beyond_the_legal_moves_reports_every_move() {
    let mut p = Pivot::start();
    p.send("setoption name MultiPV value 256");
    p.send("position fen k7/8/1K6/8/8/8/8/7R b - - 0 1");
    p.send("go depth 3");
    let lines = p.read_until("bestmove");
    assert_eq!(lines_at_depth(&lines, "3").len(), 1, "{lines:#?}");
    p.send("position fen 7k/8/6K1/8/8/8/Q7/8 w - - 0 1");
    p.send("go depth 2");
    let lines = p.read_until("bestmove");
    assert_eq!(lines_at_depth(&lines, "2").len(), 27, "{lines:#?}");
}

#[test]
fn multipv_one_is_the_single_line_search() {
    let mut p = Pivot::start();
    p.send("go depth 7");
    let one = p.read_until("bestmove");
    p.send("ucinewgame");
    p.send("setoption name MultiPV value 1");
    p.send("go depth 7");
    let again = p.read_until("bestmove");
    let strip = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.contains(" pv "))
            .map(|l| format!("{} {}", field(l, "score").unwrap(), pv_of(l).join(" ")))
            .collect()
    };
    assert!(
        one.iter()
            .all(|l| !l.contains(" pv ") || l.contains("multipv 1 "))
    );
    assert_eq!(strip(&one), strip(&again));
}

#[test]
fn chess960_castling_is_king_takes_rook_both_ways() {
    let mut p = Pivot::start();
    p.send("setoption name UCI_Chess960 value true");
    // King on b1, rooks on a1 and e1: castling queen-side is b1a1, king-side b1e1.
    let fen = "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - 0 1";
    p.send(&format!("position fen {fen} moves b1a1"));
    p.send("d");
    let lines = p.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string Fen: rk2r3/pppppppp/8/8/8/8/PPPPPPPP/2KRR3 b ")),
        "{lines:#?}"
    );
    // Searching must send castling as king-takes-rook, and every PV must be legal.
    let open = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    p.send(&format!("position fen {open}"));
    p.send("go depth 3 searchmoves e1h1 e1a1");
    let lines = p.read_until("bestmove");
    let (best, _) = bestmove_of(lines.last().unwrap());
    assert!(best == "e1h1" || best == "e1a1", "{best}");
    let pos = chess960(open);
    for l in lines.iter().filter(|l| l.contains(" pv ")) {
        let pv = pv_of(l);
        let mut b = pos.clone();
        for text in &pv {
            let m = text
                .parse::<UciMove>()
                .unwrap()
                .to_move(&b)
                .unwrap_or_else(|_| panic!("{text} illegal in {l}"));
            if m.is_castle() {
                assert!(text == "e1h1" || text == "e1a1" || text == "e8h8" || text == "e8a8");
            }
            b.play_unchecked(m);
        }
    }
}

#[test]
fn standard_mode_castles_e1g1_and_reads_shredder_castling_as_960_only_when_asked() {
    let mut p = Pivot::start();
    let open = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    p.send(&format!("position fen {open}"));
    p.send("go depth 2 searchmoves e1g1");
    let lines = p.read_until("bestmove");
    assert_eq!(bestmove_of(lines.last().unwrap()).0, "e1g1");
    // A Chess960 start position in standard mode: its rights cannot be standard ones.
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    p.send(&format!("position fen {fen}"));
    let lines = p.sync();
    assert!(
        lines[0].starts_with("info string warning: ") && lines[0].contains("castling"),
        "{lines:?}"
    );
    p.send("setoption name UCI_Chess960 value true");
    p.send(&format!("position fen {fen}"));
    assert_eq!(p.sync(), Vec::<String>::new());
    p.send("go perft 4");
    let lines = p.sync();
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("info string perft 4 nodes 326672 "),
        "{lines:?}"
    );
}

#[test]
fn show_wdl_adds_win_draw_loss_that_sum_to_a_thousand() {
    let mut p = Pivot::start();
    p.send("setoption name UCI_ShowWDL value true");
    p.send("go depth 5");
    let lines = p.read_until("bestmove");
    let pv_lines: Vec<&String> = lines.iter().filter(|l| l.contains(" pv ")).collect();
    assert!(!pv_lines.is_empty());
    for l in pv_lines {
        let words: Vec<&str> = l.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "wdl").expect(l);
        let sum: u32 = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse::<u32>().unwrap())
            .sum();
        assert_eq!(sum, 1000, "{l}");
        assert!(words[at - 3] == "score", "wdl must follow the score: {l}");
    }
    p.send("position fen 7k/8/6K1/8/8/8/Q7/8 w - - 0 1");
    p.send("go depth 3");
    let lines = p.read_until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("score mate 1 wdl 1000 0 0")),
        "{lines:#?}"
    );
    p.send("setoption name UCI_ShowWDL value false");
    p.send("go depth 2");
    let lines = p.read_until("bestmove");
    assert!(lines.iter().all(|l| !l.contains(" wdl ")));
}

#[test]
fn threads_search_gives_legal_lines_and_one_bestmove() {
    let mut p = Pivot::start();
    p.send("setoption name Threads value 2");
    for (fen, go) in [
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "go depth 8",
        ),
        ("7k/8/6K1/8/8/8/Q7/8 w - - 0 1", "go depth 5"),
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "go movetime 300",
        ),
    ] {
        p.send(&format!("position fen {fen}"));
        p.send(go);
        let lines = p.read_until("bestmove");
        let start = common::position(fen);
        for l in lines.iter().filter(|l| l.contains(" pv ")) {
            pv_is_legal(&start, &pv_of(l)).unwrap();
        }
        let (best, _) = bestmove_of(lines.last().unwrap());
        pv_is_legal(&start, &[best]).unwrap();
    }
    p.send("go infinite");
    p.send("stop");
    assert_eq!(common::bestmoves(&p.read_until("bestmove")), 1);
    p.send("setoption name Threads value 1");
    p.send("go depth 3");
    p.read_until("bestmove");
    assert_eq!(p.sync(), Vec::<String>::new());
}

/// Pondering as a GUI does it: `go ponder` on the position after the expected reply; a
/// `ponderhit` turns it into a timed search that ends by itself; after a wrong guess, `stop`
/// returns a (legal) `bestmove` for the pondered position, and the real `go` follows.
#[test]
fn ponder_hit_continues_on_the_clock_and_a_miss_is_stopped() {
    let mut p = Pivot::start();
    p.send("setoption name Ponder value true");
    p.send("position startpos moves e2e4");
    p.send("go wtime 2000 btime 2000 winc 20 binc 20");
    let lines = p.read_until("bestmove");
    let (best, ponder) = bestmove_of(lines.last().unwrap());
    let ponder = ponder.expect("a ponder move");
    // Hit: ponder on the expected reply, then the opponent plays it.
    p.send(&format!("position startpos moves e2e4 {best} {ponder}"));
    p.send("go ponder wtime 2000 btime 2000 winc 20 binc 20");
    let early = p.drain_for(std::time::Duration::from_millis(200));
    assert_eq!(common::bestmoves(&early), 0, "{early:?}");
    p.send("ponderhit");
    let lines = p.read_until("bestmove");
    let after = format!("e2e4 {best} {ponder}");
    let mut pos = Chess::default();
    for text in after.split_whitespace() {
        let m = text.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    let (reply, _) = bestmove_of(lines.last().unwrap());
    pv_is_legal(&pos, std::slice::from_ref(&reply)).unwrap();
    // Miss: ponder, then the opponent plays something else: stop, then the real search.
    p.send(&format!(
        "position startpos moves e2e4 {best} {ponder} {reply}"
    ));
    p.send("go ponder wtime 2000 btime 2000");
    p.send("stop");
    let stopped = p.read_until("bestmove");
    assert_eq!(common::bestmoves(&stopped), 1);
    p.send(&format!("position startpos moves e2e4 {best} {ponder}"));
    p.send("go wtime 2000 btime 2000");
    let lines = p.read_until("bestmove");
    let (real, _) = bestmove_of(lines.last().unwrap());
    pv_is_legal(&pos, &[real]).unwrap();
    assert_eq!(p.sync(), Vec::<String>::new());
}

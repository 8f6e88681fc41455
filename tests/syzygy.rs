//! Syzygy tablebases through the real binary, with the 3-piece tables of tests/data/syzygy:
//! loading and its errors, `tbhits`, moves that keep the tablebase result (checked against the
//! tables read directly), and PVs that stay legal.

mod common;

use common::{
    Pivot, bestmove_of, field, last_pv_line, play_engine_move, position, pv_is_legal, pv_of,
};
use pivot::tb::Tablebases;
use shakmaty::{Chess, Position};

fn tables_dir() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy").to_string()
}

fn with_tables() -> Pivot {
    let mut p = Pivot::start();
    p.send(&format!("setoption name SyzygyPath value {}", tables_dir()));
    let lines = p.sync();
    assert_eq!(
        lines,
        [format!(
            "info string Syzygy: 10 table files, up to 3 pieces, in '{}'",
            tables_dir()
        )]
    );
    p
}

/// The moves that keep the best result, read from the tables directly.
fn keeping_moves(fen: &str) -> Vec<String> {
    let tables = Tablebases::open(&tables_dir()).unwrap();
    let pos: Chess = position(fen);
    let (keep, _) = tables.root_moves(&pos, true).expect("covered");
    keep.iter()
        .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
        .collect()
}

#[test]
fn bad_paths_are_reported_and_the_engine_goes_on() {
    let mut p = Pivot::start();
    p.send("setoption name SyzygyPath value /no/such/directory");
    let lines = p.sync();
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0]
            .starts_with("info string error: cannot read Syzygy directory '/no/such/directory'")
            && lines[0].ends_with("; no tablebases in use"),
        "{lines:?}"
    );
    let empty = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fuzz");
    p.send(&format!("setoption name SyzygyPath value {empty}"));
    assert_eq!(
        p.sync(),
        [format!(
            "info string error: no Syzygy tables found in '{empty}'; no tablebases in use"
        )]
    );
    p.send("setoption name SyzygyPath value <empty>");
    p.send("setoption name SyzygyProbeDepth value 0");
    assert_eq!(
        p.sync(),
        [
            "info string error: option 'SyzygyProbeDepth': 0 is out of range (1 to 100); option unchanged"
        ]
    );
    p.send("position fen 8/8/8/8/8/2k5/P7/K7 w - - 0 1");
    p.send("go depth 4");
    let lines = p.read_until("bestmove");
    assert!(lines.iter().all(|l| !l.contains("tbhits")), "{lines:?}");
}

#[test]
fn tablebase_positions_keep_their_result_and_report_tbhits() {
    let mut p = with_tables();
    for fen in [
        // Drawn: rook pawn, defending king in front.
        "8/8/8/8/8/2k5/P7/K7 w - - 0 1",
        // Drawn with White to move (Black holds the opposition); won with the king in front.
        "8/8/8/3k4/8/3K4/3P4/8 w - - 0 1",
        "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1",
        // KRvK and KQvK: only winning moves.
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        "8/8/3k4/8/8/8/8/Q3K3 w - - 0 1",
        // Lost for Black to move: every move loses, so every move is kept.
        "8/8/8/3k4/8/3K4/3P4/8 b - - 0 1",
    ] {
        p.send(&format!("position fen {fen}"));
        p.send("go depth 8");
        let lines = p.read_until("bestmove");
        let (best, _) = bestmove_of(lines.last().unwrap());
        let keep = keeping_moves(fen);
        assert!(keep.contains(&best), "{fen}: {best} not in {keep:?}");
        let last = last_pv_line(&lines).unwrap();
        let hits: u64 = field(last, "tbhits").unwrap().parse().unwrap();
        assert!(hits >= 1, "{last}");
        let start = position(fen);
        for l in lines.iter().filter(|l| l.contains(" pv ")) {
            pv_is_legal(&start, &pv_of(l)).unwrap();
        }
    }
}

/// Winning a tablebase endgame move by move: Pivot plays both sides of KPvK from a won
/// position for up to 120 plies (or to the end) at a small depth; White never lets the win slip.
#[test]
fn a_won_pawn_ending_stays_won_move_after_move() {
    let tables = Tablebases::open(&tables_dir()).unwrap();
    let mut p = with_tables();
    let start = "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1";
    let mut pos: Chess = position(start);
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..120 {
        if pos.is_game_over() {
            break;
        }
        if pos.board().occupied().count() <= 3 && pos.turn() == shakmaty::Color::White {
            let (_, wdl) = tables.root_moves(&pos, true).unwrap();
            assert_eq!(wdl, shakmaty_syzygy::Wdl::Win, "after {moves:?}");
        }
        play_engine_move(&mut p, start, &mut moves, &mut pos, "go depth 6");
    }
    // The pawn promoted (or mate came first): more material than the starting pawn.
    let queens = pos.board().queens().count();
    assert!(queens == 1 || pos.is_checkmate(), "{moves:?}");
}

//! Perft against the published counts of tests/data/perft.epd (126 positions including
//! Kiwipete and the en-passant, promotion and castling traps). The default run checks depth 3
//! for all and depth 4 for every fifth position; `--ignored` checks depth 5 for all.

use pivot::game::Game;
use pivot::perft::perft;

mod common;

fn suite() -> Vec<(String, Vec<(u32, u64)>)> {
    common::perft_lines(include_str!("data/perft.epd"))
}

fn check(max_depth: u32, every: usize) {
    let suite = suite();
    assert_eq!(suite.len(), 126);
    for (fen, counts) in suite.iter().step_by(every) {
        let (game, _) = Game::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
        for &(depth, nodes) in counts.iter().filter(|(d, _)| *d <= max_depth) {
            assert_eq!(perft(game.pos(), depth), nodes, "{fen} depth {depth}");
        }
    }
}

#[test]
fn all_positions_to_depth_3() {
    check(3, 1);
}

#[test]
fn every_fifth_position_to_depth_4() {
    check(4, 5);
}

#[test]
#[ignore = "slow: run with --ignored to check depth 5 everywhere"]
fn all_positions_to_depth_5() {
    check(5, 1);
}

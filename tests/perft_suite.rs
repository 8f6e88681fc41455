//! Perft against the published counts of tests/data/perft.epd (126 positions including
//! Kiwipete and the en-passant, promotion and castling traps). The default run checks depth 3
//! for all and depth 4 for every fifth position; `--ignored` checks depth 5 for all.

use shakmaty::CastlingMode;

mod common;

fn check(max_depth: u32, every: usize) {
    let text = include_str!("data/perft.epd");
    common::check_perft(text, 126, CastlingMode::Standard, max_depth, every);
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

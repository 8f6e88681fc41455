//! Chess960 perft against the published counts of tests/data/perft_chess960.epd (all 960
//! starting positions, castling rights as Shredder-FEN letters): every position to depth 4 in
//! the default run, depth 5 for every 48th with `--ignored`. Also: the same positions read
//! through X-FEN (`KQkq`) castling letters give the same counts.

mod common;

use pivot::game::{Game, castling_mode_of};
use pivot::perft::perft;
use shakmaty::CastlingMode;

fn suite() -> Vec<(String, Vec<(u32, u64)>)> {
    common::perft_lines(include_str!("data/perft_chess960.epd"))
}

fn check(max_depth: u32, every: usize) {
    let text = include_str!("data/perft_chess960.epd");
    common::check_perft(text, 960, CastlingMode::Chess960, max_depth, every);
}

#[test]
fn all_960_positions_to_depth_4() {
    check(4, 1);
}

#[test]
#[ignore = "slow: run with --ignored"]
fn every_48th_position_to_depth_5() {
    check(5, 48);
}

/// `castling_mode_of` (used by `pivot perft --fen`) picks a mode that reads every position of
/// the suite as it is: Chess960 wherever the rights need it, standard for the classical setup.
#[test]
fn the_castling_mode_is_detected_from_the_fen() {
    let mut chess960 = 0;
    for (fen, counts) in suite() {
        let mode = castling_mode_of(&fen);
        let (game, warnings) = Game::from_fen_in(&fen, mode).unwrap();
        assert!(warnings.is_empty(), "{fen}: {warnings:?}");
        assert_eq!(perft(game.pos(), 2), counts[1].1, "{fen}");
        chess960 += usize::from(mode == CastlingMode::Chess960);
    }
    // 921 of them; the other 39 have castling rights that standard chess allows too.
    assert_eq!(chess960, 921);
    assert_eq!(
        castling_mode_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        CastlingMode::Standard
    );
}

#[test]
fn x_fen_castling_letters_give_the_same_counts() {
    // The first position of the suite, with its Shredder letters HFhf written as X-FEN: the
    // outer rooks get K/Q, the inner rook (f-file, between king and h-rook) keeps its letter.
    let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let xfen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KFkf - 2 9";
    let a = Game::from_fen_in(shredder, CastlingMode::Chess960)
        .unwrap()
        .0;
    let b = Game::from_fen_in(xfen, CastlingMode::Chess960).unwrap().0;
    for depth in 1..=3 {
        assert_eq!(perft(a.pos(), depth), perft(b.pos(), depth));
    }
    assert_eq!(perft(b.pos(), 3), 12189);
}

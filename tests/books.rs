//! The opening books of tests/data that scripts and cutechess-cli play from: every line is a
//! legal position with moves to play, read without repair, and no opening appears twice.

use std::collections::HashSet;

use pivot::game::Game;
use shakmaty::Position;

fn check_book(name: &str, text: &str, expected: usize) {
    let mut seen = HashSet::new();
    for (i, line) in text.lines().enumerate() {
        let fen: Vec<&str> = line.split_whitespace().take(4).collect();
        let fen = fen.join(" ");
        let (game, warnings) =
            Game::from_fen(&fen).unwrap_or_else(|e| panic!("{name} line {}: {e}", i + 1));
        assert!(warnings.is_empty(), "{name} line {}: {warnings:?}", i + 1);
        assert!(
            !game.pos().legal_moves().is_empty(),
            "{name} line {}: no move to play",
            i + 1
        );
        assert!(
            seen.insert(fen),
            "{name} line {}: a repeated opening",
            i + 1
        );
    }
    assert_eq!(seen.len(), expected, "{name}");
}

#[test]
fn the_test_books_hold_a_thousand_legal_openings_each() {
    check_book(
        "8moves_v3_first1000.epd",
        include_str!("data/8moves_v3_first1000.epd"),
        1000,
    );
    check_book(
        "2moves_v1_first1000.epd",
        include_str!("data/2moves_v1_first1000.epd"),
        1000,
    );
}

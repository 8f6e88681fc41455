//! `split`: a data round cut into a training part and a held-out part of whole games, so that
//! `train --validate` measures positions whose games the training never saw.
//!
//! `datagen` writes each game's positions together, in the order they were played. A game
//! starts where the number of plies (from the FEN's move number and side to move) falls, or
//! where the game result changes.

use crate::data;

/// Where a round of data lines is cut.
#[derive(Debug, PartialEq)]
pub struct Cut {
    /// Index of the first held-out line.
    pub at: usize,
    /// Games before and after the cut.
    pub training_games: usize,
    pub held_out_games: usize,
}

/// The plies played before a FEN's position, or `None` if its side-to-move or move-number
/// field is missing or malformed.
pub fn plies(fen: &str) -> Option<u32> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let [_, side, _, _, _, fullmove] = fields[..] else {
        return None;
    };
    let black = match side {
        "w" => 0,
        "b" => 1,
        _ => return None,
    };
    Some(2 * fullmove.parse::<u32>().ok()? + black)
}

/// The index of the first line of each game in `lines`, or the 1-based number of the first
/// line that is not a data line with a full FEN.
pub fn game_starts(lines: &[&str]) -> Result<Vec<usize>, usize> {
    let mut plies_and_results = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let sample = data::parse(line).ok_or(i + 1)?;
        plies_and_results.push((plies(sample.fen).ok_or(i + 1)?, sample.result_text));
    }
    Ok(starts_of(&plies_and_results))
}

/// The index of the first position of each game, given each position's plies and result in
/// the order `datagen` wrote them.
pub fn starts_of(plies_and_results: &[(u32, &str)]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut last: Option<(u32, &str)> = None;
    for (i, &(ply, result)) in plies_and_results.iter().enumerate() {
        if last.is_none_or(|(p, r)| ply < p || result != r) {
            starts.push(i);
        }
        last = Some((ply, result));
    }
    starts
}

/// The cut that holds out the last games covering at least `hold` lines, given each game's
/// first line; `None` when that would leave no game to train on.
pub fn cut(starts: &[usize], lines: usize, hold: usize) -> Option<Cut> {
    let game = starts.iter().rposition(|&s| s > 0 && s + hold <= lines)?;
    Some(Cut {
        at: starts[game],
        training_games: game,
        held_out_games: starts.len() - game,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROUND: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 20 | 1.0
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 | 25 | 1.0
rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 | 30 | 1.0
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1 | 15 | 1.0
rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2 | 10 | 1.0
rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1 | 5 | 0.5
rnbqkbnr/pppp1ppp/8/4p3/2P5/8/PP1PPPPP/RNBQKBNR w KQkq - 0 2 | 0 | 0.5
rnbqkbnr/pppp1ppp/8/4p3/2P5/8/PP1PPPPP/RNBQKBNR w KQkq - 0 2 | 0 | 0.0";

    fn lines() -> Vec<&'static str> {
        ROUND.lines().collect()
    }

    #[test]
    fn games_start_where_the_plies_fall_or_the_result_changes() {
        // Lines 4 (plies fall, same result), 6 (result changes) and 8 (result changes at
        // the same ply) each start a game.
        assert_eq!(game_starts(&lines()), Ok(vec![0, 3, 5, 7]));
    }

    #[test]
    fn the_held_out_part_is_whole_games_covering_at_least_the_lines_asked() {
        let starts = game_starts(&lines()).unwrap();
        let cut_for = |hold| cut(&starts, 8, hold);
        assert_eq!(
            cut_for(1),
            Some(Cut {
                at: 7,
                training_games: 3,
                held_out_games: 1
            })
        );
        assert_eq!(cut_for(2).map(|c| c.at), Some(5));
        assert_eq!(cut_for(3).map(|c| c.at), Some(5));
        assert_eq!(cut_for(4).map(|c| c.at), Some(3));
        assert_eq!(
            cut_for(5),
            Some(Cut {
                at: 3,
                training_games: 1,
                held_out_games: 3
            })
        );
        // Holding out more would leave no game to train on.
        assert_eq!(cut_for(6), None);
    }

    #[test]
    fn a_line_that_is_not_data_is_reported_by_its_number() {
        let mut bad = lines();
        bad.insert(2, "8/8/8/8/8/8/8/8 w - - 0 | 3 | 1.0");
        assert_eq!(game_starts(&bad), Err(3));
        bad[2] = "not data";
        assert_eq!(game_starts(&bad), Err(3));
    }
}

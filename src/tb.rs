//! Syzygy endgame tablebases (through the `shakmaty-syzygy` crate): WDL probes inside the
//! search, and at the root a filter that keeps only the moves that hold the tablebase result.

use std::fmt;

use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase, Wdl};

use crate::score::TB_WIN;

/// The tables found under `SyzygyPath`.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    files: usize,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Tablebases({} files, up to {} pieces)",
            self.files,
            self.max_pieces()
        )
    }
}

/// How the search uses the tables (`SyzygyProbeDepth`, `Syzygy50MoveRule`,
/// `SyzygyProbeLimit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbSettings {
    pub probe_depth: i32,
    pub rule50: bool,
    pub probe_limit: usize,
}

impl Default for TbSettings {
    fn default() -> Self {
        TbSettings {
            probe_depth: 1,
            rule50: true,
            probe_limit: 7,
        }
    }
}

impl Tablebases {
    /// Opens every table in the directories of `paths` (separated by `:`, or `;` on Windows,
    /// as for `PATH`). Fails when a directory cannot be read or no table is found.
    pub fn open(paths: &str) -> Result<Tablebases, String> {
        let mut tables = Tablebase::new();
        let mut files = 0;
        for dir in std::env::split_paths(paths) {
            if dir.as_os_str().is_empty() {
                continue;
            }
            files += tables
                .add_directory(&dir)
                .map_err(|e| format!("cannot read Syzygy directory '{}': {e}", dir.display()))?;
        }
        if files == 0 {
            return Err(format!("no Syzygy tables found in '{paths}'"));
        }
        Ok(Tablebases { tables, files })
    }

    pub fn files(&self) -> usize {
        self.files
    }

    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// Whether `pos` can be looked up: few enough pieces and no castling rights.
    pub fn covers(&self, pos: &Chess, limit: usize) -> bool {
        let pieces = pos.board().occupied().count();
        pieces <= self.max_pieces().min(limit) && pos.castles().is_empty()
    }

    /// The result of `pos` for the side to move, for a position reached by a capture or pawn
    /// move (halfmove clock 0), from the WDL tables alone.
    pub fn probe_wdl(&self, pos: &Chess) -> Option<Wdl> {
        self.tables.probe_wdl_after_zeroing(pos).ok()
    }

    /// The root moves that keep the best tablebase result, with that result; `None` when the
    /// root is not covered or a table is missing. Results take the halfmove clock into
    /// account (from the DTZ tables), so with the fifty-move rule a win that cannot be
    /// completed in time counts as a draw, and every kept winning move still wins in time.
    pub fn root_moves(&self, pos: &Chess, rule50: bool) -> Option<(Vec<Move>, Wdl)> {
        let mut ranked: Vec<(Move, Wdl)> = Vec::new();
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let ours = if child.is_checkmate() {
                Wdl::Win
            } else if child.is_stalemate() || child.is_insufficient_material() {
                Wdl::Draw
            } else {
                -self.child_result(&child)?
            };
            ranked.push((m, effective(ours, rule50)));
        }
        let best = ranked.iter().map(|&(_, w)| w).max()?;
        let keep = ranked
            .into_iter()
            .filter(|&(_, w)| w == best)
            .map(|(m, _)| m)
            .collect();
        Some((keep, best))
    }

    /// A child position's result, halfmove clock included (needs its DTZ table).
    fn child_result(&self, child: &Chess) -> Option<Wdl> {
        let wdl = self.tables.probe_wdl(child).ok()?;
        Some(match wdl {
            AmbiguousWdl::Loss => Wdl::Loss,
            AmbiguousWdl::MaybeLoss | AmbiguousWdl::BlessedLoss => Wdl::BlessedLoss,
            AmbiguousWdl::Draw => Wdl::Draw,
            AmbiguousWdl::CursedWin | AmbiguousWdl::MaybeWin => Wdl::CursedWin,
            AmbiguousWdl::Win => Wdl::Win,
        })
    }

    /// The tablebase move (DTZ-optimal), for extending a line through tablebase positions.
    pub fn best_move(&self, pos: &Chess) -> Option<Move> {
        self.tables.best_move(pos).ok().flatten().map(|(m, _)| m)
    }
}

/// With the fifty-move rule, cursed wins and blessed losses are draws.
fn effective(wdl: Wdl, rule50: bool) -> Wdl {
    match wdl {
        Wdl::CursedWin | Wdl::BlessedLoss if rule50 => Wdl::Draw,
        other => other,
    }
}

/// The search score of a tablebase result at `ply`: a win is worth `TB_WIN - ply` (above any
/// evaluation, below any mate), a loss the negative, a draw 0. Cursed wins and blessed losses
/// count as draws under the fifty-move rule and as ±1 cp (the side that would win keeps
/// playing for it), or as wins and losses without it.
pub fn score(wdl: Wdl, ply: usize, rule50: bool) -> i32 {
    let win = TB_WIN - ply as i32;
    match wdl {
        Wdl::Win => win,
        Wdl::Loss => -win,
        Wdl::Draw => 0,
        Wdl::CursedWin if rule50 => 1,
        Wdl::BlessedLoss if rule50 => -1,
        Wdl::CursedWin => win,
        Wdl::BlessedLoss => -win,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_order_results_and_respect_the_fifty_move_rule() {
        assert!(score(Wdl::Win, 3, true) > score(Wdl::CursedWin, 3, true));
        assert!(score(Wdl::CursedWin, 3, true) > score(Wdl::Draw, 3, true));
        assert_eq!(score(Wdl::CursedWin, 3, false), score(Wdl::Win, 3, false));
        assert_eq!(score(Wdl::Loss, 5, true), -score(Wdl::Win, 5, true));
        assert!(score(Wdl::Win, 1, true) > score(Wdl::Win, 2, true));
        assert_eq!(effective(Wdl::CursedWin, true), Wdl::Draw);
        assert_eq!(effective(Wdl::CursedWin, false), Wdl::CursedWin);
    }
}

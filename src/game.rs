//! The game being played: the current position, its Zobrist key, and the keys of every earlier
//! position (for repetition detection).

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, PositionErrorKinds};

/// Full Zobrist key of `pos` (Polyglot-compatible, en passant only when capturable).
#[inline]
pub fn key_of(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Key of `child`, the position after `m` in `parent` whose key is `key`: incremental where
/// shakmaty offers it, recomputed otherwise.
#[inline]
pub fn key_after(parent: &Chess, key: u64, m: Move, child: &Chess) -> u64 {
    match parent.update_zobrist_hash::<Zobrist64>(Zobrist64(key), m, EnPassantMode::Legal) {
        Some(k) => k.0,
        None => key_of(child),
    }
}

/// Whether `key` stands among the earlier positions of `history` (oldest first) that have the
/// same side to move and lie within the last `halfmoves` plies (since the last irreversible
/// move).
#[inline]
pub fn repeats(history: &[u64], key: u64, halfmoves: u32) -> bool {
    same_side_since_irreversible(history, halfmoves).any(|(_, k)| k == key)
}

/// Whether a search from the position at index `root` of `history` scores `key` as a draw by
/// repetition, among the same earlier positions as `repeats`: `key` repeats a position of the
/// line searched (after the root), or one at the root or before it that stands there twice
/// already (a threefold repetition). A single occurrence before the root is no draw: the game
/// has not reached a threefold, and neither side is held to repeating.
#[inline]
pub fn repeats_since(history: &[u64], key: u64, halfmoves: u32, root: usize) -> bool {
    let mut before_root = 0;
    same_side_since_irreversible(history, halfmoves)
        .filter(|&(_, k)| k == key)
        .any(|(i, _)| {
            before_root += 1;
            i > root || before_root == 2
        })
}

/// How many times `key` stands among those earlier positions (two times make a threefold
/// repetition).
fn repetitions(history: &[u64], key: u64, halfmoves: u32) -> usize {
    same_side_since_irreversible(history, halfmoves)
        .filter(|&(_, k)| k == key)
        .count()
}

/// The places and keys of `history` (oldest first) two, four, six… plies back, within the
/// last `halfmoves` plies.
#[inline]
fn same_side_since_irreversible(
    history: &[u64],
    halfmoves: u32,
) -> impl Iterator<Item = (usize, u64)> {
    let n = history.len();
    let lookback = (halfmoves as usize).min(n);
    (2..=lookback)
        .step_by(2)
        .map(move |back| (n - back, history[n - back]))
}

/// The castling notation a FEN calls for: Chess960 when its castling rights name rooks that
/// standard chess cannot castle with (Shredder-FEN or X-FEN letters), standard otherwise.
pub fn castling_mode_of(fen: &str) -> CastlingMode {
    fen.parse::<Fen>().map_or(CastlingMode::Standard, |f| {
        CastlingMode::detect(f.as_setup())
    })
}

/// Flaws in a FEN that Pivot repairs (with a warning) rather than rejects. Too much material
/// (more than 16 pieces or 8 pawns a side, more promoted pieces than missing pawns) is
/// rejected: such a position can hold more moves than a legal one, so no move list is sized
/// for it.
const REPAIRABLE: PositionErrorKinds = PositionErrorKinds::INVALID_CASTLING_RIGHTS
    .union(PositionErrorKinds::INVALID_EP_SQUARE)
    .union(PositionErrorKinds::IMPOSSIBLE_CHECK);

#[derive(Clone)]
pub struct Game {
    pos: Chess,
    key: u64,
    /// Keys of the positions before the current one, oldest first.
    history: Vec<u64>,
    /// How castling is written: `e1g1` (standard) or king-takes-rook `e1h1` (Chess960).
    castling: CastlingMode,
}

impl Default for Game {
    fn default() -> Self {
        Game::from_position(Chess::default())
    }
}

impl Game {
    pub fn from_position(pos: Chess) -> Game {
        Game {
            key: key_of(&pos),
            pos,
            history: Vec::new(),
            castling: CastlingMode::Standard,
        }
    }

    /// The start position, with castling written in `mode`.
    pub fn start(mode: CastlingMode) -> Game {
        Game::default().with_castling(mode)
    }

    /// The same game with castling written (and FENs read) in `mode`.
    pub fn with_castling(mut self, mode: CastlingMode) -> Game {
        self.castling = mode;
        self
    }

    /// Parses a standard-chess FEN; see [`Game::from_fen_in`].
    #[allow(clippy::result_large_err)]
    pub fn from_fen(fen: &str) -> Result<(Game, Vec<String>), String> {
        Game::from_fen_in(fen, CastlingMode::Standard)
    }

    /// Parses a FEN (four to six fields) for standard chess or, with `CastlingMode::Chess960`,
    /// for Chess960 (castling rights as `KQkq`, X-FEN or Shredder-FEN file letters). Returns
    /// the game and warnings about flaws that were repaired (stale castling rights, an
    /// impossible en-passant square, ...), or an error.
    #[allow(clippy::result_large_err)]
    pub fn from_fen_in(fen: &str, mode: CastlingMode) -> Result<(Game, Vec<String>), String> {
        let parsed: Fen = fen
            .parse()
            .map_err(|e| format!("invalid FEN '{fen}': {e}"))?;
        let game = |pos| Game::from_position(pos).with_castling(mode);
        match parsed.into_position::<Chess>(mode) {
            Ok(pos) => Ok((game(pos), Vec::new())),
            Err(err) => {
                let kinds = err.kinds();
                if !(kinds - REPAIRABLE).is_empty() {
                    return Err(format!("invalid FEN '{fen}': {err}"));
                }
                let warning = format!("FEN '{fen}' repaired: {err}");
                let pos = err
                    .ignore_invalid_castling_rights()
                    .or_else(|e| e.ignore_invalid_ep_square())
                    .or_else(|e| e.ignore_impossible_check())
                    .map_err(|e| format!("invalid FEN '{fen}': {e}"))?;
                Ok((game(pos), vec![warning]))
            }
        }
    }

    /// Plays a move given in UCI notation, or explains why it cannot be played.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, String> {
        let uci: UciMove = text
            .parse()
            .map_err(|_| format!("unparsable move '{text}'"))?;
        let m = uci
            .to_move(&self.pos)
            .map_err(|_| format!("illegal move '{text}'"))?;
        self.play(m);
        Ok(m)
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        let mut child = self.pos.clone();
        child.play_unchecked(m);
        let key = key_after(&self.pos, self.key, m, &child);
        self.history.push(self.key);
        self.pos = child;
        self.key = key;
    }

    pub fn pos(&self) -> &Chess {
        &self.pos
    }

    pub fn key(&self) -> u64 {
        self.key
    }

    /// Whether the current position occurred twice before since the last irreversible move.
    pub fn is_threefold(&self) -> bool {
        repetitions(self.history(), self.key(), self.pos().halfmoves()) >= 2
    }

    pub fn history(&self) -> &[u64] {
        &self.history
    }

    pub fn castling(&self) -> CastlingMode {
        self.castling
    }

    pub fn fen(&self) -> String {
        Fen::from_position(&self.pos, EnPassantMode::Legal).to_string()
    }
}

/// The position of a FEN known to be valid (for unit tests).
#[cfg(test)]
pub(crate) fn test_position(fen: &str) -> Chess {
    Game::from_fen(fen).expect("valid test FEN").0.pos().clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_keys_match_full_keys() {
        let mut game =
            Game::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
                .unwrap()
                .0;
        for text in [
            "e1g1", "e8c8", "a2a4", "b4a3", "d5e6", "d7e6", "c3b5", "a3b2",
        ] {
            let parent = game.pos().clone();
            for m in parent.legal_moves() {
                let mut child = parent.clone();
                child.play_unchecked(m);
                assert_eq!(key_after(&parent, game.key(), m, &child), key_of(&child));
            }
            game.play_uci(text).unwrap();
            assert_eq!(game.key(), key_of(game.pos()));
        }
        assert_eq!(game.history().len(), 8);
    }

    #[test]
    fn bad_fens_are_rejected_with_a_reason() {
        let err = |fen: &str| Game::from_fen(fen).err().unwrap();
        assert!(err("8/8/8/8/8/8/8/8 w - - 0 1").contains("empty board"));
        assert!(err("4k3/8/8/8/8/8/8/8 w - - 0 1").contains("missing king"));
        assert!(err("P3k3/8/8/8/8/8/8/4K3 w - - 0 1").contains("backrank"));
        assert!(err("4k3/8/8/8/8/8/8/4K2r b - - 0 1").contains("opposite check"));
        assert!(err("rnbqkbnr/pppppppp w KQkq - 0 1").contains("invalid FEN"));
        assert!(err("hello").contains("invalid FEN"));
    }

    #[test]
    fn repairable_fens_are_accepted_with_a_warning() {
        let (game, warnings) = Game::from_fen("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1").unwrap();
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("castling"));
        assert_eq!(game.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    }

    #[test]
    fn the_search_draws_a_repetition_after_its_root_or_a_threefold() {
        let draws = |game: &Game, root: usize| {
            repeats_since(game.history(), game.key(), game.pos().halfmoves(), root)
        };
        let mut game = Game::default();
        for text in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            game.play_uci(text).unwrap();
        }
        // The start position a second time: from a root at the start it repeats the root
        // itself, and from a root here it stands once before the root. A twofold either way.
        assert!(!draws(&game, 0));
        assert!(!draws(&game, 4));
        game.play_uci("g1f3").unwrap();
        // The position after 1. Nf3 again: a draw within a line searched from the start, where
        // it came after the root; not from any later root.
        assert!(draws(&game, 0));
        assert!(!draws(&game, 2));
        assert!(!draws(&game, 5));
        for text in ["g8f6", "f3g1", "f6g8"] {
            game.play_uci(text).unwrap();
        }
        // The start position a third time: a draw from any root.
        assert!(game.is_threefold());
        assert!(draws(&game, 8));
        assert!(draws(&game, 0));
    }

    #[test]
    fn illegal_and_unparsable_moves_leave_the_game_unchanged() {
        let mut game = Game::default();
        assert!(
            game.play_uci("e2e5")
                .unwrap_err()
                .contains("illegal move 'e2e5'")
        );
        assert!(
            game.play_uci("xyz")
                .unwrap_err()
                .contains("unparsable move 'xyz'")
        );
        assert_eq!(game.key(), key_of(&Chess::default()));
        assert!(game.history().is_empty());
    }
}

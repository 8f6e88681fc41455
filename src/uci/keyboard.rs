//! The commands for people at the keyboard, beyond the UCI specification: `d` (the board),
//! `eval` (the evaluation in detail), `go perft` and `bench`. Their output is `info string`
//! lines, so a GUI that sees them still reads valid UCI.

use std::time::Instant;

use shakmaty::{Color, Position};

use crate::bench;
use crate::eval::{mopup, static_eval, wdl};
use crate::game::Game;
use crate::nnue::{self, Network};
use crate::out;
use crate::perft as perft_count;
use crate::uci::fmt;

pub fn display(game: &Game) {
    let board = game.pos().board();
    let border = " +---+---+---+---+---+---+---+---+";
    out::send(&fmt::info_string(border));
    for rank in (0..8u32).rev() {
        let mut row = String::from(" |");
        for file in 0..8u32 {
            let sq =
                shakmaty::Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank));
            let c = board.piece_at(sq).map_or(' ', |p| p.char());
            row.push_str(&format!(" {c} |"));
        }
        row.push_str(&format!(" {}", rank + 1));
        out::send(&fmt::info_string(&row));
        out::send(&fmt::info_string(border));
    }
    out::send(&fmt::info_string("   a   b   c   d   e   f   g   h"));
    out::send(&fmt::info_string(&format!("Fen: {}", game.fen())));
    out::send(&fmt::info_string(&format!("Key: {:016X}", game.key())));
    let checkers: Vec<String> = game
        .pos()
        .checkers()
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    out::send(&fmt::info_string(&format!(
        "Checkers: {}",
        checkers.join(" ")
    )));
}

/// The `eval` command: the network's output under each output layer (the piece count
/// picks one), the bare-king score where it takes over, the win/draw/loss estimate, and
/// last the static evaluation the search would start from.
pub fn eval(game: &Game, net: &Network) {
    let pos = game.pos();
    let pieces = pos.board().occupied().count();
    let in_use = nnue::bucket(pieces);
    out::send(&fmt::info_string(&format!(
        "network output by layer, {} to move, {pieces} pieces use layer {}:",
        side_name(pos.turn()),
        in_use + 1
    )));
    for (b, cp) in net.outputs_by_bucket(pos).iter().enumerate() {
        let mark = if b == in_use { " <-" } else { "" };
        out::send(&fmt::info_string(&format!(
            "layer {}: {cp} cp{mark}",
            b + 1
        )));
    }
    if let Some(cp) = mopup::bare_king(pos) {
        out::send(&fmt::info_string(&format!(
            "a queen or rook against a bare king: mating score {cp} cp replaces the network's"
        )));
    }
    let cp = static_eval(net, pos);
    let phase = wdl::phase(pos);
    let (w, d, l) = wdl::wdl(cp, phase);
    out::send(&fmt::info_string(&format!(
        "wdl {w} {d} {l} per mille at phase {phase}/{}",
        wdl::FULL_PHASE
    )));
    out::send(&fmt::info_string(&format!("eval {cp} cp (side to move)")));
}

pub fn perft(game: &Game, depth: u32) {
    let started = Instant::now();
    let parts = perft_count::divide(game.pos(), depth);
    let mut total = 0;
    for (m, n) in &parts {
        out::send(&fmt::info_string(&format!(
            "{}: {n}",
            fmt::uci_move(*m, game.castling())
        )));
        total += n;
    }
    if depth == 0 {
        total = 1;
    }
    let ms = started.elapsed().as_millis().max(1) as u64;
    out::send(&fmt::info_string(&format!(
        "perft {depth} nodes {total} time {ms} nps {}",
        total * 1000 / ms
    )));
}

/// `bench [depth]`: the same search as `pivot bench`, ending in `<nodes> nodes <nps> nps`.
pub fn bench(depth: Option<u32>) {
    let result = bench::run(depth.unwrap_or(bench::DEFAULT_DEPTH), true);
    out::send(&fmt::info_string(&format!(
        "{} nodes {} nps",
        result.nodes,
        result.nps()
    )));
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

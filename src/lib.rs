//! Pivot: a UCI chess engine built around a triangular principal-variation table.

pub mod bench;
pub mod cycle;
pub mod engine;
pub mod eval;
pub mod frontend;
pub mod game;
pub mod movegen;
pub mod nnue;
pub mod options;
pub mod out;
pub mod perft;
pub mod pvcheck;
pub mod score;
pub mod search;
pub mod tb;
pub mod tt;
pub mod uci;

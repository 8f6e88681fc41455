//! `bench`: a fixed-depth search over built-in positions, whose node count is the search's
//! signature (identical on every run and machine) and whose speed is the engine's nps.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::Game;
use crate::nnue;
use crate::search::{Job, Limits, SearchControl, Searcher, Silent};
use crate::tt::TranspositionTable;

/// Depth used when none is given.
pub const DEFAULT_DEPTH: u32 = 9;
/// The node count of `pivot bench` at the default depth: the search's signature, recorded
/// here and nowhere else. A commit that changes it updates it here and carries
/// `Bench: <nodes>` in its message; a test holds every build to it.
pub const SIGNATURE: u64 = 902_456;
/// Hash size used by bench, whatever the Hash option says (so the signature is stable).
const BENCH_HASH_MB: usize = 16;

/// Openings, middlegames and endgames. Sources: the start position; the Chess Programming
/// Wiki perft positions; Bratko-Kopec, Win At Chess and the Strategic Test Suite (see
/// tests/data/README.md); and a few textbook endgames.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
    "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - 0 1",
    "3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - - 0 1",
    "3rn2k/ppb2rpp/2ppqp2/5N2/2P1P3/1P5Q/PB3PPP/3RR1K1 w - - 0 1",
    "r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - 0 1",
    "5rk1/1b3p1p/pp3p2/3n1N2/1P6/P1qB1PP1/3Q3P/4R1K1 w - - 0 1",
    "1k6/5RP1/1P6/1K6/6r1/8/8/8 w - - 0 1",
    "2kr3r/pp1q1ppp/5n2/1Nb5/2Pp1B2/7Q/P4PPP/1R3RK1 w - - 0 1",
    "8/k1b5/P4p2/1Pp2p1p/K1P2P1P/8/3B4/8 w - - 0 1",
    "4r1k1/p1qr1p2/2pb1Bp1/1p5p/3P1n1R/1B3P2/PP3PK1/2Q4R w - - 0 1",
    "r3k2r/2p2p2/p2p1n2/1p2p3/4P2p/1PPPPp1q/1P5P/R1N2QRK b kq - 0 1",
    "2b5/1r6/2kBp1p1/p2pP1P1/2pP4/1pP3K1/1R3P2/8 b - - 0 1",
    "r5k1/1bp3pp/p2p4/1p6/5p2/1PBP1nqP/1PP3Q1/R4R1K b - - 0 1",
    "1q4k1/5p1p/p1rprnp1/3R4/N1P1P3/1P6/P5PP/3Q1R1K w - - 0 1",
    "4r1k1/R5p1/4b2p/1p2P3/7P/P1nP4/6PK/4R3 w - - 0 1",
    "2n2rk1/p2b2bp/3p2p1/q1pPp2n/P1P1P3/1QN5/3BBNPP/1R4K1 w - - 0 1",
    "r1q1k2r/3n3p/p5p1/1pbpP3/2p2P2/8/PPB1QP1P/R1B2RK1 w kq - 0 1",
    "2k2r1r/1b4p1/1nq1p3/1p5p/5P2/1Pp1B1KP/2B1QRP1/R7 w - - 0 1",
    "1k5r/1p1b4/4pp1r/3p4/q4PQ1/3B1R1P/2P1R1PK/8 w - - 0 1",
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "8/8/8/4k3/8/8/8/R3K3 w Q - 0 1",
    "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    "8/5pk1/6p1/8/1R6/6P1/r4PK1/8 w - - 0 1",
    "8/8/1p1k4/p2p4/P2P4/1P1K4/8/8 w - - 0 1",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
    "6k1/5ppp/8/8/8/8/1q3PPP/3R2K1 w - - 0 1",
];

/// Totals of one bench run.
pub struct BenchResult {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        let ms = self.elapsed.as_millis().max(1) as u64;
        self.nodes.saturating_mul(1000) / ms
    }
}

/// Searches every position to `depth` from a fresh table and fresh heuristics. `follow_pv`
/// off measures what searching the previous iteration's PV first saves.
pub fn run(depth: u32, follow_pv: bool) -> BenchResult {
    let control = Arc::new(SearchControl::default());
    let tt = Arc::new(TranspositionTable::new(BENCH_HASH_MB).expect("16 MB for bench"));
    let mut searcher = Searcher::new(Arc::clone(&control));
    searcher.set_follow_pv(follow_pv);
    let mut nodes = 0;
    // The clock runs while searching only, not while the table is cleared between positions
    // (about an eighth of the whole at 16 MB): nps is a speed of the search.
    let mut elapsed = Duration::ZERO;
    for fen in POSITIONS {
        let (game, _) = Game::from_fen(fen).expect("bench positions are valid");
        tt.clear();
        searcher.clear();
        let job = Job {
            game,
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            tt: Arc::clone(&tt),
            move_overhead_ms: 0,
            network: nnue::embedded(),
        };
        let started = Instant::now();
        let outcome = searcher.run(job, &mut Silent);
        elapsed += started.elapsed();
        nodes += outcome.nodes;
    }
    BenchResult { nodes, elapsed }
}

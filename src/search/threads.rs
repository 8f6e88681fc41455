//! Lazy SMP: the main searcher and its helper threads, all searching the same position and
//! sharing only the transposition table.
//!
//! The main searcher owns the limits, the reporting and the answer; the helpers deepen
//! silently, without time limits, each with its own move-ordering heuristics and PV table, and
//! are stopped as soon as the main searcher returns. What they store in the table makes the
//! main search faster. With one thread there are no helpers and the search is exactly the
//! single-threaded one.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;

use super::currline::CurrentLines;
use super::{Job, Limits, Outcome, Reporter, SearchControl, Searcher, Silent};

/// Stack for each helper thread: the search recurses up to `MAX_PLY` deep.
const HELPER_STACK_BYTES: usize = 64 * 1024 * 1024;

pub struct SearchPool {
    main: Searcher,
    helpers: Vec<Searcher>,
    /// Stops the helpers (never set by the GUI; set when the main search returns).
    helper_control: Arc<SearchControl>,
    helper_nodes: Arc<AtomicU64>,
}

impl SearchPool {
    /// A pool of one thread, stopped through `control`.
    pub fn new(control: Arc<SearchControl>) -> SearchPool {
        let helper_nodes = Arc::new(AtomicU64::new(0));
        SearchPool {
            main: Searcher::new(control).with_pool_nodes(Arc::clone(&helper_nodes)),
            helpers: Vec::new(),
            helper_control: Arc::new(SearchControl::default()),
            helper_nodes,
        }
    }

    /// Sets the number of threads (at least one); new helpers start with fresh heuristics.
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.max(1) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            self.helpers.push(Searcher::new_helper(
                Arc::clone(&self.helper_control),
                Arc::clone(&self.helper_nodes),
            ));
        }
    }

    /// Forgets everything learnt from earlier searches, on every thread (`ucinewgame`).
    pub fn clear(&mut self) {
        self.main.clear();
        for helper in &mut self.helpers {
            helper.clear();
        }
    }

    /// Runs one search on every thread and returns the main searcher's result; only the main
    /// searcher reports to `report`.
    pub fn run(&mut self, job: Job, report: &mut dyn Reporter) -> Outcome {
        // UCI_ShowCurrLine: one slot per thread, reported by the main searcher.
        let sink = job
            .limits
            .show_currline
            .then(|| report.line_sink())
            .flatten();
        let lines = sink
            .is_some()
            .then(|| Arc::new(CurrentLines::new(1 + self.helpers.len())));
        self.main
            .set_current_lines(lines.clone().map(|l| (l, 0)), sink);
        for (i, helper) in self.helpers.iter_mut().enumerate() {
            helper.set_current_lines(lines.clone().map(|l| (l, i + 1)), None);
        }
        if self.helpers.is_empty() {
            return self.main.run(job, report);
        }
        self.helper_control.stop.store(false, Ordering::Relaxed);
        self.helper_nodes.store(0, Ordering::Relaxed);
        let limits = Limits {
            depth: job.limits.depth,
            searchmoves: job.limits.searchmoves.clone(),
            tb: job.limits.tb.clone(),
            tb_settings: job.limits.tb_settings,
            ..Limits::default()
        };
        let main = &mut self.main;
        let helpers = &mut self.helpers;
        let helper_control = &self.helper_control;
        thread::scope(|scope| {
            for (i, helper) in helpers.iter_mut().enumerate() {
                let helper_job = Job {
                    game: job.game.clone(),
                    limits: limits.clone(),
                    tt: Arc::clone(&job.tt),
                    move_overhead_ms: 0,
                    network: Arc::clone(&job.network),
                };
                let spawned = thread::Builder::new()
                    .name(format!("helper {}", i + 1))
                    .stack_size(HELPER_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        helper.run(helper_job, &mut Silent);
                    });
                if let Err(e) = spawned {
                    log::error!("cannot start helper thread {}: {e}", i + 1);
                }
            }
            let outcome = main.run(job, report);
            helper_control.stop.store(true, Ordering::Relaxed);
            outcome
        })
    }
}

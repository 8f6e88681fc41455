//! `UCI_ShowCurrLine`: the line each thread is searching, published by every thread as it
//! goes and reported by the main thread at most ten times a second, all threads together.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shakmaty::Move;

use super::Searcher;
use super::report::LineSink;

/// The main thread reports the threads' lines at most this often.
const REPORT_EVERY: Duration = Duration::from_millis(100);

/// The line each thread of a search is on, one slot per thread (the main thread first).
pub struct CurrentLines {
    slots: Vec<Mutex<Vec<Move>>>,
}

impl CurrentLines {
    pub fn new(threads: usize) -> CurrentLines {
        CurrentLines {
            slots: (0..threads.max(1))
                .map(|_| Mutex::new(Vec::new()))
                .collect(),
        }
    }

    /// Every thread's line, in thread order.
    fn all(&self) -> Vec<Vec<Move>> {
        self.slots
            .iter()
            .map(|slot| slot.lock().map(|line| line.clone()).unwrap_or_default())
            .collect()
    }
}

/// What a searcher needs to take part: the shared slots, its own slot, and for the main
/// thread where to report and when it last did.
pub(super) struct CurrLine {
    lines: Arc<CurrentLines>,
    slot: usize,
    sink: Option<Arc<dyn LineSink>>,
    last_report: Instant,
}

impl Searcher {
    /// Takes part in `UCI_ShowCurrLine` for the next search: publishes into slot `slot` of
    /// `lines`, and with a `sink` (the main thread) reports all the slots. `None` leaves it.
    pub fn set_current_lines(
        &mut self,
        lines: Option<(Arc<CurrentLines>, usize)>,
        sink: Option<Arc<dyn LineSink>>,
    ) {
        self.currline = lines.map(|(lines, slot)| {
            Box::new(CurrLine {
                lines,
                slot,
                sink,
                last_report: Instant::now(),
            })
        });
    }

    /// Publishes the line to the node at `ply` (up to any null move on it), and on the main
    /// thread, when due, reports every thread's line.
    #[cold]
    pub(super) fn publish_line(&mut self, ply: usize) {
        let Some(currline) = self.currline.as_deref_mut() else {
            return;
        };
        let path: Vec<Move> = self.stack[..ply.min(self.stack.len())]
            .iter()
            .map_while(|frame| frame.mv)
            .collect();
        if let Some(slot) = currline.lines.slots.get(currline.slot)
            && let Ok(mut line) = slot.lock()
        {
            *line = path;
        }
        if let Some(sink) = &currline.sink
            && currline.last_report.elapsed() >= REPORT_EVERY
        {
            currline.last_report = Instant::now();
            sink.current_lines(&currline.lines.all());
        }
    }
}

//! Relinking the best plan with a plan of the priced (relaxed) problem, as RINS does with an
//! incumbent and a relaxed solution: only the nodes where the two differ are freed.
//!
//! When few enough nodes differ, they may take every strategy (the cheapest plan that fits and
//! agrees with the best one elsewhere); when more differ, each only its own or the other plan's
//! strategy (the cheapest mix of the two that fits). Both are MILPs under the hard memory limit. How many nodes each may free follows how the last
//! one went: grown after a quick proven optimum, halved after a slow or unproven one, so that
//! a relinking never holds up the search for long.

use super::lns::{crossover, improve, Step, StepTime};
use super::search::Search;
use std::time::{Duration, Instant};

/// Time limit of one relinking MILP (HiGHS may overrun it on large ones).
pub(crate) const SECONDS: f64 = 2.0;
/// The first cap on the nodes a two-strategy relinking frees; the every-strategy one starts at
/// a quarter of it.
const FIRST_CAP: usize = 1000;
const LEAST_CAP: usize = 100;

/// What one relinking did.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Relinked {
    /// Nodes that differed.
    pub differ: usize,
    /// Cost decrease.
    pub gain: f64,
    pub seconds: f64,
    /// A step ran (the plans differed in no more nodes than its cap).
    pub ran: bool,
}

/// The caps on freed nodes, adapted run by run.
#[derive(Debug, Clone)]
pub(crate) struct Relinker {
    pair_cap: usize,
    full_cap: usize,
    /// The longest relinking so far.
    longest: Duration,
}

impl Default for Relinker {
    fn default() -> Relinker {
        Relinker { pair_cap: FIRST_CAP, full_cap: FIRST_CAP / 4, longest: Duration::ZERO }
    }
}

fn adapted(cap: usize, freed: usize, step: &Step) -> usize {
    if step.optimal && step.seconds < SECONDS / 2.0 {
        cap.max(freed) * 5 / 4
    } else {
        (freed / 2).max(LEAST_CAP)
    }
}

impl Relinker {
    /// Whether a relinking as long as the longest so far ends before `deadline`: HiGHS may
    /// overrun a MILP's time limit (building a large model is not counted against it).
    pub(crate) fn ends_before(&self, deadline: Option<Instant>) -> bool {
        deadline.is_none_or(|d| Instant::now() + self.longest < d)
    }

    /// Moves `s` (a plan that fits) towards `other` where that lowers the cost and keeps it
    /// within the limit; `time` bounds each MILP (at most [`SECONDS`]).
    pub(crate) fn relink(
        &mut self,
        s: &mut Search,
        other: &[usize],
        local: &mut [usize],
        time: StepTime,
        threads: u32,
    ) -> Relinked {
        let start = Instant::now();
        let differ = s.choice.iter().zip(other).filter(|(a, b)| a != b).count();
        let mut out = Relinked { differ, ..Relinked::default() };
        if differ == 0 {
            return out;
        }
        let limit = StepTime { seconds: time.seconds.min(SECONDS), ..time };
        if differ <= self.full_cap {
            let nodes: Vec<usize> = (0..s.choice.len()).filter(|&v| s.choice[v] != other[v]).collect();
            let step = improve(s, &nodes, local, limit, threads);
            self.full_cap = adapted(self.full_cap, differ, &step);
            out.gain = step.gain;
            out.ran = true;
        } else if differ <= self.pair_cap {
            let (step, freed) = crossover(s, other, local, limit, threads);
            self.pair_cap = adapted(self.pair_cap, freed, &step);
            out.gain = step.gain;
            out.ran = true;
        }
        self.longest = self.longest.max(start.elapsed());
        out.seconds = start.elapsed().as_secs_f64();
        out
    }
}

//! Large neighbourhood search: free a connected set of nodes, fix the rest, and solve the
//! freed part exactly with the MILP (memory included: every checkpoint keeps the load of the
//! fixed nodes). An answer is taken only when it lowers the cost and keeps every checkpoint
//! within the limit.

use std::collections::VecDeque;

use super::ilp::{run_milp, IlpObjective, IlpOptions, MilpLimit};
use super::model::{Model, ModelEdge, Term};
use super::preprocess::{preprocess, PreprocessOptions};
use super::search::Search;

/// Small deterministic generator (SplitMix64).
pub use crate::rng::SplitMix64 as Rng;

/// How a search bounds its MILPs and tells quick steps from slow ones: by the clock under a
/// deadline; by work alone under a work limit (no deadline), so that such a search ends alike
/// however busy the machine is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pace {
    Clock,
    Work,
}

/// Branch-and-bound nodes a MILP gets for each second it would get by the clock.
const MILP_NODES_PER_SECOND: f64 = 200.0;

impl Pace {
    pub fn of(deadline: Option<std::time::Instant>) -> Pace {
        if deadline.is_some() {
            Pace::Clock
        } else {
            Pace::Work
        }
    }

    /// A MILP's time of `seconds`.
    pub fn time(self, seconds: f64) -> StepTime {
        StepTime { seconds, pace: self }
    }
}

/// What one neighbourhood MILP may spend: `seconds`, or at the `Work` pace as many
/// branch-and-bound nodes as [`MILP_NODES_PER_SECOND`] gives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepTime {
    pub seconds: f64,
    pub pace: Pace,
}

impl StepTime {
    fn limit(self) -> MilpLimit {
        match self.pace {
            Pace::Clock => MilpLimit::Seconds(self.seconds),
            Pace::Work => MilpLimit::Nodes((self.seconds * MILP_NODES_PER_SECOND).ceil() as u32),
        }
    }

    /// The seconds a step that started at `start` took: measured, or at the `Work` pace
    /// `modeled` from the size of the MILP it solved.
    fn taken(self, start: std::time::Instant, modeled: f64) -> f64 {
        match self.pace {
            Pace::Clock => start.elapsed().as_secs_f64(),
            Pace::Work => modeled,
        }
    }
}

/// Size budget of a neighbourhood.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub nodes: usize,
    /// Edge-matrix entries inside the neighbourhood (≈ MILP variables).
    pub entries: usize,
}

/// Grows a connected neighbourhood from `seeds` by breadth-first search, in random order of
/// each node's neighbours. `state` is scratch space of zeros (0 unseen, 1 queued, 2 picked),
/// left all zero again.
pub fn grow(s: &Search, seeds: &[usize], budget: Budget, rng: &mut Rng, state: &mut [u8]) -> Vec<usize> {
    let mut picked = Vec::new();
    let mut touched = Vec::new();
    let mut queue: VecDeque<usize> = VecDeque::new();
    let mut entries = 0usize;
    for &x in seeds {
        if state[x] == 0 {
            state[x] = 1;
            touched.push(x);
            queue.push_back(x);
        }
    }
    while let Some(v) = queue.pop_front() {
        if picked.len() >= budget.nodes {
            break;
        }
        // Entries this node adds: edges to already picked nodes.
        let add: usize = s.adj[v].iter().filter(|a| state[a.other] == 2).map(|a| s.m.edges[a.edge].costs.len()).sum();
        if !picked.is_empty() && entries + add > budget.entries {
            continue;
        }
        entries += add;
        state[v] = 2;
        picked.push(v);
        let mut next: Vec<usize> = s.adj[v].iter().map(|a| a.other).filter(|&o| state[o] == 0).collect();
        next.dedup();
        for i in (1..next.len()).rev() {
            next.swap(i, rng.below(i + 1));
        }
        for o in next {
            if state[o] == 0 {
                state[o] = 1;
                touched.push(o);
                queue.push_back(o);
            }
        }
    }
    for x in touched {
        state[x] = 0;
    }
    picked
}

/// The sub-model of `nodes` with everything else fixed, and the nodes' current strategies.
pub fn sub_model(s: &Search, nodes: &[usize], local: &mut [usize]) -> (Model, Vec<usize>) {
    const NONE: usize = usize::MAX;
    for (i, &v) in nodes.iter().enumerate() {
        local[v] = i;
    }
    let m = s.m;
    let mut costs = Vec::with_capacity(nodes.len());
    let mut edges = Vec::new();
    for (i, &v) in nodes.iter().enumerate() {
        let mut c = m.costs[v].clone();
        for a in &s.adj[v] {
            let j = local[a.other];
            if j == NONE {
                let t = s.choice[a.other];
                for (st, cs) in c.iter_mut().enumerate() {
                    *cs += s.entry(v, a, st, t);
                }
            } else if a.is_u {
                edges.push(ModelEdge { u: i, v: j, costs: m.edges[a.edge].costs.clone() });
            }
        }
        costs.push(c);
    }
    // Memory: split checkpoints at the freed terms' ends; each piece keeps the largest load of
    // the fixed nodes inside it.
    let mut points: Vec<usize> = Vec::new();
    for &v in nodes {
        for &k in &s.terms_of[v] {
            points.push(m.terms[k].lo);
            points.push(m.terms[k].hi);
        }
    }
    points.sort_unstable();
    points.dedup();
    let mut terms = Vec::new();
    let mut base = vec![0.0; points.len().saturating_sub(1)];
    let mut contrib = vec![0.0; base.len() + 1];
    for (i, &v) in nodes.iter().enumerate() {
        for &k in &s.terms_of[v] {
            let t = &m.terms[k];
            let lo = points.binary_search(&t.lo).unwrap_or(0);
            let hi = points.binary_search(&t.hi).unwrap_or(0);
            let u = t.usage[s.choice[v]];
            contrib[lo] += u;
            contrib[hi] -= u;
            terms.push(Term { node: i, lo, hi, usage: t.usage.clone() });
        }
    }
    let mut run = 0.0;
    for p in 0..base.len() {
        run += contrib[p];
        base[p] = s.loads.max(points[p], points[p + 1]) - run;
    }
    for &v in nodes {
        local[v] = NONE;
    }
    let cur = nodes.iter().map(|&v| s.choice[v]).collect();
    (Model { costs, edges, terms, base, limit: m.limit }, cur)
}

/// Result of one neighbourhood solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// Cost decrease achieved (0 when nothing changed).
    pub gain: f64,
    /// The MILP proved the neighbourhood optimal.
    pub optimal: bool,
    pub seconds: f64,
    /// The MILP was not started: too large to end near its time limit (`fits_time`).
    pub too_large: bool,
}

impl Step {
    fn failed(start: std::time::Instant, time: StepTime) -> Step {
        Step { gain: 0.0, optimal: false, seconds: time.taken(start, 0.0), too_large: false }
    }

    /// The MILP's choice, whether it is proven optimal and the step's seconds, or the step to
    /// report without one.
    fn of_reduced(
        reduced: Reduced,
        start: std::time::Instant,
        time: StepTime,
    ) -> Result<(Vec<usize>, bool, f64), Step> {
        match reduced {
            Reduced::Solved { choice, optimal, modeled_seconds } => {
                Ok((choice, optimal, time.taken(start, modeled_seconds)))
            }
            Reduced::TooLarge => Err(Step { too_large: true, ..Step::failed(start, time) }),
            Reduced::Nothing => Err(Step::failed(start, time)),
        }
    }
}

/// Solves the neighbourhood `nodes` and applies the answer when it is better and feasible.
/// The neighbourhood is reduced exactly first (with its boundary fixed, many strategies are
/// dominated and many nodes become leaves or chains).
pub fn improve(s: &mut Search, nodes: &[usize], local: &mut [usize], time: StepTime, threads: u32) -> Step {
    let start = std::time::Instant::now();
    let (sub, cur) = sub_model(s, nodes, local);
    solve_and_apply(s, nodes, sub, cur, start, time, threads)
}

/// Optimised crossover of `s` with `other` (which need not fit: a relaxation's plan): frees
/// the nodes where the two differ, each restricted to its two strategies, and solves that for
/// cost under the hard memory limit, as RINS does with an incumbent and a relaxed solution.
/// Applies the answer when it is cheaper and fits. Also returns how many nodes were freed.
pub fn crossover(s: &mut Search, other: &[usize], local: &mut [usize], time: StepTime, threads: u32) -> (Step, usize) {
    let start = std::time::Instant::now();
    let nodes: Vec<usize> = (0..s.choice.len()).filter(|&v| s.choice[v] != other[v]).collect();
    if nodes.is_empty() {
        return (Step::failed(start, time), 0);
    }
    let (mut sub, cur) = sub_model(s, &nodes, local);
    for ((costs, &v), &mine) in sub.costs.iter_mut().zip(&nodes).zip(&cur) {
        for (st, c) in costs.iter_mut().enumerate() {
            if st != mine && st != other[v] {
                *c = f64::INFINITY;
            }
        }
    }
    (solve_and_apply(s, &nodes, sub, cur, start, time, threads), nodes.len())
}

/// Solves the sub-model of `nodes` (currently at `cur`) and applies its answer to `s` when it
/// is cheaper and the whole assignment still fits.
fn solve_and_apply(
    s: &mut Search,
    nodes: &[usize],
    sub: Model,
    cur: Vec<usize>,
    start: std::time::Instant,
    time: StepTime,
    threads: u32,
) -> Step {
    let before = sub.cost(&cur);
    let (choice, optimal, seconds) = match Step::of_reduced(solve_reduced(&sub, &cur, time, threads), start, time) {
        Ok(solved) => solved,
        Err(step) => return step,
    };
    let after = sub.cost(&choice);
    let mut gain = 0.0;
    if after < before && sub.peak(&choice) <= sub.limit {
        for (&v, &st) in nodes.iter().zip(&choice) {
            s.set(v, st);
        }
        if s.memory_ok() {
            gain = before - after;
        } else {
            for (&v, &st) in nodes.iter().zip(&cur) {
                s.set(v, st);
            }
        }
    }
    Step { gain, optimal, seconds, too_large: false }
}

/// MILP nonzeros per second of time limit a neighbourhood may have. HiGHS checks its time
/// limit only between the phases of its presolve, and the memory rows of a neighbourhood can be
/// long: a relinking MILP of 3.2 million nonzeros (A's two-copy instance) spent 8.5 s of its 2 s
/// in presolve on this project's 2-core machine, about 0.4 million a second.
const MILP_ENTRIES_PER_SECOND: f64 = 500_000.0;

/// The seconds a MILP of `m` takes at least, at [`MILP_ENTRIES_PER_SECOND`].
fn modeled_seconds(m: &Model) -> f64 {
    m.milp_entries() as f64 / MILP_ENTRIES_PER_SECOND
}

/// Whether a neighbourhood's MILP is small enough to end near `time_limit`.
fn fits_time(m: &Model, time_limit: f64) -> bool {
    modeled_seconds(m) <= time_limit
}

/// What a neighbourhood's MILP gave.
enum Reduced {
    /// The expanded choice, whether it is proven optimal, and the MILP's `modeled_seconds`.
    Solved {
        choice: Vec<usize>,
        optimal: bool,
        modeled_seconds: f64,
    },
    TooLarge,
    Nothing,
}

/// Solves a neighbourhood's model for cost after exact reduction, warm-started from `current`.
fn solve_reduced(sub: &Model, current: &[usize], time: StepTime, threads: u32) -> Reduced {
    let Ok(red) = preprocess(sub, &PreprocessOptions::default()) else {
        return Reduced::Nothing;
    };
    if !fits_time(&red.model, time.seconds) {
        return Reduced::TooLarge;
    }
    let warm = red.contract(current);
    let opts =
        IlpOptions { objective: IlpObjective::Cost, limit: Some(time.limit()), threads, initial: warm.as_deref() };
    match run_milp(&red.model, &opts).map(|out| (red.expand(&out.choice), out.optimal)) {
        Ok((Ok(choice), optimal)) => Reduced::Solved { choice, optimal, modeled_seconds: modeled_seconds(&red.model) },
        _ => Reduced::Nothing,
    }
}

/// Lowers the peak memory with MILP neighbourhoods that minimise the peak (cost ignored):
/// each step frees nodes live at the fullest checkpoint plus their surroundings. Returns
/// whether the assignment fits the limit at the end.
pub fn repair_peak(
    s: &mut Search,
    deadline: Option<std::time::Instant>,
    threads: u32,
    rng: &mut Rng,
    budget: Budget,
) -> bool {
    let n = s.m.num_nodes();
    let mut state = vec![0u8; n];
    let mut local = vec![usize::MAX; n];
    let mut budget = budget;
    let mut failures = 0;
    let pace = Pace::of(deadline);
    while !s.memory_ok() {
        let left = deadline.map_or(10.0, |d| d.saturating_duration_since(std::time::Instant::now()).as_secs_f64());
        if left <= 0.0 || failures > 20 {
            return false;
        }
        let mut live = live_at(s, s.loads.argmax(), rng);
        live.truncate(budget.nodes / 2 + 1);
        let nodes = grow(s, &live, budget, rng, &mut state);
        let (sub, cur) = sub_model(s, &nodes, &mut local);
        let before = s.peak();
        if !fits_time(&sub, left.min(5.0)) {
            // Too large for its time: try a smaller neighbourhood.
            failures += 1;
            budget.nodes = (budget.nodes * 2 / 3).max(1);
            budget.entries = (budget.entries * 2 / 3).max(1);
            continue;
        }
        let opts = IlpOptions {
            objective: IlpObjective::PeakMemory,
            limit: Some(pace.time(left.min(5.0)).limit()),
            threads,
            initial: Some(&cur),
        };
        let mut improved = false;
        if let Ok(out) = run_milp(&sub, &opts) {
            if sub.cost(&out.choice).is_finite() {
                for (&v, &st) in nodes.iter().zip(&out.choice) {
                    s.set(v, st);
                }
                if s.peak() < before {
                    improved = true;
                } else {
                    for (&v, &st) in nodes.iter().zip(&cur) {
                        s.set(v, st);
                    }
                }
            }
        }
        if improved {
            failures = 0;
        } else {
            failures += 1;
            budget.nodes = budget.nodes * 3 / 2;
            budget.entries = budget.entries * 3 / 2;
        }
    }
    true
}

/// Like `improve`, for the priced problem: `penalty[v][s]` is added to the costs and memory
/// is left out (the prices stand for it). Applies the answer when it lowers cost plus
/// penalty.
pub fn improve_priced(
    s: &mut Search,
    nodes: &[usize],
    local: &mut [usize],
    penalty: &[Vec<f64>],
    time: StepTime,
    threads: u32,
) -> Step {
    let start = std::time::Instant::now();
    let (mut sub, cur) = sub_model(s, nodes, local);
    for (c, &v) in sub.costs.iter_mut().zip(nodes) {
        for (x, p) in c.iter_mut().zip(&penalty[v]) {
            *x += p;
        }
    }
    sub.terms.clear();
    sub.base.clear();
    sub.limit = f64::INFINITY;
    let before = sub.cost(&cur);
    let (choice, optimal, seconds) = match Step::of_reduced(solve_reduced(&sub, &cur, time, threads), start, time) {
        Ok(solved) => solved,
        Err(step) => return step,
    };
    let after = sub.cost(&choice);
    let mut gain = 0.0;
    if after < before - 1e-9 * before.abs().max(1.0) {
        for (&v, &st) in nodes.iter().zip(&choice) {
            s.set(v, st);
        }
        gain = before - after;
    }
    Step { gain, optimal, seconds, too_large: false }
}

/// Nodes with a memory term covering checkpoint `c`, in random order.
pub fn live_at(s: &Search, c: usize, rng: &mut Rng) -> Vec<usize> {
    let mut live: Vec<usize> = s.m.terms.iter().filter(|t| t.lo <= c && c < t.hi).map(|t| t.node).collect();
    live.sort_unstable();
    live.dedup();
    for i in (1..live.len()).rev() {
        live.swap(i, rng.below(i + 1));
    }
    live
}

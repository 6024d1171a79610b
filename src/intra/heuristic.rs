//! The search for large reduced models.
//!
//! 1. Start from every node's cheapest strategy and descend with single-node moves (no memory).
//! 2. Lagrangian phase: prices on checkpoints (see `lagrange`) turn memory into cost; each
//!    round's priced problem is first solved by message passing over the whole graph (`trws`,
//!    its plan taken when cheaper than the last round's), then improved by single-node moves
//!    and tree moves (exact DP on induced trees). After every round the assignment is copied,
//!    repaired to fit memory (a penalty loop on the overflowing checkpoints, `penalty_repair`,
//!    then greedily), polished under the hard limit, and kept when it is the best feasible one
//!    so far; the best one is then relinked with the priced assignment (`relink`: a MILP over
//!    the nodes where they differ); the prices then take a subgradient step (`PriceRule`: by
//!    default steps that grow while the priced plan overflows, and Polyak's rule once those
//!    rounds stop finding better plans). Under the growth rule, prices whose priced plan fits
//!    fall further while a priced descent from that plan (far cheaper than a round) still
//!    fits, and once falling prices overshoot, the scale between the last fitting and the
//!    overflowing prices is bisected (`PriceBracket`).
//! 3. Polishing phase: from the best feasible assignment, tree moves under the hard limit and
//!    large neighbourhood search with the MILP, every few steps a relinking with one of the
//!    last rounds' priced assignments, until the deadline.
//!
//! Without a deadline (a work limit: `max_rounds`), the search runs at the `Work` pace
//! (`lns::Pace`): each MILP is bounded by branch-and-bound nodes instead of seconds, and the
//! neighbourhood sizes adapt to its size instead of its time, so that the outcome depends on
//! the seed alone, however busy the machine is.
//!
//! In the Lagrangian rounds, half of the tree moves and the priced MILP neighbourhoods (while the
//! priced optimum fits) start at cost hotspots (`hotspots`): on the contest instances a few
//! dozen edges carry most of the cost of a good plan.

use std::time::{Duration, Instant};

use super::hotspots::Hotspots;
use super::lagrange::{initial_step, PolyakSteps, PriceBracket, PriceRule, Prices};
use super::lns::{grow, improve, improve_priced, live_at, repair_peak, Budget, Pace, Rng, Step};
use super::model::Model;
use super::penalty_repair::penalty_repair;
use super::relink::{self, Relinker};
use super::search::Search;
use super::solution::MAX_THREADS;
use super::tree::{tree_move, TreeScratch};
use super::trws::Trws;

/// First prices make the priced load about this many times the cost: memory dominates at
/// first, so the first rounds find a plan that fits, and the step then shrinks while the
/// priced optimum fits.
const PRICE_SCALE: f64 = 1000.0;

/// Each probe of `deepest_fitting_scale` lowers the prices by this factor ...
const PROBE_FACTOR: f64 = 0.25;
/// ... at most this many times a round.
const MAX_PROBES: usize = 12;

/// Prices fall by at most a factor 2^MAX_SPEEDUP in one round.
const MAX_SPEEDUP: usize = 6;

/// Rounds without a better feasible plan after which the Lagrangian phase ends.
const STALE_ROUNDS: usize = 8;

/// TRW-S passes on each round's priced problem (its messages carry over between rounds).
const TRWS_PASSES: usize = 20;

/// Priced plans kept for relinking while polishing.
const ELITE: usize = 6;
/// Every this many polishing steps, one relinks with a kept priced plan.
const RELINK_EVERY: usize = 4;

/// Settings of the search.
#[derive(Debug, Clone)]
pub struct HeuristicOptions {
    pub deadline: Option<Instant>,
    pub threads: u32,
    pub verbose: bool,
    pub seed: u64,
    /// Work limit when there is no deadline: Lagrangian rounds, then as many MILP steps.
    pub max_rounds: usize,
    /// A feasible assignment to start from (the best so far until the search beats it).
    pub start: Option<Vec<usize>>,
    pub price_rule: PriceRule,
    /// Each Lagrangian round first solves its priced problem by message passing (`trws`).
    pub message_passing: bool,
}

/// Outcome of the search: the best feasible assignment found, if any.
#[derive(Debug, Clone)]
pub struct HeuristicOutcome {
    pub choice: Option<Vec<usize>>,
    pub rounds: usize,
    pub lns_steps: usize,
    /// When the first feasible assignment was in hand.
    pub first_feasible: Option<Instant>,
}

struct Clock {
    start: Instant,
    deadline: Option<Instant>,
    verbose: bool,
    last_log: Instant,
}

impl Clock {
    fn over(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
    fn log(&mut self, force: bool, msg: impl FnOnce() -> String) {
        if self.verbose && (force || self.last_log.elapsed() >= Duration::from_secs(5)) {
            self.last_log = Instant::now();
            eprintln!("[intra {:7.2}s] {}", self.start.elapsed().as_secs_f64(), msg());
        }
    }
    /// The instant `fraction` of the remaining time from now.
    fn split(&self, fraction: f64) -> Option<Instant> {
        self.deadline.map(|d| {
            let now = Instant::now();
            now + d.saturating_duration_since(now).mul_f64(fraction)
        })
    }
}

/// Searches `m` for a cheap feasible assignment. With `o.threads` above one, that many
/// searches run side by side from different seeds (each with one thread for its MILPs) and the
/// cheapest plan wins: one search's outcome varies more from seed to seed than it gains from
/// a second MILP thread. Workers share nothing, so with a work limit instead of a deadline
/// the outcome is deterministic, and it is never worse than the first worker's alone (the
/// search with `o.seed` on one thread).
pub fn heuristic(m: &Model, o: &HeuristicOptions) -> HeuristicOutcome {
    let workers = o.threads.clamp(1, MAX_THREADS) as usize;
    if workers == 1 {
        return search_one(m, o);
    }
    let outcomes: Vec<HeuristicOutcome> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|i| {
                let worker = worker_options(o, i);
                scope.spawn(move || search_one(m, &worker))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    cheapest_outcome(m, outcomes)
}

/// The options of side-by-side search `i`: one MILP thread and its own seed. Worker 0 searches
/// exactly as a single search with `o` does, and prints the progress lines.
pub(crate) fn worker_options(o: &HeuristicOptions, i: usize) -> HeuristicOptions {
    HeuristicOptions { threads: 1, seed: worker_seed(o.seed, i), verbose: o.verbose && i == 0, ..o.clone() }
}

/// Worker 0 keeps the given seed, so that it searches exactly as a single search does.
pub(crate) fn worker_seed(seed: u64, worker: usize) -> u64 {
    seed.wrapping_add((worker as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The workers' outcomes as one: the cheapest plan (the lowest worker's on ties, so the result
/// does not depend on which thread ends first), their work summed, the earliest plan that fits.
fn cheapest_outcome(m: &Model, outcomes: Vec<HeuristicOutcome>) -> HeuristicOutcome {
    let rounds = outcomes.iter().map(|o| o.rounds).sum();
    let lns_steps = outcomes.iter().map(|o| o.lns_steps).sum();
    let first_feasible = outcomes.iter().filter_map(|o| o.first_feasible).min();
    let mut choice: Option<(f64, Vec<usize>)> = None;
    for c in outcomes.into_iter().filter_map(|o| o.choice) {
        let cost = m.cost(&c);
        if choice.as_ref().is_none_or(|b| cost < b.0) {
            choice = Some((cost, c));
        }
    }
    HeuristicOutcome { choice: choice.map(|b| b.1), rounds, lns_steps, first_feasible }
}

/// One search from `o.seed`.
fn search_one(m: &Model, o: &HeuristicOptions) -> HeuristicOutcome {
    let mut clock = Clock { start: Instant::now(), deadline: o.deadline, verbose: o.verbose, last_log: Instant::now() };
    let n = m.num_nodes();
    let mut rng = Rng::new(o.seed);
    let mut scratch = TreeScratch::new(n);
    let init: Vec<usize> = m.costs.iter().map(|c| cheapest(c)).collect();
    let mut s = Search::new(m, init.clone());
    let mut cand = Search::new(m, init);
    let deadline = o.deadline;
    let mut stop = move || deadline.is_some_and(|d| Instant::now() >= d);
    let pace = Pace::of(deadline);
    s.descend(false, None, &mut stop);
    let mut best: Option<(f64, Vec<usize>)> = None;
    let mut first_feasible = None;
    if let Some(c) = &o.start {
        cand.assign(c);
        polish_trees(&mut cand, (n / 50).clamp(20, 400), 400, &mut rng, &mut scratch);
        let (viol, cost) = cand.total();
        if viol == 0 && cand.memory_ok() {
            best = Some((cost, cand.choice.clone()));
            first_feasible = Some(Instant::now());
        }
    }
    let consider = |c: &Search, best: &mut Option<(f64, Vec<usize>)>| -> bool {
        let (viol, cost) = c.total();
        if viol == 0 && c.memory_ok() && best.as_ref().is_none_or(|b| cost < b.0) {
            *best = Some((cost, c.choice.clone()));
            return true;
        }
        false
    };
    {
        let (viol, cost) = s.total();
        clock.log(true, || {
            format!("start: {viol} forbidden, cost {cost:.0}, peak {:.0} (limit {:.0})", s.peak(), m.limit)
        });
    }

    // Lagrangian phase.
    let phase_end = clock.split(0.75);
    let mut prices = Prices::zero(m);
    let mut step = initial_step(s.total().1, &s.loads.values(), PRICE_SCALE);
    let max_step = step * 1e6;
    let mut rounds = 0;
    let mut stale = 0;
    // A given start does not end the phase early: the rounds must have found a plan themselves.
    let mut rounds_found = false;
    let tree_size = 400;
    let priced_steps = 5;
    let mut priced_budget = Budget { nodes: 100, entries: 50_000 };
    let mut state = vec![0u8; n];
    let mut local = vec![usize::MAX; n];
    let trees_per_round = (n / 50).clamp(20, 400);
    let mut round_hot = Hotspots::new(&s);
    let mut fit_streak = 0usize;
    let mut polyak = PolyakSteps::default();
    let mut relinker = Relinker::default();
    // Seconds of the longest MILP of any kind so far.
    let mut longest_milp = 0.0f64;
    let mut polyak_on = o.price_rule.polyak_from_now(false, false, 0);
    // The prices of the last round when it fitted and were then scaled down, and the factor.
    let mut scaled_from_fit: Option<(Prices, f64)> = None;
    let mut bracket: Option<PriceBracket> = None;
    // The last rounds' priced plans, relinked with the incumbent while polishing.
    let mut elite: Vec<Vec<usize>> = Vec::new();
    let mut trws = o.message_passing.then(|| Trws::new(m));
    loop {
        let over = match phase_end {
            Some(e) => Instant::now() >= e,
            None => rounds >= o.max_rounds,
        };
        // Leave for polishing once the rounds stop paying off.
        if over || n == 0 || (rounds_found && stale >= STALE_ROUNDS) {
            break;
        }
        rounds += 1;
        let pen = prices.penalties(m);
        // Message passing sees the whole priced problem; take its plan when it is cheaper.
        if let Some(trws) = trws.as_mut() {
            let passing = Instant::now();
            let passed = trws.run(Some(&pen), TRWS_PASSES, &mut stop);
            let mine = priced_cost(m, &pen, &s.choice);
            if passed.cost < mine {
                s.assign(&passed.choice);
            }
            clock.log(false, || {
                format!(
                    "round {rounds}: TRW-S priced plan {:.0}, the search's {mine:.0}, {:.2}s",
                    passed.cost,
                    passing.elapsed().as_secs_f64()
                )
            });
        }
        s.descend(false, Some(&pen), &mut stop);
        for t in 0..trees_per_round {
            // Half of the trees grow from where the cost sits.
            let hot = if t % 2 == 0 { round_hot.pick(&s, &mut rng) } else { None };
            let seed = hot.unwrap_or_else(|| rng.below(n));
            tree_move(&mut s, seed, tree_size, Some(&pen), &mut rng, &mut scratch);
        }
        s.descend(false, Some(&pen), &mut stop);
        // MILP neighbourhoods of the priced problem: around the fullest checkpoint while the
        // priced optimum overflows, otherwise at cost hotspots.
        for _ in 0..priced_steps {
            if stop() {
                break;
            }
            let hot = if s.memory_ok() || s.loads.is_empty() { round_hot.pick(&s, &mut rng) } else { None };
            let seeds: Vec<usize> = if let Some(h) = hot {
                vec![h]
            } else if s.memory_ok() || s.loads.is_empty() {
                vec![rng.below(n)]
            } else {
                let mut live = live_at(&s, s.loads.argmax(), &mut rng);
                live.truncate(priced_budget.nodes / 4 + 1);
                live
            };
            let nodes = grow(&s, &seeds, priced_budget, &mut rng, &mut state);
            let st = improve_priced(&mut s, &nodes, &mut local, &pen, pace.time(2.0), o.threads);
            if let Some(h) = hot {
                round_hot.record(h, st.gain > 0.0);
            }

            adapt(&mut priced_budget, &st);
            longest_milp = longest_milp.max(st.seconds);
        }
        s.descend(false, Some(&pen), &mut stop);
        // Feasible copy.
        cand.assign(&s.choice);
        let mut fits =
            penalty_repair(&mut cand, &prices, &mut rng, &mut scratch, &mut stop) || cand.repair_memory(&mut stop);
        if !fits && best.is_none() && rounds % 10 == 0 && cand.peak() < 1.05 * m.limit {
            // The greedy repair is stuck: lower the peak with MILP neighbourhoods.
            fits = repair_peak(&mut cand, clock.split(0.3), o.threads, &mut rng, Budget { nodes: 60, entries: 40_000 });
            clock.log(true, || format!("MILP peak repair: fits {fits}, peak {:.0}", cand.peak()));
        }
        let mut improved = false;
        if fits {
            cand.descend(true, None, &mut stop);
            polish_trees(&mut cand, trees_per_round, tree_size, &mut rng, &mut scratch);
            improved = consider(&cand, &mut best);
            first_feasible = first_feasible.or(best.is_some().then(Instant::now));
        }
        // The best plan relinked with the priced one: the cheapest plan that fits where they differ.
        if let (Some((_, b)), true) = (&best, relinker.ends_before(phase_end)) {
            cand.assign(b);
            let left = phase_end.map_or(relink::SECONDS, |e| e.saturating_duration_since(Instant::now()).as_secs_f64());
            let r = relinker.relink(&mut cand, &s.choice, &mut local, pace.time(left), o.threads);
            longest_milp = longest_milp.max(r.seconds);
            improved |= consider(&cand, &mut best);
            clock.log(false, || {
                format!(
                    "round {rounds}: relinked {} differing nodes: ran {}, gain {:.0} in {:.2}s",
                    r.differ, r.ran, r.gain, r.seconds
                )
            });
        }
        if elite.len() == ELITE {
            elite.remove(0);
        }
        elite.push(s.choice.clone());
        stale = if improved { 0 } else { stale + 1 };
        rounds_found |= improved;
        let loads = s.loads.values();
        let (_, cost) = s.total();
        // Prices: a subgradient step, larger while the priced optimum overflows; once it fits,
        // all prices fall so that memory gets cheaper quickly.
        // Rounds in a row that fit speed the fall up: the first prices are far above the
        // threshold, and halving once a round would spend many rounds at the least-memory plan.
        // Once Polyak's rule is on (from the start under `PriceRule::Polyak`, once the growth
        // rule's plans stop improving under `GrowthThenPolyak`) and a plan fits, it sizes every
        // step instead.
        let polyak_now = o.price_rule.polyak_from_now(polyak_on, rounds_found, stale);
        if polyak_now && !polyak_on {
            // A new rule gets its own rounds before the phase counts them as stale.
            stale = 0;
            clock.log(true, || format!("round {rounds}: Polyak's rule from here on"));
        }
        polyak_on = polyak_now;
        // After the growth rule's falling prices overshoot (a round that fitted, scaled down,
        // overflows), the scale between the two is bisected.
        let upper = best.as_ref().filter(|_| polyak_on).map(|b| b.0);
        let scaled = scaled_from_fit.take();
        if let Some(upper) = upper {
            bracket = None;
            polyak.step(&mut prices, &loads, m.limit, cost, upper);
        } else if let Some(b) = bracket.as_mut() {
            if b.record(s.memory_ok()) {
                prices = b.prices();
            } else {
                prices = b.fitting();
                bracket = None;
                fit_streak = 0;
            }
        } else if s.memory_ok() {
            fit_streak += 1;
            let planned = 0.5f64.powi(fit_streak.min(MAX_SPEEDUP) as i32);
            let probing = Instant::now();
            let factor = deepest_fitting_scale(&mut cand, &s.choice, &prices, planned, &mut stop);
            clock.log(false, || {
                format!(
                    "round {rounds}: prices scaled by {factor:.3e} (rule {planned:.3e}), probed in {:.2}s",
                    probing.elapsed().as_secs_f64()
                )
            });
            scaled_from_fit = Some((prices.clone(), factor));
            prices.scale(factor);
            step *= factor;
        } else if let Some(b) = scaled.and_then(|(fitted, factor)| PriceBracket::new(fitted, factor)) {
            prices = b.prices();
            bracket = Some(b);
        } else {
            fit_streak = 0;
            step = (step * 1.5).min(max_step);
            prices.step(&loads, m.limit, step);
        }
        clock.log(false, || {
            format!(
                "round {rounds}: priced cost {cost:.0}, peak {:.0}, repaired {fits}, best {}",
                s.peak(),
                best.as_ref().map_or("none".to_string(), |b| format!("{:.0}", b.0))
            )
        });
    }
    clock.log(true, || {
        format!(
            "after {rounds} Lagrangian rounds: best {}",
            best.as_ref().map_or("none".to_string(), |b| format!("{:.0}", b.0))
        )
    });

    // Polishing phase: tree moves and MILP neighbourhoods under the hard limit.
    let mut steps = 0;
    if let Some((_, b)) = &best {
        cand.assign(b);
        let mut budget = Budget { nodes: 40, entries: 20_000 };
        // A step's sub-MILP has a time limit but its setup and HiGHS's own overshoot do not, so
        // no step starts unless the longest step or MILP so far still fits before the deadline.
        let mut longest_step = Duration::from_secs_f64(longest_milp);
        loop {
            let over = match o.deadline {
                Some(d) => clock.over() || Instant::now() + longest_step >= d,
                None => steps >= o.max_rounds,
            };
            if over {
                break;
            }
            let step_start = Instant::now();
            if steps % RELINK_EVERY == RELINK_EVERY - 1 && !elite.is_empty() {
                let other = &elite[(steps / RELINK_EVERY) % elite.len()];
                let left =
                    o.deadline.map_or(relink::SECONDS, |d| d.saturating_duration_since(Instant::now()).as_secs_f64());
                let r = relinker.relink(&mut cand, other, &mut local, pace.time(left), o.threads);
                steps += 1;
                longest_step = longest_step.max(step_start.elapsed());
                consider(&cand, &mut best);
                clock.log(false, || {
                    format!(
                        "polish step {steps}: relinked {} differing nodes: ran {}, gain {:.0}",
                        r.differ, r.ran, r.gain
                    )
                });
                continue;
            }
            polish_trees(&mut cand, trees_per_round / 4 + 1, tree_size, &mut rng, &mut scratch);
            // Half of the neighbourhoods start at nodes live at the fullest checkpoint, where
            // memory has to be traded between nodes.
            let seeds: Vec<usize> = if steps % 2 == 1 && !cand.loads.is_empty() {
                let mut live = live_at(&cand, cand.loads.argmax(), &mut rng);
                live.truncate(4);
                live
            } else {
                vec![rng.below(n)]
            };
            let seeds = if seeds.is_empty() { vec![rng.below(n)] } else { seeds };
            let nodes = grow(&cand, &seeds, budget, &mut rng, &mut state);
            let left = o.deadline.map_or(5.0, |d| d.saturating_duration_since(Instant::now()).as_secs_f64());
            let step = improve(&mut cand, &nodes, &mut local, pace.time(left.min(5.0)), o.threads);
            steps += 1;
            longest_step = longest_step.max(step_start.elapsed());
            adapt(&mut budget, &step);
            consider(&cand, &mut best);
            clock.log(false, || {
                format!(
                    "polish step {steps}: cost {:.0}, peak {:.0}, neighbourhood {} nodes",
                    cand.total().1,
                    cand.peak(),
                    budget.nodes
                )
            });
        }
        consider(&cand, &mut best);
    }
    clock.log(true, || {
        format!(
            "done: {rounds} rounds, {steps} MILP steps, best {}",
            best.as_ref().map_or("none".to_string(), |b| format!("{:.0}", b.0))
        )
    });
    HeuristicOutcome { choice: best.map(|b| b.1), rounds, lns_steps: steps, first_feasible }
}

/// How far the prices of a round whose priced plan fitted can fall: from the rule's `first`
/// factor down by [`PROBE_FACTOR`] while the plan still fits after a priced descent from it
/// (a cheap stand-in for a round), at most [`MAX_PROBES`] times. A round costs far more than a
/// descent, and without probing the rule's first falls (by 2, 4, 8, ...) spend rounds at
/// prices where the priced plan sits far below the limit.
fn deepest_fitting_scale(
    probe: &mut Search,
    from: &[usize],
    prices: &Prices,
    first: f64,
    stop: &mut dyn FnMut() -> bool,
) -> f64 {
    let mut fitting = first;
    let mut factor = first * PROBE_FACTOR;
    for _ in 0..MAX_PROBES {
        if stop() {
            break;
        }
        probe.assign(from);
        let mut p = prices.clone();
        p.scale(factor);
        probe.descend(false, Some(&p.penalties(probe.m)), stop);
        if !probe.memory_ok() {
            break;
        }
        fitting = factor;
        factor *= PROBE_FACTOR;
    }
    fitting
}

/// Grows a neighbourhood while the MILP proves optimality quickly, shrinks it otherwise.
fn adapt(budget: &mut Budget, step: &Step) {
    if step.optimal && step.seconds < 0.5 {
        budget.nodes = (budget.nodes * 11 / 10 + 1).min(5000);
        budget.entries = (budget.entries * 11 / 10).min(2_000_000);
    } else if !step.optimal || step.seconds > 2.0 {
        budget.nodes = (budget.nodes * 8 / 10).max(10);
        budget.entries = (budget.entries * 8 / 10).max(2_000);
    }
}

/// Tree moves on cost alone, each undone when it breaks the memory limit.
pub(crate) fn polish_trees(c: &mut Search, count: usize, size: usize, rng: &mut Rng, scratch: &mut TreeScratch) {
    let n = c.m.num_nodes();
    for _ in 0..count {
        let moved = tree_move(c, rng.below(n), size, None, rng, scratch);
        if !moved.undo.is_empty() && !c.memory_ok() {
            for &(v, old) in moved.undo.iter().rev() {
                c.set(v, old);
            }
        }
    }
}

/// Cost plus memory penalties of `choice` (infinite when it uses a forbidden choice).
fn priced_cost(m: &Model, pen: &[Vec<f64>], choice: &[usize]) -> f64 {
    m.cost(choice) + pen.iter().zip(choice).map(|(p, &s)| p[s]).sum::<f64>()
}

/// The cheapest allowed strategy (the first when none is allowed).
pub(crate) fn cheapest(c: &[f64]) -> usize {
    let mut b = 0;
    for (i, &x) in c.iter().enumerate() {
        if x < c[b] || (!c[b].is_finite() && x.is_finite()) {
            b = i;
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intra::tests::random_large;

    /// The probed scale is the rule's, or deeper by whole probe factors, where a priced descent
    /// still fits; the probes stop at the first scale where it overflows.
    #[test]
    fn probing_lowers_the_prices_exactly_while_the_priced_descent_fits() {
        let mut deeper = 0;
        for seed in 0..6 {
            let p = random_large(seed, 120);
            let m = Model::from_problem(&p);
            let from = p.least_memory_choice();
            let mut probe = Search::new(&m, from.clone());
            assert!(probe.memory_ok());
            let prices = Prices { lambda: vec![50.0; m.num_checkpoints()] };
            let fits_at = |scale: f64| {
                let mut s = Search::new(&m, from.clone());
                let mut p = prices.clone();
                p.scale(scale);
                s.descend(false, Some(&p.penalties(&m)), &mut || false);
                s.memory_ok()
            };
            let first = 0.5;
            let scale = deepest_fitting_scale(&mut probe, &from, &prices, first, &mut || false);
            let probes = (scale / first).log(PROBE_FACTOR).round() as usize;
            assert!((first * PROBE_FACTOR.powi(probes as i32) - scale).abs() <= 1e-12 * first, "{scale}");
            assert!(probes <= MAX_PROBES);
            if probes > 0 {
                deeper += 1;
                assert!(fits_at(scale), "seed {seed}: the probed scale {scale} overflows");
            }
            if probes < MAX_PROBES {
                assert!(!fits_at(scale * PROBE_FACTOR), "seed {seed}: stopped at {scale} while a lower scale fits");
            }
        }
        assert!(deeper > 0, "no problem let the prices fall below the rule's: the test checks nothing");
    }
}

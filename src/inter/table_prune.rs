//! The cost table without the (range, submesh) pairs that cannot be in the stage DP's plan,
//! decided before planning them (exact: the DP returns the same plan as on the full table).
//!
//! A pair is skipped when
//! - no plan can use it: a stage on `d` devices leaves N - d devices for the other stages,
//!   and each needs one; the whole model is one stage only on all N devices ([`usable`]);
//! - its memory floor (stage_floor.rs) exceeds the device memory at the least depth the stage
//!   can have (1 for a last stage, 2 before it): none of its options fits at any depth it can
//!   take, and the DP has no transition for an option there ([`never_fits`]);
//! - no plan exists even if every pair had an option at its floors (the DP on the floors has
//!   no plan): then nothing is planned, and the DP's explanation reads the floors;
//! - with epsilon 0 (the default), no plan of a reader (the DP, and the report's baselines
//!   that run it) that uses the pair can beat that reader's best plan so far, at the floors of
//!   the pairs not planned yet (plan_floor.rs, which says why the plans stay the same); the
//!   whole model on the whole cluster is planned first, alone, so that a plan exists from the
//!   first round;
//! - with epsilon > 0, its latency floor exceeds [`latency_cutoff`] of a plan already found:
//!   the pairs are planned in rounds by ascending floor (the whole model first), and after
//!   each round the DP on the pairs planned so far gives a plan P. The DP on the full table
//!   returns T <= T(P) + (B - 1) eps (the epsilon group holding P's slowest stage is
//!   evaluated, or the enumeration stopped on a better T), and its optimal group ends at
//!   t <= T / (B - 1). Every group it evaluates starts below T(P) / (B - 1) + eps (beyond
//!   that, B x t0 > T(P) >= its best so far) and so holds no latency above the cutoff: the
//!   candidates, groups and F values it sees are the same without those pairs.
//!
//! Pairs skipped that the report's baselines may read are planned after the rounds, so the
//! baselines are those of the full table too: with the plan-floor rule, the stages of the fixed
//! plans (intra-op only, the Megatron grid: [`fixed_reads`]), as the DP baselines are readers;
//! with the latency cutoff, stages on one device and ranges whose length divides L.

use super::baselines::{equal_split_depths, equal_stages, standard_submesh};
use super::cache::{CachedCost, RangeKey};
use super::error::InterError;
use super::memory::stage_memory;
use super::pipeline::solve_placeable;
use super::plan::{pipeline_time, StageDpOptions};
use super::plan_floor::{PlanFloors, Reader};
use super::progress::Progress;
use super::stage_cost::{StageCost, StageCostResult, StageFloor};
use super::submesh::{submesh_shapes, ClusterShape, SubmeshShape};
use super::table::{query_parallel, CostTable, TableOptions};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::atomic::AtomicUsize;
use std::time::Instant;

/// Relative slack on floor comparisons: a floor and the cost it bounds are sums of the same
/// terms in another order.
pub(crate) const SLACK: f64 = 1e-9;

/// Whether some plan of `layers` layers on `devices` devices can have `range` as a stage on
/// `stage_devices` devices (every stage holds a layer and a device; all devices are used).
pub(crate) fn usable(range: &Range<usize>, stage_devices: usize, layers: usize, devices: usize) -> bool {
    let others = usize::from(range.start > 0) + usize::from(range.end < layers);
    if others == 0 {
        stage_devices == devices
    } else {
        stage_devices + others <= devices
    }
}

/// The least pipeline depth of a stage ending at layer `end` of `layers`: a stage before the
/// last has one after it.
pub(crate) fn least_depth(end: usize, layers: usize) -> usize {
    if end < layers {
        2
    } else {
        1
    }
}

/// `floor` as an option (the DP on floors).
fn as_option(floor: &StageFloor, devices: usize) -> StageCostResult {
    StageCostResult {
        latency: floor.latency,
        mem_param: floor.mem_param,
        mem_act: floor.mem_act,
        logical_mesh: [1, devices],
    }
}

/// The least memory per device any option above `floor` needs at `depth` under the schedule.
pub(crate) fn least_memory(floor: &StageFloor, depth: usize, dp: &StageDpOptions) -> f64 {
    stage_memory(&as_option(floor, 1), depth, dp.microbatches, dp.schedule)
}

/// Whether no option above `floor` fits in device memory at `depth` or deeper.
pub(crate) fn never_fits(floor: &StageFloor, depth: usize, dp: &StageDpOptions) -> bool {
    least_memory(floor, depth, dp) > dp.mem_device * (1.0 + SLACK)
}

/// The stage latency above which no pair can change the DP's plan once a plan of iteration
/// time `plan_time` is known (see the module doc); infinite with one microbatch.
pub(crate) fn latency_cutoff(plan_time: f64, dp: &StageDpOptions) -> f64 {
    if dp.microbatches < 2 || !plan_time.is_finite() {
        return f64::INFINITY;
    }
    let b1 = (dp.microbatches - 1) as f64;
    (plan_time + b1 * dp.epsilon) / b1 + 2.0 * dp.epsilon
}

/// Whether a stage whose latency floor is `floor` is above `cutoff`.
fn above(floor: f64, cutoff: f64) -> bool {
    floor > cutoff * (1.0 + SLACK)
}

/// How many pairs each rule skipped.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Skipped {
    pub(crate) unusable: usize,
    pub(crate) memory: usize,
    pub(crate) latency: usize,
    /// Pairs no plan of a reader faster than its best can use (plan_floor.rs).
    pub(crate) plan_floor: usize,
    /// Pairs answered by the query of another pair with the same cache key.
    pub(crate) shared: usize,
}

/// The table the DP needs, built through `oracle` by `opts.threads` workers, skipping the
/// pairs the rules of the module doc rule out for the DP of `dp`.
pub(crate) fn build_pruned<C: StageCost + Sync>(
    oracle: &CachedCost<C>,
    layers: usize,
    cluster: ClusterShape,
    opts: &TableOptions,
    dp: &StageDpOptions,
) -> Result<CostTable, InterError> {
    let start = Instant::now();
    let mut t = CostTable::empty(layers, cluster, submesh_shapes(cluster, opts.shapes))?;
    let shapes = t.shapes().to_vec();
    let (requests, imbalance_pruned) = t.requests(opts)?;
    let progress = Progress::new(opts.progress, "cost table");
    let mut skipped = Skipped::default();
    let mut floors = Vec::new();

    // Pairs no plan can use or fit; the others grouped by cache key (one query per key).
    let mut groups: Vec<(f64, Vec<usize>)> = Vec::new();
    let mut group_of: HashMap<(RangeKey, SubmeshShape), usize> = HashMap::new();
    for (n, &(k, i, s)) in requests.iter().enumerate() {
        let shape = shapes[s];
        if !usable(&(k..i), shape.devices(), layers, cluster.devices()) {
            skipped.unusable += 1;
            continue;
        }
        let floor = oracle.floor(k..i, shape);
        floors.push(((k, i, s), floor));
        if let Some(f) = floor.filter(|f| never_fits(f, least_depth(i, layers), dp)) {
            t.set_memory_floor(k, i, s, least_memory(&f, 1, dp));
            skipped.memory += 1;
            continue;
        }
        let latency_floor = floor.map_or(0.0, |f| f.latency);
        let g = *group_of.entry(oracle.key(&(k..i), shape)).or_insert_with(|| {
            groups.push((f64::INFINITY, Vec::new()));
            groups.len() - 1
        });
        groups[g].0 = groups[g].0.min(latency_floor);
        groups[g].1.push(n);
    }
    let floor_of: HashMap<(usize, usize, usize), Option<StageFloor>> = floors.iter().copied().collect();
    if !floors.is_empty() && floors.iter().all(|(_, f)| f.is_some()) && !plan_on_floors(&t, &floors, cluster, dp)? {
        // No plan fits even at the floors: nothing to plan, the DP explains with the floors.
        for &((k, i, s), floor) in &floors {
            if let Some(f) = floor {
                t.set_memory_floor(k, i, s, least_memory(&f, 1, dp));
            }
        }
        skipped.memory += groups.iter().map(|g| g.1.len()).sum::<usize>();
        progress.say(|| "no plan fits in device memory even at the stages' memory floors: nothing planned".to_string());
        oracle.record_build(imbalance_pruned, start.elapsed().as_secs_f64());
        oracle.record_skipped(skipped);
        return Ok(t);
    }
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by(|&a, &b| groups[a].0.total_cmp(&groups[b].0).then(groups[a].1[0].cmp(&groups[b].1[0])));
    // The whole model on the whole cluster first: a plan of one stage, so a bound from the start.
    let whole = shapes.iter().position(|s| s.devices() == cluster.devices() && s.hosts == cluster.hosts);
    let seeded = whole.and_then(|s| group_of.get(&oracle.key(&(0..layers), shapes[s]))).copied();
    if let Some(g) = seeded {
        order.retain(|&x| x != g);
        order.insert(0, g);
    }
    progress.say(|| {
        format!(
            "{} (range, submesh) pairs, {} distinct to plan; skipped: {} unusable, {} over memory, {} imbalance; {} threads",
            requests.len(),
            groups.len(),
            skipped.unusable,
            skipped.memory,
            imbalance_pruned,
            opts.threads
        )
    });

    // With epsilon 0, the plan-floor rule (plan_floor.rs); otherwise the latency cutoff.
    let mut plan_floors = (dp.epsilon == 0.0)
        .then(|| {
            let mut optimistic = CostTable::empty(layers, cluster, shapes.clone())?;
            for &n in groups.iter().flat_map(|g| &g.1) {
                let (k, i, s) = requests[n];
                let floor = floor_of.get(&(k, i, s)).copied().flatten().unwrap_or_default();
                optimistic.set(k, i, s, vec![as_option(&floor, shapes[s].devices())])?;
            }
            Ok::<_, InterError>(PlanFloors::new(optimistic, Reader::all(layers, opts.baselines), cluster, dp))
        })
        .transpose()?;

    let total = groups.len();
    let done = AtomicUsize::new(0);
    let quiet = StageDpOptions { progress: false, ..dp.clone() };
    let shared = std::cell::Cell::new(0);
    let fill = |t: &mut CostTable,
                floors: &mut Option<PlanFloors>,
                results: Vec<(usize, Vec<StageCostResult>)>,
                group_at: &HashMap<usize, usize>| {
        for (n, o) in results {
            shared.set(shared.get() + groups[group_at[&n]].1.len() - 1);
            for &m in &groups[group_at[&n]].1 {
                let (k, i, s) = requests[m];
                t.set(k, i, s, o.clone())?;
                if let Some(f) = floors.as_mut() {
                    f.planned(k, i, s, o.clone())?;
                }
            }
        }
        Ok::<(), InterError>(())
    };
    let round = opts.threads.max(1) * 4;
    let mut cutoff = f64::INFINITY;
    let mut beyond = Vec::new();
    let mut next = 0;
    while next < order.len() {
        // The one-stage plan alone in the first round, so that its bound holds from the second.
        let size = if next == 0 && seeded.is_some() { 1 } else { round };
        let mut batch = Vec::new();
        let mut group_at = HashMap::new();
        while batch.len() < size && next < order.len() {
            let g = order[next];
            next += 1;
            let ruled_out = match &plan_floors {
                Some(f) => !groups[g].1.iter().any(|&n| {
                    let (k, i, s) = requests[n];
                    f.may_use(k, i, s)
                }),
                None => above(groups[g].0, cutoff),
            };
            if ruled_out {
                beyond.push(g);
                continue;
            }
            batch.push(groups[g].1[0]);
            group_at.insert(groups[g].1[0], g);
        }
        if batch.is_empty() {
            continue;
        }
        let results = query_parallel(oracle, &requests, &batch, &shapes, opts.threads, &progress, &done, total);
        fill(&mut t, &mut plan_floors, results, &group_at)?;
        if let Some(f) = plan_floors.as_mut() {
            if let Some(time) = f.update(&t) {
                progress.say(|| {
                    format!("a plan of {time:.6e} s: pairs that no faster plan can use at the floors are not planned")
                });
            }
        } else if let Ok(r) = solve_placeable(&t, cluster, &quiet) {
            let found = latency_cutoff(pipeline_time(r.plan.sum_latency, r.plan.max_latency, dp.microbatches), dp);
            if found < cutoff {
                cutoff = found;
                progress.say(|| {
                    format!("a plan of {:.6e} s: stages above {cutoff:.6e} s are not planned", r.plan.iteration_time)
                });
            }
        }
    }

    // What the baselines read of the skipped pairs: with the plan-floor rule, the stages of the
    // fixed plans (intra-op only, the Megatron grid); otherwise every pair they may read.
    let fixed = fixed_reads(&t, &floor_of, opts.baselines, dp);
    let for_baselines: Vec<usize> = beyond
        .iter()
        .copied()
        .filter(|&g| {
            groups[g].1.iter().any(|&n| {
                let (k, i, s) = requests[n];
                match plan_floors {
                    Some(_) => fixed.contains(&(k, i, s)),
                    None => shapes[s].devices() == 1 || layers.is_multiple_of(i - k),
                }
            })
        })
        .collect();
    let not_planned = beyond.iter().filter(|g| !for_baselines.contains(g)).map(|&g| groups[g].1.len()).sum();
    match plan_floors {
        Some(_) => skipped.plan_floor = not_planned,
        None => skipped.latency = not_planned,
    }
    let batch: Vec<usize> = for_baselines.iter().map(|&g| groups[g].1[0]).collect();
    let group_at: HashMap<usize, usize> = for_baselines.iter().map(|&g| (groups[g].1[0], g)).collect();
    let results = query_parallel(oracle, &requests, &batch, &shapes, opts.threads, &progress, &done, total);
    fill(&mut t, &mut None, results, &group_at)?;

    skipped.shared = shared.get();
    oracle.record_build(imbalance_pruned, start.elapsed().as_secs_f64());
    oracle.record_skipped(skipped);
    progress.say(|| format!("done: {:?}", oracle.stats()));
    Ok(t)
}

/// The pairs that fixed plans of the report read (`baselines`): the whole model on the whole
/// cluster (intra-op only) and the stages of each Megatron grid depth up to the first that
/// cannot fit at its depth even at its floors (the grid stops reading there).
fn fixed_reads(
    t: &CostTable,
    floor_of: &HashMap<(usize, usize, usize), Option<StageFloor>>,
    baselines: bool,
    dp: &StageDpOptions,
) -> HashSet<(usize, usize, usize)> {
    let (layers, devices) = (t.num_layers(), t.cluster().devices());
    let mut fixed = HashSet::new();
    let c = t.cluster();
    if let Some(s) = t.shape_index(SubmeshShape::new(c.hosts, c.devices_per_host)) {
        fixed.insert((0, layers, s));
    }
    if !baselines {
        return fixed;
    }
    for stages in equal_split_depths(layers, devices) {
        let Some(s) = standard_submesh(t, devices / stages).and_then(|shape| t.shape_index(shape)) else { continue };
        for (j, r) in equal_stages(layers, stages).enumerate() {
            fixed.insert((r.start, r.end, s));
            if floor_of.get(&(r.start, r.end, s)).copied().flatten().is_some_and(|f| never_fits(&f, stages - j, dp)) {
                break;
            }
        }
    }
    fixed
}

/// Whether the DP finds a plan when every usable pair has one option at its floors: a plan's
/// stages fit wherever their options do, so without a plan on the floors no plan exists.
fn plan_on_floors(
    t: &CostTable,
    floors: &[((usize, usize, usize), Option<StageFloor>)],
    cluster: ClusterShape,
    dp: &StageDpOptions,
) -> Result<bool, InterError> {
    let at_floor: HashMap<(usize, usize, usize), StageFloor> =
        floors.iter().filter_map(|&(key, floor)| floor.map(|f| (key, f))).collect();
    let shapes = t.shapes().to_vec();
    let bounds = CostTable::from_fn(t.num_layers(), cluster, shapes.clone(), |r, shape| {
        let s = shapes.iter().position(|x| *x == shape).unwrap_or(0);
        at_floor.get(&(r.start, r.end, s)).map(|f| as_option(f, shape.devices())).into_iter().collect()
    })?;
    let quiet = StageDpOptions { progress: false, time_limit: None, epsilon: 0.0, ..dp.clone() };
    Ok(solve_placeable(&bounds, cluster, &quiet).is_ok())
}

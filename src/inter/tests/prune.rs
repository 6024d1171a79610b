//! The table builder's exact skips (table_prune.rs): the floors never exceed what the oracle
//! returns, the skips never change the DP's plan or the baselines, and each cache key is
//! planned once.

use super::util::{random_table, Rng};
use crate::inter::clustering::{ClusterOptions, LayerCount};
use crate::inter::layer_assignment::assign_layers;
use crate::inter::table_prune::usable;
use crate::inter::Schedule;
use crate::inter::{
    equal_layer, equal_layer_equal_mesh, inter_op_only, intra_op_only, megatron_grid, plan_pipeline,
    plan_pipeline_parallel, CachedCost, ClusterShape, CostTable, GraphStageOracle, OracleOptions, StageCost,
    StageCostResult, StageDpOptions, StageFloor, SubmeshShape, SubmeshSpace, TableOptions,
};
use crate::ir::test_graphs::tanh_mlp_step;
use crate::ir::train_step::analyze;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A table's answers as an oracle, with floors `factor` (0..=1, per pair) times the least
/// latency and memory of the pair's options (and large floors for pairs without options).
struct Floored {
    table: CostTable,
    factors: Vec<f64>,
    calls: AtomicUsize,
}

impl Floored {
    fn factor(&self, r: &Range<usize>, s: SubmeshShape) -> f64 {
        let n = self.table.num_layers();
        let shape = self.table.shape_index(s).unwrap();
        self.factors[(r.start * (n + 1) + r.end) * self.table.shapes().len() + shape]
    }
}

impl StageCost for Floored {
    fn cost(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageCostResult> {
        self.cost_options(layers, submesh).into_iter().min_by(|a, b| a.latency.total_cmp(&b.latency))
    }
    fn cost_options(&self, layers: Range<usize>, submesh: SubmeshShape) -> Vec<StageCostResult> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.table.options(layers, self.table.shape_index(submesh).unwrap()).to_vec()
    }
    fn floor(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageFloor> {
        let options = self.table.options(layers.clone(), self.table.shape_index(submesh).unwrap());
        if options.is_empty() {
            return Some(StageFloor { latency: 1e9, mem_param: 1e9, mem_act: 1e9 });
        }
        let f = self.factor(&layers, submesh);
        let least = |g: fn(&StageCostResult) -> f64| options.iter().map(g).fold(f64::INFINITY, f64::min) * f;
        Some(StageFloor {
            latency: least(|o| o.latency),
            mem_param: least(|o| o.mem_param),
            mem_act: least(|o| o.mem_act),
        })
    }
}

fn floored(seed: u64, layers: usize, cluster: ClusterShape) -> Floored {
    let table = random_table(seed, layers, cluster, SubmeshSpace::PowerOfTwo, 0.15);
    let mut rng = Rng::new(seed ^ 0x5eed);
    let n = (layers + 1) * (layers + 1) * table.shapes().len();
    // Tight floors (factor 1) half the time, so that skips happen.
    let factors = (0..n).map(|_| if rng.chance(0.5) { 1.0 } else { rng.unit() }).collect();
    Floored { table, factors, calls: AtomicUsize::new(0) }
}

#[test]
fn skipping_pairs_never_changes_the_plan_or_the_baselines() {
    let mut skipped = [0usize; 4];
    for seed in 0..400u64 {
        let mut rng = Rng::new(seed);
        let layers = 1 + rng.below(7);
        let cluster =
            [ClusterShape::new(1, 4), ClusterShape::new(2, 2), ClusterShape::new(1, 8), ClusterShape::new(2, 4)]
                [rng.below(4)];
        let dp = StageDpOptions {
            microbatches: [1, 2, 3, 8, 64][rng.below(5)],
            mem_device: [f64::INFINITY, 10.0, 20.0, 40.0][rng.below(4)],
            epsilon: [0.0, 1e-6, 0.3][rng.below(3)],
            schedule: if rng.chance(0.8) { Schedule::OneFOneB } else { Schedule::GPipe },
            ..StageDpOptions::default()
        };
        let threads = 1 + rng.below(3);
        let full = CachedCost::new(floored(seed, layers, cluster));
        let pruned = CachedCost::new(floored(seed, layers, cluster));
        let table = TableOptions { threads, ..TableOptions::default() };
        let a = plan_pipeline(&full, layers, cluster, &TableOptions::default(), &dp);
        let b = plan_pipeline_parallel(&pruned, layers, cluster, &table, &dp);
        match (a, b) {
            (Ok((a, ta)), Ok((b, tb))) => {
                assert_eq!(a.plan, b.plan, "seed {seed}");
                assert_eq!(a.devices, b.devices, "seed {seed}");
                assert_eq!(intra_op_only(&ta, &dp), intra_op_only(&tb, &dp), "seed {seed}");
                assert_eq!(inter_op_only(&ta, &dp), inter_op_only(&tb, &dp), "seed {seed}");
                assert_eq!(equal_layer(&ta, &dp), equal_layer(&tb, &dp), "seed {seed}");
                // The grid's plans (its notes may say "do not fit" where the full table's say that
                // no plan has the point's logical mesh: a pair skipped as over memory has none).
                let grid = |t| megatron_grid(t, &dp).into_iter().map(|p| (p.data, p.tensor, p.pipeline, p.plan));
                assert!(grid(&ta).eq(grid(&tb)), "seed {seed}");
                assert_eq!(equal_layer_equal_mesh(&ta, &dp), equal_layer_equal_mesh(&tb, &dp), "seed {seed}");
                let q = &b.queries;
                skipped[0] += q.skipped_unusable;
                skipped[1] += q.skipped_memory;
                skipped[2] += q.skipped_latency;
                skipped[3] += q.skipped_plan_floor;
                assert!(pruned.inner().calls.load(Ordering::Relaxed) <= full.inner().calls.load(Ordering::Relaxed));
            }
            (Err(_), Err(_)) => {}
            (a, b) => panic!("seed {seed}: {:?} vs {:?}", a.map(|x| x.0.plan), b.map(|x| x.0.plan)),
        }
    }
    assert!(skipped.iter().all(|&s| s > 0), "every rule skipped something: {skipped:?}");
}

/// Every cut of `layers` layers into stages with device counts from `sizes` that use exactly
/// `devices` devices, as (range, stage devices) lists.
fn plans(layers: usize, devices: usize, sizes: &[usize]) -> Vec<Vec<(Range<usize>, usize)>> {
    fn go(
        from: usize,
        left: usize,
        layers: usize,
        sizes: &[usize],
        prefix: &mut Vec<(Range<usize>, usize)>,
        out: &mut Vec<Vec<(Range<usize>, usize)>>,
    ) {
        if from == layers {
            if left == 0 {
                out.push(prefix.clone());
            }
            return;
        }
        for end in from + 1..=layers {
            for &d in sizes.iter().filter(|&&d| d <= left) {
                prefix.push((from..end, d));
                go(end, left - d, layers, sizes, prefix, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(0, devices, layers, sizes, &mut Vec::new(), &mut out);
    out
}

#[test]
fn usable_pairs_are_exactly_those_of_some_plan() {
    for devices in [1, 2, 4, 8] {
        let sizes: Vec<usize> = [1, 2, 4, 8].into_iter().filter(|&d| d <= devices).collect();
        for layers in 1..=6 {
            let all = plans(layers, devices, &sizes);
            for k in 0..layers {
                for i in k + 1..=layers {
                    for &d in &sizes {
                        let in_some = all.iter().any(|p| p.contains(&(k..i, d)));
                        let others = usize::from(k > 0) + usize::from(i < layers);
                        // With enough layers around the stage the rule is exact; a stage of
                        // one-device shapes only may need more stages than layers are left.
                        if in_some || (layers - (i - k) >= devices - d && others > 0) || others == 0 {
                            assert_eq!(
                                usable(&(k..i), d, layers, devices),
                                in_some,
                                "{k}..{i} on {d} of {devices}, L = {layers}"
                            );
                        } else {
                            assert!(!in_some);
                        }
                    }
                }
            }
        }
    }
}

fn mlp_oracle(graph: &crate::ir::graph::Graph, layers: usize) -> GraphStageOracle<'_> {
    let step = analyze(graph).unwrap();
    let options = ClusterOptions { layers: LayerCount::Fixed(layers), delta: 1.0, progress: false };
    let layer_of = assign_layers(graph, Some(&step), &options).unwrap().layer_of;
    let cluster = crate::cluster::Cluster::load("p3.16xlarge-x1").unwrap();
    let options = OracleOptions { sharded_params_variant: true, ..OracleOptions::default() };
    GraphStageOracle::new(graph, layer_of, Some(&step), cluster, options).unwrap()
}

#[test]
fn the_graph_floors_never_exceed_any_plan() {
    for (depth, batch, width) in [(3, 16, 32), (4, 64, 16), (2, 8, 128)] {
        let graph = tanh_mlp_step(depth, batch, width);
        let o = mlp_oracle(&graph, depth);
        for k in 0..depth {
            for i in k + 1..=depth {
                for devices in [1, 2, 4, 8] {
                    let submesh = SubmeshShape::new(1, devices);
                    let floor = o.floor(k..i, submesh).unwrap();
                    let options = o.cost_options(k..i, submesh);
                    assert!(!options.is_empty());
                    for opt in &options {
                        let ok = floor.latency <= opt.latency * (1.0 + 1e-12)
                            && floor.mem_param <= opt.mem_param
                            && floor.mem_act <= opt.mem_act;
                        assert!(ok, "{k}..{i} on {devices}: {floor:?} above {opt:?}");
                    }
                    if devices == 1 {
                        // One device shards nothing: the memory floors are the plan's memory.
                        assert_eq!(
                            (floor.mem_param, floor.mem_act),
                            (options[0].mem_param, options[0].mem_act),
                            "{k}..{i}"
                        );
                        assert!(floor.latency > 0.0 && floor.latency <= options[0].latency * (1.0 + 1e-12));
                    }
                }
            }
        }
    }
}

#[test]
fn the_pruned_table_plans_each_cache_key_once() {
    let graph = tanh_mlp_step(6, 16, 32);
    let o = mlp_oracle(&graph, 6);
    let signatures = o.layer_signatures();
    let cached = CachedCost::with_signatures(o, signatures.clone());
    let cluster = ClusterShape::new(1, 4);
    let dp = StageDpOptions { microbatches: 4, ..StageDpOptions::default() };
    let (plan, table) =
        plan_pipeline_parallel(&cached, 6, cluster, &TableOptions { threads: 2, ..TableOptions::default() }, &dp)
            .unwrap();
    let q = &plan.queries;
    let mut keys = std::collections::HashSet::new();
    for k in 0..6 {
        for i in k + 1..=6 {
            for &shape in table.shapes() {
                if usable(&(k..i), shape.devices(), 6, 4) {
                    keys.insert(cached.key(&(k..i), shape));
                }
            }
        }
    }
    // The middle layers are copies: equal signature sequences are one key.
    assert!(keys.len() < 6 * 7 / 2 * table.shapes().len());
    assert!(q.queries <= keys.len(), "{q:?} for {} keys", keys.len());
    assert!(q.skipped_unusable > 0);
    // Ranges with equal keys got the same answer.
    for k in 0..6 {
        for i in k + 1..=6 {
            for (s, &shape) in table.shapes().iter().enumerate() {
                for k2 in 0..6 {
                    let i2 = k2 + (i - k);
                    if i2 <= 6 && cached.key(&(k..i), shape) == cached.key(&(k2..i2), shape) {
                        assert_eq!(table.options(k..i, s), table.options(k2..i2, s));
                    }
                }
            }
        }
    }
}

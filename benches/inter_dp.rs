//! Inter-op pass core on a GPT-39B-shaped model (48 blocks, hidden 8192, seq 1024) on 8 x 8
//! V100-like devices with a synthetic cost oracle: operator clustering of a ~30k-op graph, then
//! the cost table, the stage DP, placement and the baselines for L = 16, 24, 48 layers.
//! Prints times, oracle query counts and the plans.
//!
//! cargo bench --bench inter_dp -- [--microbatches B] [--mem-gib G] [--layers L,L,..] [--all-shapes] [--progress]

use alpa_mlir::inter::*;
use std::ops::Range;
use std::time::Instant;

const HIDDEN: f64 = 8192.0;
const SEQ: f64 = 1024.0;
const BLOCKS: usize = 48;
const VOCAB: f64 = 51200.0;
const GLOBAL_BATCH: f64 = 1024.0;
const PEAK: f64 = 125e12 * 0.5; // V100 fp16 peak x efficiency
const FAST_BW: f64 = 100e9; // within a host (NVLink), bytes/s
const SLOW_BW: f64 = 25e9 / 8.0; // across hosts (25 Gbit/s)

struct Args {
    microbatches: usize,
    mem: f64,
    layers: Vec<usize>,
    all_shapes: bool,
    progress: bool,
}

fn args() -> Args {
    let mut a = Args {
        microbatches: 256,
        mem: 16.0 * (1u64 << 30) as f64,
        layers: vec![16, 24, 48],
        all_shapes: false,
        progress: false,
    };
    let v: Vec<String> = std::env::args().collect();
    let mut i = 1;
    while i < v.len() {
        let next = v.get(i + 1).cloned().unwrap_or_default();
        match v[i].as_str() {
            "--microbatches" => a.microbatches = next.parse().unwrap_or(a.microbatches),
            "--mem-gib" => a.mem = next.parse::<f64>().map(|g| g * (1u64 << 30) as f64).unwrap_or(a.mem),
            "--layers" => a.layers = next.split(',').filter_map(|x| x.parse().ok()).collect(),
            "--progress" => {
                a.progress = true;
                i -= 1;
            }
            "--all-shapes" => {
                a.all_shapes = true;
                i -= 1;
            }
            _ => {
                i -= 1;
            }
        }
        i += 2;
    }
    a
}

/// Per-block parameters, and FLOPs per microbatch (forward, backward, rematerialised forward).
fn block_params() -> f64 {
    12.0 * HIDDEN * HIDDEN
}

/// The synthetic GPT: layer l groups blocks; layer 0 also holds the embedding, the last layer
/// the logits.
struct Gpt {
    layers: usize,
    microbatch: f64,
    microbatches: usize,
}

impl Gpt {
    fn blocks(&self, layers: Range<usize>) -> f64 {
        let per = BLOCKS as f64 / self.layers as f64;
        (layers.end - layers.start) as f64 * per
    }
    fn params(&self, layers: Range<usize>) -> f64 {
        let mut p = self.blocks(layers.clone()) * block_params();
        if layers.start == 0 {
            p += VOCAB * HIDDEN;
        }
        p
    }
    fn flops(&self, layers: Range<usize>) -> f64 {
        let tokens = self.microbatch * SEQ;
        let attn = self.blocks(layers.clone()) * 4.0 * 2.0 * tokens * SEQ * HIDDEN;
        let mut f = 8.0 * self.blocks(layers.clone()) * block_params() * tokens + attn;
        if layers.end == self.layers {
            f += 8.0 * VOCAB * HIDDEN * tokens;
        }
        f
    }
}

impl StageCost for Gpt {
    fn cost(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageCostResult> {
        self.cost_options(layers, submesh).into_iter().min_by(|a, b| a.latency.total_cmp(&b.latency))
    }

    fn cost_options(&self, layers: Range<usize>, submesh: SubmeshShape) -> Vec<StageCostResult> {
        let d = submesh.devices() as f64;
        let blocks = self.blocks(layers.clone());
        let params = self.params(layers.clone());
        let compute = self.flops(layers.clone()) / (d * PEAK);
        logical_meshes(submesh)
            .into_iter()
            .map(|[dp, tp]| {
                let (dpf, tpf) = (dp as f64, tp as f64);
                let tp_bw = if tp <= submesh.devices_per_host { FAST_BW } else { SLOW_BW };
                let dp_bw = if submesh.hosts == 1 { FAST_BW } else { SLOW_BW };
                let act = self.microbatch / dpf * SEQ * HIDDEN * 2.0;
                let tp_comm = blocks * 6.0 * act * 2.0 * (tpf - 1.0) / tpf / tp_bw;
                let grad = 2.0 * params / tpf * 2.0 * (dpf - 1.0) / dpf / dp_bw / self.microbatches as f64;
                StageCostResult {
                    latency: compute + tp_comm + grad,
                    mem_param: params * 4.0 / tpf + params * 12.0 / (tpf * dpf) + act * 34.0 / tpf,
                    mem_act: blocks * act,
                    logical_mesh: [dp, tp],
                }
            })
            .collect()
    }
}

/// A GPT-like op graph: per block ~620 ops (matmuls, many elementwise ops, a residual).
fn gpt_graph(blocks: usize) -> Vec<OpNode> {
    let act = (16.0 * SEQ * HIDDEN * 2.0) as u64;
    let mm = 2.0 * 16.0 * SEQ * HIDDEN * HIDDEN;
    let mut ops: Vec<OpNode> = Vec::new();
    let push = |ops: &mut Vec<OpNode>, flops: f64, inputs: &[(usize, u64)]| -> usize {
        let operands =
            inputs.iter().map(|&(p, b)| Operand { value: ValueRef::Op { op: p, result: 0 }, bytes: b }).collect();
        ops.push(OpNode { flops, operands });
        ops.len() - 1
    };
    let mut x = push(&mut ops, 0.0, &[]);
    for _ in 0..blocks {
        let block_in = x;
        for part in 0..2 {
            // layer norm: ~40 elementwise ops
            for _ in 0..40 {
                x = push(&mut ops, 1e9, &[(x, act)]);
            }
            if part == 0 {
                // attention: qkv, scores, softmax (~100 ops), context, projection
                let qkv = push(&mut ops, 3.0 * mm, &[(x, act)]);
                let mut s = push(&mut ops, mm * SEQ / HIDDEN, &[(qkv, 3 * act)]);
                for _ in 0..100 {
                    s = push(&mut ops, 1e9, &[(s, act * 4)]);
                }
                let ctx = push(&mut ops, mm * SEQ / HIDDEN, &[(s, act * 4), (qkv, 3 * act)]);
                x = push(&mut ops, mm, &[(ctx, act)]);
            } else {
                let up = push(&mut ops, 4.0 * mm, &[(x, act)]);
                let mut g = up;
                for _ in 0..150 {
                    g = push(&mut ops, 4e9, &[(g, 4 * act)]);
                }
                x = push(&mut ops, 4.0 * mm, &[(g, 4 * act)]);
            }
            // dropout / bias / residual chain: ~115 ops
            for _ in 0..114 {
                x = push(&mut ops, 1e9, &[(x, act)]);
            }
            x = push(&mut ops, 1e9, &[(x, act), (block_in, act)]);
        }
    }
    ops
}

fn fmt_devices(d: &[usize]) -> String {
    let contiguous = d.windows(2).all(|w| w[1] == w[0] + 1);
    match (d.first(), d.last()) {
        (Some(a), Some(b)) if contiguous => format!("{a}-{b}"),
        _ => format!("{d:?}"),
    }
}

fn print_plan(label: &str, p: &StagePlan) {
    println!("  {label}: T = {:.3} s ({} stages, max stage {:.4} s)", p.iteration_time, p.stages.len(), p.max_latency);
}

fn main() {
    let a = args();
    let cluster = ClusterShape::new(8, 8);
    let microbatch = GLOBAL_BATCH / a.microbatches as f64;
    println!("GPT-39B-shaped model, {BLOCKS} blocks, cluster 8x8, B = {}, microbatch {microbatch} sequences, {:.1} GiB per device",
        a.microbatches, a.mem / (1u64 << 30) as f64);

    // Clustering of a ~30k-op graph.
    let ops = gpt_graph(BLOCKS);
    for layers in [LayerCount::Fixed(48), LayerCount::Fixed(16)] {
        let start = Instant::now();
        let c = cluster_operators(&ops, &ClusterOptions { layers: layers.clone(), delta: 0.05, progress: a.progress });
        let secs = start.elapsed().as_secs_f64();
        match c {
            Ok(c) => println!(
                "clustering {} ops into {:?}: {:.3} s; max layer communication {:.1} MiB, FLOP std/mean {:.4}",
                ops.len(),
                layers,
                secs,
                c.max_comm as f64 / (1u64 << 20) as f64,
                c.flop_variance.sqrt() / (c.layer_flops.iter().sum::<f64>() / c.num_layers() as f64)
            ),
            Err(e) => println!("clustering {:?}: {e} ({secs:.3} s)", layers),
        }
    }
    let auto = AutoLayers { min_layers: 40, max_layers: 48, comm_slack: 0.05 };
    let start = Instant::now();
    match cluster_operators(&ops, &ClusterOptions { layers: LayerCount::Auto(auto), delta: 0.05, progress: a.progress })
    {
        Ok(c) => {
            println!("clustering auto L in 40..=48: chose {} in {:.3} s", c.num_layers(), start.elapsed().as_secs_f64())
        }
        Err(e) => println!("clustering auto: {e}"),
    }

    for &l in &a.layers {
        println!("\n== L = {l} layers ==");
        let gpt = Gpt { layers: l, microbatch, microbatches: a.microbatches };
        let dp_opts = StageDpOptions {
            microbatches: a.microbatches,
            mem_device: a.mem,
            epsilon: 1e-6,
            progress: a.progress,
            ..StageDpOptions::default()
        };
        // Layer signatures: the first and last layers differ (embedding, logits).
        let sig: Vec<u64> = (0..l)
            .map(|i| {
                if i == 0 {
                    1
                } else if i == l - 1 {
                    2
                } else {
                    0
                }
            })
            .collect();
        for (name, oracle) in [("plain", CachedCost::new(&gpt)), ("signatures", CachedCost::with_signatures(&gpt, sig))]
        {
            let shapes = if a.all_shapes { SubmeshSpace::All } else { SubmeshSpace::PowerOfTwo };
            let table_opts = TableOptions { shapes, threads: 1, progress: a.progress, ..TableOptions::default() };
            let start = Instant::now();
            let table = match CostTable::build(&oracle, l, cluster, &table_opts) {
                Ok(t) => t,
                Err(e) => {
                    println!("table: {e}");
                    continue;
                }
            };
            let table_secs = start.elapsed().as_secs_f64();
            let q = oracle.stats();
            println!(
                "cost table ({name}): {} lookups, {} oracle queries, {} cache hits ({} by signature), {:.3} s",
                q.lookups, q.queries, q.cache_hits, q.signature_hits, table_secs
            );
            if name == "signatures" {
                continue;
            }
            let start = Instant::now();
            let r = match solve_stage_dp(&table, &dp_opts) {
                Ok(r) => r,
                Err(e) => {
                    println!("stage DP: {e}");
                    continue;
                }
            };
            let dp_secs = start.elapsed().as_secs_f64();
            let s = &r.stats;
            println!(
                "stage DP: {:.3} s; {} t_max candidates, {} evaluated, {} bisection probes, {} skipped (epsilon), \
                 stopped early {}, {} depth classes, {} transitions",
                dp_secs,
                s.candidates,
                s.evaluated,
                s.feasibility_probes,
                s.skipped_epsilon,
                s.stopped_early,
                s.depth_classes,
                s.moves
            );
            let exact = solve_stage_dp(&table, &StageDpOptions { epsilon: 0.0, ..dp_opts.clone() });
            if let Ok(x) = &exact {
                println!(
                    "stage DP with epsilon = 0: {:.3} s, {} evaluated, T = {:.6} s (epsilon 1e-6: {:.6} s)",
                    x.stats.seconds, x.stats.evaluated, x.plan.iteration_time, r.plan.iteration_time
                );
            }
            let devices = place_stages(cluster, &r.plan.submeshes());
            println!("plan: T = {:.3} s per iteration", r.plan.iteration_time);
            for (j, st) in r.plan.stages.iter().enumerate() {
                let d = devices.as_ref().map(|d| fmt_devices(&d[j])).unwrap_or_else(|e| e.to_string());
                println!(
                    "  stage {j}: layers {:>2}..{:<2} submesh {} logical {:?} latency {:.4} s memory {:.2} GiB devices {d}",
                    st.layers.start,
                    st.layers.end,
                    st.submesh,
                    st.logical_mesh,
                    st.latency,
                    st.memory / (1u64 << 30) as f64
                );
            }
            println!("baselines:");
            match intra_op_only(&table, &dp_opts) {
                Some(p) => print_plan("intra-op only", &p),
                None => println!("  intra-op only: infeasible"),
            }
            match inter_op_only(&table, &dp_opts) {
                Some(p) => print_plan("inter-op only", &p),
                None => println!("  inter-op only: infeasible"),
            }
            let start = Instant::now();
            match equal_layer(&table, &dp_opts) {
                Some(p) => print_plan("equal layer", &p),
                None => println!("  equal layer: infeasible"),
            }
            let eq_secs = start.elapsed().as_secs_f64();
            let grid = megatron_grid(&table, &dp_opts);
            match best_megatron(&grid) {
                Some(m) => print_plan(
                    &format!("best Megatron (dp {}, tp {}, pp {})", m.data, m.tensor, m.pipeline),
                    m.plan.as_ref().unwrap(),
                ),
                None => println!("  Megatron grid: no configuration fits"),
            }
            println!("  (equal-layer DPs took {eq_secs:.3} s; {} Megatron points)", grid.len());
        }
    }

    scaling(&a);
}

/// DP time as layers, devices and the shape space grow.
fn scaling(a: &Args) {
    println!("\n== stage DP scaling (B = {}, {:.0} GiB) ==", a.microbatches, a.mem / (1u64 << 30) as f64);
    let microbatch = GLOBAL_BATCH / a.microbatches as f64;
    for (l, n, m, space) in [
        (24, 8, 8, SubmeshSpace::PowerOfTwo),
        (48, 8, 8, SubmeshSpace::PowerOfTwo),
        (96, 8, 8, SubmeshSpace::PowerOfTwo),
        (48, 16, 8, SubmeshSpace::PowerOfTwo),
        (48, 8, 8, SubmeshSpace::All),
    ] {
        let gpt = Gpt { layers: l, microbatch, microbatches: a.microbatches };
        let cluster = ClusterShape::new(n, m);
        let oracle = CachedCost::new(&gpt);
        let start = Instant::now();
        let table = CostTable::build(&oracle, l, cluster, &TableOptions { shapes: space, ..TableOptions::default() });
        let table_secs = start.elapsed().as_secs_f64();
        let opts = StageDpOptions {
            microbatches: a.microbatches,
            mem_device: a.mem,
            epsilon: 1e-6,
            ..StageDpOptions::default()
        };
        match table.map_err(|e| e.to_string()).and_then(|t| solve_stage_dp(&t, &opts).map_err(|e| e.to_string())) {
            Ok(r) => println!(
                "  L = {l:>3}, {n:>2}x{m} {space:?}: {} queries ({table_secs:.3} s), DP {:.3} s ({} evaluated + {} probes of {} candidates, {} transitions), T = {:.3} s, {} stages",
                oracle.stats().queries,
                r.stats.seconds,
                r.stats.evaluated,
                r.stats.feasibility_probes,
                r.stats.candidates,
                r.stats.moves,
                r.plan.iteration_time,
                r.plan.stages.len()
            ),
            Err(e) => println!("  L = {l}, {n}x{m} {space:?}: {e}"),
        }
    }
}

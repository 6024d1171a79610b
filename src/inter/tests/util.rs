//! Shared helpers of the inter-op tests: a small deterministic RNG and random instances.

use crate::inter::{
    logical_meshes, submesh_shapes, ClusterShape, CostTable, OpNode, Operand, StageCostResult, SubmeshSpace, ValueRef,
};

pub use crate::rng::SplitMix64 as Rng;

/// A random cost table: each (range, shape) has 0..=3 options (probability `none` of none),
/// latencies drawn from a small set (so ties occur) or continuous, random memory.
pub fn random_table(seed: u64, layers: usize, cluster: ClusterShape, space: SubmeshSpace, none: f64) -> CostTable {
    let mut rng = Rng::new(seed);
    let discrete = rng.chance(0.5);
    let shapes = submesh_shapes(cluster, space);
    CostTable::from_fn(layers, cluster, shapes, |r, shape| {
        if rng.chance(none) {
            return Vec::new();
        }
        let meshes = logical_meshes(shape);
        let n = 1 + rng.below(3);
        (0..n)
            .map(|_| {
                let latency = if discrete {
                    (1 + rng.below(6)) as f64 * 0.5
                } else {
                    (r.len() as f64 * (0.5 + rng.unit())) / (shape.devices() as f64).sqrt()
                };
                StageCostResult {
                    latency,
                    mem_param: (rng.below(8) as f64) * r.len() as f64,
                    mem_act: rng.below(4) as f64,
                    logical_mesh: meshes[rng.below(meshes.len())],
                }
            })
            .collect()
    })
    .expect("valid random table")
}

/// A random op graph in topological order: ops with 1..=2 results, operands from earlier ops'
/// results (sometimes repeated within an op) or graph inputs, some zero-FLOP ops.
pub fn random_graph(seed: u64, ops: usize) -> Vec<OpNode> {
    let mut rng = Rng::new(seed);
    let mut results: Vec<usize> = Vec::new();
    let mut sizes: Vec<Vec<u64>> = Vec::new();
    let mut out = Vec::new();
    for c in 0..ops {
        let flops = if rng.chance(0.3) { 0.0 } else { (1 + rng.below(20)) as f64 };
        let mut operands = Vec::new();
        for _ in 0..rng.below(4) {
            if c == 0 || rng.chance(0.15) {
                operands.push(Operand { value: ValueRef::GraphInput(rng.below(3)), bytes: 100 });
            } else {
                // Prefer recent producers, sometimes far ones (skip connections).
                let p = if rng.chance(0.6) { c - 1 - rng.below(c.min(2)) } else { rng.below(c) };
                let r = rng.below(results[p]);
                operands.push(Operand { value: ValueRef::Op { op: p, result: r }, bytes: sizes[p][r] });
            }
        }
        let nres = 1 + rng.below(2);
        results.push(nres);
        sizes.push((0..nres).map(|_| 1 + rng.below(50) as u64).collect());
        out.push(OpNode { flops, operands });
    }
    out
}

pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

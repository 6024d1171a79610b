//! Lower bounds of a layer range's stage cost on a graph, without planning it (the floors of
//! `GraphStageOracle::floor`), so that the table builder can skip ranges they rule out.
//!
//! For layers `k..i` on `d` devices, every plan the oracle returns (graph_oracle.rs) has
//! - latency >= sum of the ops' one-device seconds / d: each op's compute divides by its
//!   strategy's parallelism, at most d, and communication, resharding and transfers are >= 0;
//! - mem_param >= sum over the donated tensor arguments the range's ops read of
//!   floor(bytes / d), twice for one a forward op reads: an argument's tile on a mesh of d
//!   devices holds at least 1 / d of it (padding only adds);
//! - mem_act >= sum over the forward values the range's backward ops read of floor(bytes / d)
//!   (a tile of at most d parts, rounded down, is never below the d-part share rounded down).
//!
//! The sets are unions of per-layer sets, so a range costs one pass over its layers' lists.

use super::stage_cost::StageFloor;
use crate::ir::graph::{Graph, ValueRef};
use crate::ir::train_step::Phase;
use crate::ir::types::ValueType;
use std::ops::Range;

/// Per-layer lists the floors of any range are summed from.
pub(crate) struct FloorData {
    /// One-device seconds of each layer's ops (ops without a known cost count 0).
    layer_seconds: Vec<f64>,
    /// Per layer: (value id, read by a forward op) of the donated tensor arguments it reads.
    params: Vec<Vec<(usize, bool)>>,
    /// Per layer: ids of the forward values its backward ops read.
    activations: Vec<Vec<usize>>,
    /// Bytes of every value id: arguments first, then each op's results.
    bytes: Vec<u64>,
}

impl FloorData {
    /// `op_seconds[op]`: the op's seconds on one device at peak, `None` when unknown.
    pub(crate) fn new(
        graph: &Graph,
        layer_of: &[usize],
        num_layers: usize,
        phase: Option<&[Phase]>,
        op_seconds: impl Fn(usize) -> Option<f64>,
    ) -> Self {
        let tensor_bytes = |ty: &ValueType| if ty.tensor().is_some() { ty.byte_size() } else { 0 };
        let mut bytes: Vec<u64> = graph.args.iter().map(|a| tensor_bytes(&a.ty)).collect();
        let mut first_result = Vec::with_capacity(graph.ops().len());
        for op in graph.ops() {
            first_result.push(bytes.len());
            bytes.extend(op.results.iter().map(tensor_bytes));
        }
        let mut layer_seconds = vec![0.0; num_layers];
        let mut params: Vec<Vec<(usize, bool)>> = vec![Vec::new(); num_layers];
        let mut activations: Vec<Vec<usize>> = vec![Vec::new(); num_layers];
        for (op, node) in graph.ops().iter().enumerate() {
            let layer = layer_of[op];
            layer_seconds[layer] += op_seconds(op).unwrap_or(0.0);
            let op_phase = phase.map(|p| p[op]);
            for operand in &node.operands {
                match *operand {
                    ValueRef::Arg(a) if graph.args[a].is_donated() => {
                        params[layer].push((a, op_phase == Some(Phase::Forward)));
                    }
                    ValueRef::Arg(a) if op_phase == Some(Phase::Backward) => activations[layer].push(a),
                    ValueRef::Op { op: producer, result }
                        if op_phase == Some(Phase::Backward)
                            && phase.is_some_and(|p| p[producer] == Phase::Forward) =>
                    {
                        activations[layer].push(first_result[producer] + result);
                    }
                    _ => {}
                }
            }
        }
        for list in &mut params {
            // A forward read of an argument makes it count twice: keep that entry first.
            list.sort_unstable_by_key(|&(a, forward)| (a, !forward));
            list.dedup_by_key(|e| e.0);
        }
        for list in &mut activations {
            list.sort_unstable();
            list.dedup();
        }
        FloorData { layer_seconds, params, activations, bytes }
    }

    /// The floors of `layers` on `devices` devices (see the module doc).
    pub(crate) fn floor(&self, layers: Range<usize>, devices: usize) -> StageFloor {
        let d = devices.max(1) as u64;
        let layers = layers.start.min(self.layer_seconds.len())..layers.end.min(self.layer_seconds.len());
        let seconds: f64 = self.layer_seconds[layers.clone()].iter().sum();
        // Value id -> 0 unseen, 1 seen once, 2 counted twice (params read forward).
        let mut seen = vec![0u8; self.bytes.len()];
        let mut mem_param = 0u64;
        for &(a, forward) in self.params[layers.clone()].iter().flatten() {
            let times = if forward { 2 } else { 1 };
            if seen[a] < times {
                mem_param += (times - seen[a]) as u64 * (self.bytes[a] / d);
                seen[a] = times;
            }
        }
        seen.fill(0);
        let mut mem_act = 0u64;
        for &v in self.activations[layers.clone()].iter().flatten() {
            if seen[v] == 0 {
                mem_act += self.bytes[v] / d;
                seen[v] = 1;
            }
        }
        StageFloor { latency: seconds / devices.max(1) as f64, mem_param: mem_param as f64, mem_act: mem_act as f64 }
    }
}

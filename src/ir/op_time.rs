//! Each op's time on one device of a cluster: the roofline the stage model
//! (inter/graph_oracle.rs) and `alpa-annotate-costs` share: its FLOPs at its compute type's peak
//! or its fused kernel's device-memory traffic at the memory bandwidth, whichever is longer
//! (`Cluster::op_seconds`; docs/cost-model.md §1).

use crate::cluster::spec::Cluster;
use crate::ir::compute_type::compute_type;
use crate::ir::cost::op_cost_in_block;
use crate::ir::graph::Graph;
use crate::ir::op_table::OpTableError;

/// Per op of `graph`, its seconds on one device of `cluster`; `traffic` is
/// [`fused_traffic`](crate::ir::fused_traffic::fused_traffic) of the graph.
pub fn op_seconds(graph: &Graph, traffic: &[u64], cluster: &Cluster) -> Vec<Result<f64, OpTableError>> {
    (0..graph.ops().len())
        .map(|i| {
            let cost = op_cost_in_block(&graph.body, i)?;
            let ty = compute_type(&graph.ops()[i], &graph.operand_tensors(i));
            Ok(cluster.op_seconds(cost.flops as f64, &ty, traffic.get(i).copied().unwrap_or(0) as f64))
        })
        .collect()
}

//! Each op's time on one device of a cluster: the roofline the stage model
//! (inter/graph_oracle.rs) and `alpa-annotate-costs` share: its FLOPs at its compute type's rate
//! (for a dot, the measured rate of its GEMM shape where the cluster file has one) or its fused
//! kernel's device-memory traffic at the memory bandwidth, whichever is longer
//! (`Cluster::op_seconds`; docs/cost-model.md §1).

use crate::cluster::spec::Cluster;
use crate::cluster::GemmShape;
use crate::ir::compute_type::compute_type;
use crate::ir::cost::op_cost_in_block;
use crate::ir::graph::{Graph, OpNode};
use crate::ir::op_table::{canonical_name, op_rule, FactorKind, OpTableError};
use crate::ir::types::TensorType;

/// Per op of `graph`, its seconds on one device of `cluster`; `traffic` is
/// [`fused_traffic`](crate::ir::fused_traffic::fused_traffic) of the graph.
pub fn op_seconds(graph: &Graph, traffic: &[u64], cluster: &Cluster) -> Vec<Result<f64, OpTableError>> {
    (0..graph.ops().len())
        .map(|i| {
            let cost = op_cost_in_block(&graph.body, i)?;
            let op = &graph.ops()[i];
            let operands = graph.operand_tensors(i);
            let ty = compute_type(op, &operands);
            let bytes = traffic.get(i).copied().unwrap_or(0) as f64;
            Ok(cluster.op_seconds(cost.flops as f64, &ty, bytes, gemm_shape(op, &operands)))
        })
        .collect()
}

/// A dot's GEMM: the factors both operands carry (batch), those only the left one (`m`) or
/// only the right one (`n`) carries, and the contracted ones (`k`), each the product of its
/// factors' sizes. `None` for other ops and for dots whose rule is unknown.
pub fn gemm_shape(op: &OpNode, operands: &[Option<&TensorType>]) -> Option<GemmShape> {
    if !matches!(canonical_name(&op.name).as_str(), "dot_general" | "dot")
        || operands.len() != 2
        || operands.iter().any(Option::is_none)
    {
        return None;
    }
    let rule = op_rule(op, operands).ok().filter(|r| r.known)?;
    let in_operand = |t: usize, f: usize| rule.operand_dims[t].iter().flatten().any(|&g| g == f);
    let mut shape = GemmShape { batch: 1, m: 1, n: 1, k: 1 };
    for (f, factor) in rule.factors.iter().enumerate() {
        let size = u64::try_from(factor.size).ok()?;
        let dim = match (factor.kind, in_operand(0, f), in_operand(1, f)) {
            (FactorKind::Reduction, _, _) => &mut shape.k,
            (_, true, true) => &mut shape.batch,
            (_, true, false) => &mut shape.m,
            (_, false, true) => &mut shape.n,
            (_, false, false) => continue,
        };
        *dim = dim.saturating_mul(size);
    }
    Some(shape)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::op_table::test_util::{f32t, op, opaque};

    fn dot(dn: &str, out: &[i64]) -> OpNode {
        op("stablehlo.dot_general", &[f32t(out)], &[("dot_dimension_numbers", opaque(dn))])
    }

    #[test]
    fn attention_scores_are_a_batched_gemm_with_the_head_dim_contracted() {
        // q . k^T of [b, s, h, d] x [b, s, h, d] -> [b, h, s, s] (GPT-2.6B's, at a small size).
        let o = dot(
            "dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], \
             lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>",
            &[8, 32, 128, 128],
        );
        let q = f32t(&[8, 128, 32, 80]);
        let s = gemm_shape(&o, &[Some(&q), Some(&q)]).unwrap();
        assert_eq!(s, GemmShape { batch: 256, m: 128, n: 128, k: 80 });
    }

    #[test]
    fn weight_gradients_contract_the_tokens() {
        // x^T . dy over batch and sequence: [8, 1024, 2560] x [8, 1024, 640] -> [2560, 640].
        let o = dot("dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>", &[2560, 640]);
        let s = gemm_shape(&o, &[Some(&f32t(&[8, 1024, 2560])), Some(&f32t(&[8, 1024, 640]))]).unwrap();
        assert_eq!(s, GemmShape { batch: 1, m: 2560, n: 640, k: 8192 });
        // Matrix times vector: n is 1.
        let mv = op("stablehlo.dot", &[f32t(&[16])], &[]);
        let s = gemm_shape(&mv, &[Some(&f32t(&[16, 32])), Some(&f32t(&[32]))]).unwrap();
        assert_eq!(s, GemmShape { batch: 1, m: 16, n: 1, k: 32 });
    }

    #[test]
    fn other_ops_and_unknown_operands_have_no_gemm() {
        let add = op("stablehlo.add", &[f32t(&[4])], &[]);
        assert_eq!(gemm_shape(&add, &[Some(&f32t(&[4])), Some(&f32t(&[4]))]), None);
        let o = dot("dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>", &[4, 4]);
        assert_eq!(gemm_shape(&o, &[None, Some(&f32t(&[4, 4]))]), None);
    }
}

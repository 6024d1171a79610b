//! Each op's time on one device of a cluster: the roofline the stage model
//! (inter/graph_oracle.rs) and `alpa-annotate-costs` share: its FLOPs at its compute type's rate
//! (for a dot or convolution, the measured rate of its GEMM shape where the cluster file has
//! one) or its fused kernel's device-memory traffic at the memory bandwidth, whichever is longer
//! (`Cluster::op_seconds`; docs/cost-model.md §1).

use crate::cluster::spec::Cluster;
use crate::cluster::GemmShape;
use crate::ir::attr_text::ConvDimensionNumbers;
use crate::ir::compute_type::compute_type;
use crate::ir::cost::op_cost_in_block;
use crate::ir::graph::{Graph, OpNode};
use crate::ir::op_table::{canonical_name, int_attr, op_rule, opaque_text, FactorKind, OpTableError};
use crate::ir::types::{TensorType, ValueType};

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

/// The GEMM a contraction runs as: for a dot, the factors both operands carry (batch), those
/// only the left one (`m`) or only the right one (`n`) carries, and the contracted ones (`k`),
/// each the product of its factors' sizes; for a convolution, its implicit GEMM
/// ([`conv_gemm_shape`]). `None` for other ops and where the operands or the rule are unknown.
pub fn gemm_shape(op: &OpNode, operands: &[Option<&TensorType>]) -> Option<GemmShape> {
    let name = canonical_name(&op.name);
    if operands.len() != 2 || operands.iter().any(Option::is_none) {
        return None;
    }
    if name == "convolution" {
        return conv_gemm_shape(op, operands[1]?);
    }
    if !matches!(name.as_str(), "dot_general" | "dot") {
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

/// A convolution as the implicit GEMM cuDNN and XLA run it: one row per output position
/// (`m`: output batch times output spatial sizes), one column per output feature of a group
/// (`n`), the kernel's input features times its window (`k`), one product per group (`batch`).
fn conv_gemm_shape(op: &OpNode, kernel: &TensorType) -> Option<GemmShape> {
    let dn = ConvDimensionNumbers::parse(opaque_text(op.attr("dimension_numbers")?)?).ok()?;
    let result = op.results.first().and_then(ValueType::tensor)?;
    let size = |t: &TensorType, d: i64| usize::try_from(d).ok().and_then(|d| t.shape.get(d)).map(|&s| s.max(0) as u64);
    let product = |t: &TensorType, dims: &[i64]| dims.iter().try_fold(1u64, |a, &d| a.checked_mul(size(t, d)?));
    let groups = ["feature_group_count", "batch_group_count"]
        .into_iter()
        .filter_map(|name| int_attr(op, name).ok().flatten())
        .fold(1i64, i64::max)
        .max(1) as u64;
    Some(GemmShape {
        batch: groups,
        m: size(result, dn.output_batch_dimension)?.checked_mul(product(result, &dn.output_spatial_dimensions)?)?,
        n: size(result, dn.output_feature_dimension)? / groups,
        k: size(kernel, dn.kernel_input_feature_dimension)?
            .checked_mul(product(kernel, &dn.kernel_spatial_dimensions)?)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::op_table::test_util::{conv_nhwc, dot_general, f32t, op, ATTENTION_SCORES};

    #[test]
    fn attention_scores_are_a_batched_gemm_with_the_head_dim_contracted() {
        // q . k^T of [b, s, h, d] x [b, s, h, d] -> [b, h, s, s] (GPT-2.6B's, at a small size).
        let o = dot_general(ATTENTION_SCORES, &[8, 32, 128, 128]);
        let q = f32t(&[8, 128, 32, 80]);
        let s = gemm_shape(&o, &[Some(&q), Some(&q)]).unwrap();
        assert_eq!(s, GemmShape { batch: 256, m: 128, n: 128, k: 80 });
    }

    #[test]
    fn weight_gradients_contract_the_tokens() {
        // x^T . dy over batch and sequence: [8, 1024, 2560] x [8, 1024, 640] -> [2560, 640].
        let o =
            dot_general("dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>", &[2560, 640]);
        let s = gemm_shape(&o, &[Some(&f32t(&[8, 1024, 2560])), Some(&f32t(&[8, 1024, 640]))]).unwrap();
        assert_eq!(s, GemmShape { batch: 1, m: 2560, n: 640, k: 8192 });
        // Matrix times vector: n is 1.
        let mv = op("stablehlo.dot", &[f32t(&[16])], &[]);
        let s = gemm_shape(&mv, &[Some(&f32t(&[16, 32])), Some(&f32t(&[32]))]).unwrap();
        assert_eq!(s, GemmShape { batch: 1, m: 16, n: 1, k: 32 });
    }

    #[test]
    fn a_convolution_is_its_implicit_gemm() {
        // 3x3, 64 -> 128 features, 8 images of 56x56 out: 8*56*56 rows, 128 columns, 64*9 deep.
        let o = conv_nhwc(&[8, 56, 56, 128], &[]);
        let (input, kernel) = (f32t(&[8, 58, 58, 64]), f32t(&[3, 3, 64, 128]));
        let s = gemm_shape(&o, &[Some(&input), Some(&kernel)]).unwrap();
        assert_eq!(s, GemmShape { batch: 1, m: 8 * 56 * 56, n: 128, k: 64 * 9 });
        // Grouped: 4 groups of 32 output features, each contracting its 16 input features.
        let o = conv_nhwc(&[8, 56, 56, 128], &[("feature_group_count", crate::ir::graph::Attr::Int(4))]);
        let (input, kernel) = (f32t(&[8, 58, 58, 64]), f32t(&[3, 3, 16, 128]));
        let s = gemm_shape(&o, &[Some(&input), Some(&kernel)]).unwrap();
        assert_eq!(s, GemmShape { batch: 4, m: 8 * 56 * 56, n: 32, k: 16 * 9 });
        // Without padding every tap is valid: its FLOPs are the GEMM's, 2 * batch * m * n * k.
        let flops = crate::ir::cost::op_cost(&o, &[Some(&input), Some(&kernel)]).unwrap().flops;
        assert_eq!(flops, 2 * 4 * (8 * 56 * 56) * 32 * (16 * 9));
    }

    #[test]
    fn other_ops_and_unknown_operands_have_no_gemm() {
        let add = op("stablehlo.add", &[f32t(&[4])], &[]);
        assert_eq!(gemm_shape(&add, &[Some(&f32t(&[4])), Some(&f32t(&[4]))]), None);
        let o = dot_general("dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>", &[4, 4]);
        assert_eq!(gemm_shape(&o, &[None, Some(&f32t(&[4, 4]))]), None);
    }
}

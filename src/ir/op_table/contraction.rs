//! Contractions: `dot_general`, the legacy `dot`, and `convolution`.
//!
//! `dot_general` is `[b.., i.., k..] x [b.., k.., j..] -> [b.., i.., j..]`: batch and free dims
//! are pass-through factors, contracting dims reduction factors.
//!
//! `convolution` relates input `[N, C_in, spatial..]`, kernel `[C_in / G, C_out, window..]` and
//! output `[N / BG, C_out, spatial..]` (in whatever order the dimension numbers give):
//! - batch: one pass-through factor from input to output;
//! - input features: a reduction factor shared by input and kernel;
//! - output features: a pass-through factor shared by kernel and output;
//! - `feature_group_count = G > 1` (grouped or depthwise): a pass-through group factor of size G
//!   is the major part of the input feature, kernel output feature and output feature dims;
//! - `batch_group_count = BG > 1` (weight gradients of grouped convs): a pass-through group
//!   factor of size BG is the major part of the input batch, kernel output feature and output
//!   feature dims;
//! - spatial dims: pass-through from input to output only for a 1x1-style dim (window size 1,
//!   stride 1, no dilation, same size in and out). A wider window needs the neighbours' elements
//!   (a halo), so input, kernel and output spatial dims are then need-replication, as in Alpa,
//!   whose convolution strategies shard batch and channels only.

use super::{check_dim_list, int_attr, ints_attr, parsed_attr, FactorKind, OpRule, OpTableError, RuleBuilder};
use crate::ir::attr_text::{ConvDimensionNumbers, DotDimensionNumbers};
use crate::ir::types::TensorType;
use FactorKind::*;

pub(super) fn rule(name: &str, b: RuleBuilder<'_>) -> Result<Option<OpRule>, OpTableError> {
    match name {
        "dot_general" => {
            let dn = parsed_attr(b.op, "dot_dimension_numbers", DotDimensionNumbers::parse)?;
            dot_general(b, &dn).map(Some)
        }
        "dot" => dot(b).map(Some),
        "convolution" => convolution(b).map(Some),
        _ => Ok(None),
    }
}

/// The dims of a rank-`rank` tensor that `dims` does not name, in order.
pub(crate) fn other_dims(rank: usize, named: &[&[usize]]) -> Vec<usize> {
    (0..rank).filter(|d| !named.iter().any(|n| n.contains(d))).collect()
}

fn dot_general(mut b: RuleBuilder<'_>, dn: &DotDimensionNumbers) -> Result<OpRule, OpTableError> {
    b.expect_operands(2)?;
    b.expect_results(1)?;
    let (Some(lhs), Some(rhs)) = (b.operand(0)?, b.operand(1)?) else { return Ok(b.conservative(true)) };
    let op = b.op;
    let attr = "dot_dimension_numbers";
    let lb = check_dim_list(op, attr, &dn.lhs_batching_dimensions, lhs.rank())?;
    let rb = check_dim_list(op, attr, &dn.rhs_batching_dimensions, rhs.rank())?;
    let lc = check_dim_list(op, attr, &dn.lhs_contracting_dimensions, lhs.rank())?;
    let rc = check_dim_list(op, attr, &dn.rhs_contracting_dimensions, rhs.rank())?;
    let lf = other_dims(lhs.rank(), &[&lb, &lc]);
    let rf = other_dims(rhs.rank(), &[&rb, &rc]);
    for (&l, &r) in lb.iter().zip(&rb) {
        if lhs.shape[l] != rhs.shape[r] {
            return Err(
                b.shape_err(format!("batch dims lhs {l} and rhs {r} differ: {} vs {}", lhs.shape[l], rhs.shape[r]))
            );
        }
    }
    for (&l, &r) in lc.iter().zip(&rc) {
        if lhs.shape[l] != rhs.shape[r] {
            return Err(b.shape_err(format!(
                "contracting dims lhs {l} and rhs {r} differ: {} vs {}",
                lhs.shape[l], rhs.shape[r]
            )));
        }
    }
    let expected: Vec<i64> = lb
        .iter()
        .map(|&d| lhs.shape[d])
        .chain(lf.iter().map(|&d| lhs.shape[d]))
        .chain(rf.iter().map(|&d| rhs.shape[d]))
        .collect();
    if let Some(out) = b.result(0)? {
        if out.shape != expected {
            return Err(b.shape_err(format!("result shape {:?}, expected {expected:?}", out.shape)));
        }
    }
    let mut rd = 0;
    for (&l, &r) in lb.iter().zip(&rb) {
        let f = b.factor(lhs.shape[l], PassThrough);
        b.map_operand(0, l, f);
        b.map_operand(1, r, f);
        b.map_result(0, rd, f);
        rd += 1;
    }
    for (t, free, ty) in [(0, &lf, lhs), (1, &rf, rhs)] {
        for &d in free {
            let f = b.factor(ty.shape[d], PassThrough);
            b.map_operand(t, d, f);
            b.map_result(0, rd, f);
            rd += 1;
        }
    }
    for (&l, &r) in lc.iter().zip(&rc) {
        let f = b.factor(lhs.shape[l], Reduction);
        b.map_operand(0, l, f);
        b.map_operand(1, r, f);
    }
    b.finish()
}

/// The legacy `dot`: `[m, k] x [k, n]`, with either side possibly a vector.
fn dot(b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    b.expect_operands(2)?;
    let (Some(lhs), Some(rhs)) = (b.operand(0)?, b.operand(1)?) else { return Ok(b.conservative(true)) };
    if !(1..=2).contains(&lhs.rank()) || !(1..=2).contains(&rhs.rank()) {
        return Err(b.shape_err(format!(
            "operands of rank {} and {}; dot takes vectors and matrices",
            lhs.rank(),
            rhs.rank()
        )));
    }
    let dn = DotDimensionNumbers {
        lhs_contracting_dimensions: vec![lhs.rank() as i64 - 1],
        rhs_contracting_dimensions: vec![0],
        ..Default::default()
    };
    dot_general(b, &dn)
}

/// Convolution's dimension numbers and group counts, checked against the shapes.
pub(crate) struct ConvShape {
    pub dn: ConvDimensionNumbers,
    pub feature_groups: i64,
    pub batch_groups: i64,
}

pub(crate) fn conv_shape(
    b: &RuleBuilder<'_>,
    input: &TensorType,
    kernel: &TensorType,
    output: Option<&TensorType>,
) -> Result<ConvShape, OpTableError> {
    let op = b.op;
    let dn = parsed_attr(op, "dimension_numbers", ConvDimensionNumbers::parse)?;
    let feature_groups = int_attr(op, "feature_group_count")?.unwrap_or(1);
    let batch_groups = int_attr(op, "batch_group_count")?.unwrap_or(1);
    if feature_groups < 1 {
        return Err(super::bad_attr(op, "feature_group_count", format!("{feature_groups} is not positive")));
    }
    if batch_groups < 1 {
        return Err(super::bad_attr(op, "batch_group_count", format!("{batch_groups} is not positive")));
    }
    if feature_groups > 1 && batch_groups > 1 {
        return Err(super::bad_attr(op, "batch_group_count", "feature and batch groups cannot both exceed 1"));
    }
    let rank = dn.input_spatial_dimensions.len() + 2;
    for (what, t) in [("input", Some(input)), ("kernel", Some(kernel)), ("output", output)] {
        if let Some(t) = t {
            if t.rank() != rank {
                return Err(b.shape_err(format!("{what} has rank {}, the dimension numbers say {rank}", t.rank())));
            }
        }
    }
    let in_range = |d: i64| d >= 0 && (d as usize) < rank;
    let all = [
        dn.input_batch_dimension,
        dn.input_feature_dimension,
        dn.kernel_input_feature_dimension,
        dn.kernel_output_feature_dimension,
        dn.output_batch_dimension,
        dn.output_feature_dimension,
    ];
    if !all
        .iter()
        .chain(&dn.input_spatial_dimensions)
        .chain(&dn.kernel_spatial_dimensions)
        .chain(&dn.output_spatial_dimensions)
        .all(|&d| in_range(d))
    {
        return Err(super::bad_attr(op, "dimension_numbers", format!("a dimension is out of range for rank {rank}")));
    }
    let n = input.shape[dn.input_batch_dimension as usize];
    let c_in = input.shape[dn.input_feature_dimension as usize];
    let k_in = kernel.shape[dn.kernel_input_feature_dimension as usize];
    let c_out = kernel.shape[dn.kernel_output_feature_dimension as usize];
    if c_in != k_in * feature_groups {
        return Err(b.shape_err(format!(
            "input features {c_in} != kernel input features {k_in} * feature_group_count {feature_groups}"
        )));
    }
    if c_out % feature_groups != 0 || c_out % batch_groups != 0 {
        return Err(b.shape_err(format!("kernel output features {c_out} not divisible by the group count")));
    }
    if n % batch_groups != 0 {
        return Err(b.shape_err(format!("batch {n} not divisible by batch_group_count {batch_groups}")));
    }
    if let Some(out) = output {
        let (ob, of) = (out.shape[dn.output_batch_dimension as usize], out.shape[dn.output_feature_dimension as usize]);
        if ob != n / batch_groups || of != c_out {
            return Err(b.shape_err(format!("output batch/features {ob}/{of}, expected {}/{c_out}", n / batch_groups)));
        }
    }
    Ok(ConvShape { dn, feature_groups, batch_groups })
}

fn convolution(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    b.expect_operands(2)?;
    b.expect_results(1)?;
    let (Some(input), Some(kernel)) = (b.operand(0)?, b.operand(1)?) else { return Ok(b.conservative(true)) };
    let output = b.result(0)?;
    let ConvShape { dn, feature_groups: g, batch_groups: bg } = conv_shape(&b, input, kernel, output)?;
    let d = |x: i64| x as usize;
    let n = input.shape[d(dn.input_batch_dimension)];
    let k_in = kernel.shape[d(dn.kernel_input_feature_dimension)];
    let c_out = kernel.shape[d(dn.kernel_output_feature_dimension)];

    // Batch, possibly split into batch groups (major) and the batch within a group.
    let group = (g > 1).then_some(g).or((bg > 1).then_some(bg));
    let group_factor = group.map(|size| b.factor(size, PassThrough));
    if bg > 1 {
        b.map_operand(0, d(dn.input_batch_dimension), group_factor.unwrap_or(0));
    }
    let batch = b.factor(n / bg, PassThrough);
    b.map_operand(0, d(dn.input_batch_dimension), batch);
    b.map_result(0, d(dn.output_batch_dimension), batch);

    // Input features: feature groups (major) and the features within a group (reduced).
    if g > 1 {
        b.map_operand(0, d(dn.input_feature_dimension), group_factor.unwrap_or(0));
    }
    let reduced = b.factor(k_in, Reduction);
    b.map_operand(0, d(dn.input_feature_dimension), reduced);
    b.map_operand(1, d(dn.kernel_input_feature_dimension), reduced);

    // Output features: the group (major) and the features per group.
    let per_group = c_out / group.unwrap_or(1);
    let out_features = b.factor(per_group, PassThrough);
    for f in group_factor.into_iter().chain([out_features]) {
        b.map_operand(1, d(dn.kernel_output_feature_dimension), f);
        b.map_result(0, d(dn.output_feature_dimension), f);
    }

    // Spatial dims.
    let ns = dn.input_spatial_dimensions.len();
    let strides = ints_attr(b.op, "window_strides")?.or_fill(ns, 1);
    let lhs_dilation = ints_attr(b.op, "lhs_dilation")?.or_fill(ns, 1);
    for k in 0..ns {
        let (id, kd, od) =
            (d(dn.input_spatial_dimensions[k]), d(dn.kernel_spatial_dimensions[k]), d(dn.output_spatial_dimensions[k]));
        let unit = |v: &Option<Vec<i64>>| v.as_ref().is_some_and(|v| v.get(k) == Some(&1));
        let pointwise = kernel.shape[kd] == 1
            && unit(&strides)
            && unit(&lhs_dilation)
            && output.is_some_and(|o| o.shape[od] == input.shape[id]);
        if pointwise {
            b.relate(0, id, 0, od, PassThrough);
        } else {
            // A window wider than one combines neighbours; a strided or dilated one moves them.
            let kind = if kernel.shape[kd] > 1 { Combined } else { NeedReplication };
            b.operand_factor(0, id, kind);
            b.operand_factor(1, kd, kind);
            b.result_factor(0, od, kind);
        }
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::cloned_ref_to_slice_refs)]
    use super::super::test_util::*;
    use super::*;
    use crate::ir::graph::Attr;

    /// As JAX exports it: with a precision for each operand.
    fn dot_op(dn: &str, out: &[i64]) -> crate::ir::graph::OpNode {
        let mut o = super::super::test_util::dot_general(dn, out);
        o.attrs.insert(
            "precision_config".into(),
            Attr::Array(vec![opaque("<precision DEFAULT>"), opaque("<precision DEFAULT>")]),
        );
        o
    }

    #[test]
    fn matmul_has_m_n_pass_through_and_k_reduction() {
        let o = dot_op("dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>", &[32, 512]);
        let r = checked(&o, &[&f32t(&[32, 256]), &f32t(&[256, 512])]);
        assert_eq!(r.factors.len(), 3);
        let (m, n, k) = (r.result_dims[0][0][0], r.result_dims[0][1][0], r.operand_dims[0][1][0]);
        assert_eq!(r.operand_dims[0], vec![vec![m], vec![k]]);
        assert_eq!(r.operand_dims[1], vec![vec![k], vec![n]]);
        assert_eq!(r.factors[k].kind, Reduction);
        assert_eq!((r.factors[m].size, r.factors[n].size, r.factors[k].size), (32, 512, 256));
        assert_eq!(r.factors[m].kind, PassThrough);
        assert_eq!(r.iteration_space(), 32 * 256 * 512);
    }

    #[test]
    fn batched_dot_with_several_contracting_dims() {
        // [b, i, k1, k2] x [b, k2, k1, j] -> [b, i, j]
        let o = dot_op(
            "dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], \
             lhs_contracting_dimensions = [2, 3], rhs_contracting_dimensions = [2, 1]>",
            &[4, 8, 16],
        );
        let r = checked(&o, &[&f32t(&[4, 8, 3, 5]), &f32t(&[4, 5, 3, 16])]);
        assert_eq!(r.factors.len(), 5);
        assert_eq!(r.factors_of_kind(Reduction).len(), 2);
        let b = r.result_dims[0][0][0];
        assert_eq!(r.operand_dims[0][0], vec![b]);
        assert_eq!(r.operand_dims[1][0], vec![b]);
        assert_eq!(r.operand_dims[0][2], r.operand_dims[1][2]);
        assert_eq!(r.operand_dims[0][3], r.operand_dims[1][1]);
        assert_eq!(r.iteration_space(), 4 * 8 * 16 * 3 * 5);
    }

    #[test]
    fn attention_scores_dot_mirrors_jax() {
        // JAX's q @ k^T per head: [B, T, H, D] x [B, S, H, D] -> [B, H, T, S].
        let o = dot_op(ATTENTION_SCORES, &[2, 4, 16, 16]);
        let r = checked(&o, &[&f32t(&[2, 16, 4, 8]), &f32t(&[2, 16, 4, 8])]);
        assert_eq!(r.result_dims[0][1], r.operand_dims[0][2]);
        assert_eq!(r.result_dims[0][2], r.operand_dims[0][1]);
        assert_eq!(r.result_dims[0][3], r.operand_dims[1][1]);
    }

    #[test]
    fn inconsistent_dots_are_errors() {
        let o = dot_op("dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>", &[32, 512]);
        err(&o, &[&f32t(&[32, 255]), &f32t(&[256, 512])]);
        let wrong_out = dot_op("dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>", &[32, 511]);
        err(&wrong_out, &[&f32t(&[32, 256]), &f32t(&[256, 512])]);
        let out_of_range =
            dot_op("dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>", &[32, 512]);
        let e = err(&out_of_range, &[&f32t(&[32, 256]), &f32t(&[256, 512])]);
        assert!(e.to_string().contains("dot_dimension_numbers"), "{e}");
        let malformed = dot_op("dot<lhs_contracting_dimensions = [1, rhs_contracting_dimensions = [0]>", &[32, 512]);
        let e = err(&malformed, &[&f32t(&[32, 256]), &f32t(&[256, 512])]);
        assert!(e.to_string().contains("dot_dimension_numbers"), "{e}");
        let missing = op("stablehlo.dot_general", &[f32t(&[32, 512])], &[]);
        assert!(matches!(err(&missing, &[&f32t(&[32, 256]), &f32t(&[256, 512])]), OpTableError::MissingAttr { .. }));
    }

    #[test]
    fn legacy_dot_matrix_vector() {
        let r = checked(&op("stablehlo.dot", &[f32t(&[8])], &[]), &[&f32t(&[8, 4]), &f32t(&[4])]);
        assert_eq!(r.factors_of_kind(Reduction).len(), 1);
        assert_eq!(r.result_dims[0][0], r.operand_dims[0][0]);
    }

    #[test]
    fn conv_3x3_shards_batch_and_channels_but_not_space() {
        let o =
            conv_nhwc(&[8, 32, 32, 64], &[("window_strides", ints(&[1, 1])), ("feature_group_count", Attr::Int(1))]);
        let r = checked(&o, &[&f32t(&[8, 32, 32, 16]), &f32t(&[3, 3, 16, 64])]);
        let batch = r.result_dims[0][0][0];
        assert_eq!(r.operand_dims[0][0], vec![batch]);
        let cin = r.operand_dims[0][3][0];
        assert_eq!(r.factors[cin].kind, Reduction);
        assert_eq!(r.operand_dims[1][2], vec![cin]);
        assert_eq!(r.operand_dims[1][3], r.result_dims[0][3]);
        for dim in 1..3 {
            assert_eq!(kinds(&r, &r.result_dims[0][dim]), vec![Combined]);
            assert_ne!(r.result_dims[0][dim], r.operand_dims[0][dim]);
        }
    }

    #[test]
    fn conv_1x1_passes_space_through() {
        let o = conv_nhwc(&[8, 32, 32, 64], &[("window_strides", ints(&[1, 1]))]);
        let r = checked(&o, &[&f32t(&[8, 32, 32, 16]), &f32t(&[1, 1, 16, 64])]);
        assert_eq!(r.result_dims[0][1], r.operand_dims[0][1]);
        assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![PassThrough]);
        // A strided 1x1 conv changes the spatial size: need-replication.
        let o = conv_nhwc(&[8, 16, 16, 64], &[("window_strides", ints(&[2, 2]))]);
        let r = checked(&o, &[&f32t(&[8, 32, 32, 16]), &f32t(&[1, 1, 16, 64])]);
        assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![NeedReplication]);
    }

    #[test]
    fn depthwise_conv_groups_features() {
        // 16 channels, depth multiplier 2: kernel [3, 3, 1, 32], feature_group_count 16.
        let o = conv_nhwc(&[8, 32, 32, 32], &[("feature_group_count", Attr::Int(16))]);
        let r = checked(&o, &[&f32t(&[8, 32, 32, 16]), &f32t(&[3, 3, 1, 32])]);
        let group = r.operand_dims[0][3][0];
        assert_eq!(r.operand_dims[0][3], vec![group]);
        assert_eq!(r.factors[group].size, 16);
        assert_eq!(r.factors[group].kind, PassThrough);
        assert_eq!(r.operand_dims[1][3].len(), 2);
        assert_eq!(r.operand_dims[1][3][0], group);
        assert_eq!(r.result_dims[0][3], r.operand_dims[1][3]);
        assert!(r.operand_dims[1][2].is_empty());
        assert!(r.factors_of_kind(Reduction).is_empty());
    }

    #[test]
    fn batch_grouped_conv_splits_the_batch() {
        // Weight gradient of a depthwise conv: batch_group_count 16.
        let o = op(
            "stablehlo.convolution",
            &[f32t(&[3, 3, 1, 16])],
            &[
                ("dimension_numbers", opaque("conv<[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]>")),
                ("batch_group_count", Attr::Int(16)),
            ],
        );
        // input [C=8(f: minibatch as features), H, W, N=16 (b: channels as batch)], kernel = grads.
        let r = checked(&o, &[&f32t(&[8, 32, 32, 16]), &f32t(&[8, 30, 30, 16])]);
        let g = r.operand_dims[0][3][0];
        assert_eq!(r.factors[g].size, 16);
        assert_eq!(r.result_dims[0][3][0], g);
        assert!(r.result_dims[0][2].is_empty());
    }

    #[test]
    fn inconsistent_convs_are_errors() {
        let o = conv_nhwc(&[8, 32, 32, 64], &[]);
        err(&o, &[&f32t(&[8, 32, 32, 16]), &f32t(&[3, 3, 8, 64])]);
        err(&o, &[&f32t(&[8, 32, 32]), &f32t(&[3, 3, 16, 64])]);
        let both =
            conv_nhwc(&[8, 32, 32, 64], &[("feature_group_count", Attr::Int(2)), ("batch_group_count", Attr::Int(2))]);
        err(&both, &[&f32t(&[8, 32, 32, 16]), &f32t(&[3, 3, 8, 64])]);
        let bad = op(
            "stablehlo.convolution",
            &[f32t(&[8, 32, 32, 64])],
            &[("dimension_numbers", opaque("conv<[b, 0, 1, f]x[0, 1, i, o]>"))],
        );
        let e = err(&bad, &[&f32t(&[8, 32, 32, 16]), &f32t(&[3, 3, 16, 64])]);
        assert!(e.to_string().contains("dimension_numbers"), "{e}");
    }
}

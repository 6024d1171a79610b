//! Reductions and windowed ops: `reduce`, `reduce_window`, `select_and_scatter`, `sort`,
//! `chlo.top_k`, and the `batch_norm_*` ops.
//!
//! - `reduce`: reduced dims are reduction factors of the inputs; kept dims pass through. Init
//!   values are scalars.
//! - `reduce_window` / `select_and_scatter`: a dim passes through only when its window is one
//!   element with stride 1 and no dilation (and the size is unchanged); any wider window reads
//!   the neighbours' elements, so the dim needs replication.
//! - `sort`, `chlo.top_k`: the sorted dim needs replication, the others pass through.
//! - `batch_norm_training` / `batch_norm_grad`: the feature dim passes through to the statistics;
//!   every other dim is a reduction factor (the per-feature statistics are sums over it) that
//!   the full-size output keeps. `batch_norm_inference` reduces nothing: all dims pass through.

use super::{dim_attr, dims_attr, ints_attr, FactorKind, OpRule, OpTableError, RuleBuilder};
use FactorKind::*;

pub(super) fn rule(name: &str, b: RuleBuilder<'_>) -> Result<Option<OpRule>, OpTableError> {
    Ok(Some(match name {
        "reduce" => reduce(b)?,
        "reduce_window" => reduce_window(b)?,
        "select_and_scatter" => select_and_scatter(b)?,
        "sort" => sort(b)?,
        "chlo.top_k" => top_k(b)?,
        "batch_norm_training" => batch_norm(b, 3, Reduction)?,
        "batch_norm_inference" => batch_norm(b, 5, PassThrough)?,
        "batch_norm_grad" => batch_norm(b, 5, Reduction)?,
        _ => return Ok(None),
    }))
}

/// Splits `inputs ++ inits` operands of the variadic reductions.
fn input_count(b: &RuleBuilder<'_>) -> Result<usize, OpTableError> {
    let total = b.operands.len();
    if total == 0 || !total.is_multiple_of(2) {
        return Err(b.shape_err(format!("expects inputs and as many init values; has {total} operands")));
    }
    b.expect_results(total / 2)?;
    Ok(total / 2)
}

fn reduce(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    let n = input_count(&b)?;
    let Some(input) = b.operand(0)? else { return Ok(b.conservative(true)) };
    let reduced = dims_attr(b.op, "dimensions", input.rank())?;
    let mut rd = 0;
    for d in 0..input.rank() {
        let kind = if reduced.contains(&d) { Reduction } else { PassThrough };
        let f = b.operand_factor(0, d, kind);
        for i in 1..n {
            b.map_operand(i, d, f);
        }
        if kind == PassThrough {
            for r in 0..n {
                b.map_result(r, rd, f);
            }
            rd += 1;
        }
    }
    b.finish()
}

/// How a window op treats a dim.
#[derive(Clone, Copy, PartialEq)]
enum WindowDim {
    /// One element per window, no stride or dilation.
    Unit,
    /// Windows wider than one element: neighbours are combined.
    Wide,
    /// One element per window, strided or dilated: elements are moved.
    Strided,
}

/// Per dim, how the op's window treats it (an unreadable window attribute is not unit).
fn window_dims(b: &RuleBuilder<'_>, rank: usize, dilations: bool) -> Result<Vec<WindowDim>, OpTableError> {
    let window = match ints_attr(b.op, "window_dimensions")?.or_fill(rank, 1) {
        Some(w) if w.len() == rank => Some(w),
        Some(w) => {
            return Err(super::bad_attr(b.op, "window_dimensions", format!("{} entries for rank {rank}", w.len())))
        }
        None => None,
    };
    let strides = ints_attr(b.op, "window_strides")?.or_fill(rank, 1);
    let (base, win) = if dilations {
        (ints_attr(b.op, "base_dilations")?.or_fill(rank, 1), ints_attr(b.op, "window_dilations")?.or_fill(rank, 1))
    } else {
        (Some(vec![1; rank]), Some(vec![1; rank]))
    };
    let one = |v: &Option<Vec<i64>>, d: usize| v.as_ref().is_some_and(|v| v.get(d) == Some(&1));
    let wide = |d: usize| window.as_ref().is_some_and(|w| w[d] > 1);
    let unit = |d: usize| one(&window, d) && one(&strides, d) && one(&base, d) && one(&win, d);
    Ok((0..rank)
        .map(|d| {
            if wide(d) {
                WindowDim::Wide
            } else if unit(d) {
                WindowDim::Unit
            } else {
                WindowDim::Strided
            }
        })
        .collect())
}

fn reduce_window(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    let n = input_count(&b)?;
    let (Some(input), Some(out)) = (b.operand(0)?, b.result(0)?) else { return Ok(b.conservative(true)) };
    if input.rank() != out.rank() {
        return Err(b.shape_err(format!("input rank {} != result rank {}", input.rank(), out.rank())));
    }
    for (d, window) in window_dims(&b, input.rank(), true)?.into_iter().enumerate() {
        if window == WindowDim::Unit && input.shape[d] == out.shape[d] {
            let f = b.operand_factor(0, d, PassThrough);
            for i in 1..n {
                b.map_operand(i, d, f);
            }
            for r in 0..n {
                b.map_result(r, d, f);
            }
        } else {
            let kind = if window == WindowDim::Wide { Combined } else { NeedReplication };
            for i in 0..n {
                b.operand_factor(i, d, kind);
            }
            for r in 0..n {
                b.result_factor(r, d, kind);
            }
        }
    }
    b.finish()
}

/// `select_and_scatter(operand, source, init)`: the result has the operand's shape, the source
/// the shape of the windowed output.
fn select_and_scatter(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    b.expect_operands(3)?;
    let (Some(input), Some(source)) = (b.operand(0)?, b.operand(1)?) else { return Ok(b.conservative(true)) };
    if input.rank() != source.rank() {
        return Err(b.shape_err(format!("operand rank {} != source rank {}", input.rank(), source.rank())));
    }
    for (d, window) in window_dims(&b, input.rank(), false)?.into_iter().enumerate() {
        let whole = window == WindowDim::Unit && input.shape[d] == source.shape[d];
        let apart = if window == WindowDim::Wide { Combined } else { NeedReplication };
        let f = b.operand_factor(0, d, if whole { PassThrough } else { apart });
        b.map_result(0, d, f);
        if whole {
            b.map_operand(1, d, f);
        } else {
            b.operand_factor(1, d, apart);
        }
    }
    b.finish()
}

fn sort(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    let Some(input) = b.operand(0)? else { return Ok(b.conservative(true)) };
    let rank = input.rank();
    let raw = super::int_attr(b.op, "dimension")?.unwrap_or(-1);
    let dim = if raw < 0 { raw + rank as i64 } else { raw };
    if dim < 0 || dim as usize >= rank.max(1) {
        return Err(super::bad_attr(b.op, "dimension", format!("dimension {raw} out of range for rank {rank}")));
    }
    for d in 0..rank {
        let kind = if d == dim as usize { Combined } else { PassThrough };
        let f = b.operand_factor(0, d, kind);
        for i in 1..b.operands.len() {
            b.map_operand(i, d, f);
        }
        for r in 0..b.results.len() {
            b.map_result(r, d, f);
        }
    }
    b.finish()
}

/// `chlo.top_k(operand) {k}` -> (values, indices), along the last dim.
fn top_k(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    b.expect_operands(1)?;
    let Some(input) = b.operand(0)? else { return Ok(b.conservative(true)) };
    if input.rank() == 0 {
        return Err(b.shape_err("top_k of a scalar"));
    }
    let last = input.rank() - 1;
    for d in 0..last {
        let f = b.operand_factor(0, d, PassThrough);
        for r in 0..b.results.len() {
            b.map_result(r, d, f);
        }
    }
    b.operand_factor(0, last, Combined);
    let k = super::int_attr(b.op, "k")?;
    let f = b.factor(k.or(b.result_size(0, last)).unwrap_or(1), Combined);
    for r in 0..b.results.len() {
        b.map_result(r, last, f);
    }
    b.finish()
}

/// The batch norm ops: operand 0 (and for `batch_norm_grad` operand 4, `grad_output`) and
/// result 0 are full-size; every other tensor is a per-feature vector.
fn batch_norm(mut b: RuleBuilder<'_>, operands: usize, others: FactorKind) -> Result<OpRule, OpTableError> {
    b.expect_operands(operands)?;
    let Some(input) = b.operand(0)? else { return Ok(b.conservative(true)) };
    let feature = dim_attr(b.op, "feature_index", input.rank())?;
    let full_operands: Vec<usize> = if b.op.name.ends_with("batch_norm_grad") { vec![0, 4] } else { vec![0] };
    for d in 0..input.rank() {
        let kind = if d == feature { PassThrough } else { others };
        let f = b.operand_factor(0, d, kind);
        for &t in &full_operands[1..] {
            b.map_operand(t, d, f);
        }
        b.map_result(0, d, f);
        if d == feature {
            for t in (1..operands).filter(|t| !full_operands.contains(t)) {
                b.map_operand(t, 0, f);
            }
            for r in 1..b.results.len() {
                b.map_result(r, 0, f);
            }
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

    #[test]
    fn reduce_sum_over_one_dim() {
        let o = op("stablehlo.reduce", &[f32t(&[4, 16])], &[("dimensions", ints(&[1]))]);
        let r = checked(&o, &[&f32t(&[4, 8, 16]), &f32t(&[])]);
        assert_eq!(r.operand_dims[0][0], r.result_dims[0][0]);
        assert_eq!(r.operand_dims[0][2], r.result_dims[0][1]);
        assert_eq!(kinds(&r, &r.operand_dims[0][1]), vec![Reduction]);
        assert!(r.operand_dims[1].is_empty());
        err(
            &op("stablehlo.reduce", &[f32t(&[4, 16])], &[("dimensions", ints(&[3]))]),
            &[&f32t(&[4, 8, 16]), &f32t(&[])],
        );
        err(&o, &[&f32t(&[4, 8, 16])]);
    }

    #[test]
    fn variadic_argmax_reduce() {
        let o = op("stablehlo.reduce", &[f32t(&[4]), typed(&[4], "i32")], &[("dimensions", ints(&[1]))]);
        let r = checked(&o, &[&f32t(&[4, 10]), &typed(&[4, 10], "i32"), &f32t(&[]), &typed(&[], "i32")]);
        assert_eq!(r.operand_dims[0], r.operand_dims[1]);
        assert_eq!(r.result_dims[0], r.result_dims[1]);
    }

    #[test]
    fn max_pool_window_combines_spatial_dims_and_a_strided_one_moves_them() {
        let o = op(
            "stablehlo.reduce_window",
            &[f32t(&[8, 16, 16, 64])],
            &[("window_dimensions", ints(&[1, 3, 3, 1])), ("window_strides", ints(&[1, 2, 2, 1]))],
        );
        let r = checked(&o, &[&f32t(&[8, 32, 32, 64]), &f32t(&[])]);
        assert_eq!(r.operand_dims[0][0], r.result_dims[0][0]);
        assert_eq!(r.operand_dims[0][3], r.result_dims[0][3]);
        assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![Combined]);
        assert_ne!(r.operand_dims[0][1], r.result_dims[0][1]);
        // A window that is 1 wide but strided is not pass-through either; it moves elements.
        let o = op(
            "stablehlo.reduce_window",
            &[f32t(&[8, 16])],
            &[("window_dimensions", ints(&[1, 1])), ("window_strides", ints(&[1, 2]))],
        );
        let r = checked(&o, &[&f32t(&[8, 32]), &f32t(&[])]);
        assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![NeedReplication]);
        // Unreadable (dense) window attributes are treated as non-unit.
        let dense = Attr::Elements { ty: typed(&[2], "i64"), splat: false, values: None };
        let o = op("stablehlo.reduce_window", &[f32t(&[8, 32])], &[("window_dimensions", dense)]);
        let r = checked(&o, &[&f32t(&[8, 32]), &f32t(&[])]);
        assert_eq!(kinds(&r, &r.result_dims[0][0]), vec![NeedReplication]);
    }

    #[test]
    fn select_and_scatter_of_max_pool_gradient() {
        let o = op(
            "stablehlo.select_and_scatter",
            &[f32t(&[8, 32, 32, 64])],
            &[("window_dimensions", ints(&[1, 3, 3, 1])), ("window_strides", ints(&[1, 2, 2, 1]))],
        );
        let r = checked(&o, &[&f32t(&[8, 32, 32, 64]), &f32t(&[8, 16, 16, 64]), &f32t(&[])]);
        assert_eq!(r.operand_dims[0], r.result_dims[0]);
        assert_eq!(r.operand_dims[1][0], r.result_dims[0][0]);
        assert_eq!(kinds(&r, &r.operand_dims[1][1]), vec![Combined]);
        assert_ne!(r.operand_dims[1][1], r.result_dims[0][1]);
    }

    #[test]
    fn sort_and_top_k() {
        let o = op("stablehlo.sort", &[f32t(&[4, 10]), typed(&[4, 10], "i32")], &[("dimension", Attr::Int(1))]);
        let r = checked(&o, &[&f32t(&[4, 10]), &typed(&[4, 10], "i32")]);
        assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![Combined]);
        assert_eq!(r.operand_dims[1], r.result_dims[1]);
        let o = op("chlo.top_k", &[f32t(&[4, 2]), typed(&[4, 2], "i32")], &[("k", Attr::Int(2))]);
        let r = checked(&o, &[&f32t(&[4, 10])]);
        assert_eq!(r.operand_dims[0][0], r.result_dims[0][0]);
        assert_eq!(r.result_dims[0][1], r.result_dims[1][1]);
        assert_eq!(kinds(&r, &r.operand_dims[0][1]), vec![Combined]);
        assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![Combined]);
        err(&op("stablehlo.sort", &[f32t(&[4, 10])], &[("dimension", Attr::Int(2))]), &[&f32t(&[4, 10])]);
    }

    #[test]
    fn batch_norm_training_reduces_all_but_features() {
        let o = op(
            "stablehlo.batch_norm_training",
            &[f32t(&[8, 32, 32, 64]), f32t(&[64]), f32t(&[64])],
            &[("epsilon", Attr::Float(1e-5)), ("feature_index", Attr::Int(3))],
        );
        let v = f32t(&[64]);
        let r = checked(&o, &[&f32t(&[8, 32, 32, 64]), &v, &v]);
        let feature = r.result_dims[0][3][0];
        assert_eq!(r.factors[feature].kind, PassThrough);
        assert_eq!(r.result_dims[1][0], vec![feature]);
        assert_eq!(r.operand_dims[2][0], vec![feature]);
        assert_eq!(kinds(&r, &r.result_dims[0][0]), vec![Reduction]);
        assert_eq!(r.operand_dims[0], r.result_dims[0]);
        err(&o, &[&f32t(&[8, 32, 32, 64]), &f32t(&[32]), &v]);
    }

    #[test]
    fn batch_norm_inference_and_grad() {
        let v = f32t(&[64]);
        let x = f32t(&[8, 64]);
        let o = op(
            "stablehlo.batch_norm_inference",
            &[x.clone()],
            &[("epsilon", Attr::Float(1e-5)), ("feature_index", Attr::Int(1))],
        );
        let r = checked(&o, &[&x, &v, &v, &v, &v]);
        assert!(r.factors.iter().all(|f| f.kind == PassThrough));
        let o = op(
            "stablehlo.batch_norm_grad",
            &[x.clone(), v.clone(), v.clone()],
            &[("epsilon", Attr::Float(1e-5)), ("feature_index", Attr::Int(1))],
        );
        let r = checked(&o, &[&x, &v, &v, &v, &x]);
        assert_eq!(r.operand_dims[4], r.operand_dims[0]);
        assert_eq!(kinds(&r, &r.operand_dims[4][0]), vec![Reduction]);
        assert_eq!(r.result_dims[2][0], r.operand_dims[0][1]);
    }
}

//! Ops that select, combine or scatter parts of tensors: `concatenate`, `slice`,
//! `dynamic_slice`, `dynamic_update_slice`, `pad`, `gather`, `scatter`.
//!
//! A dim an op keeps whole is pass-through; a dim it cuts, pads or concatenates along needs
//! replication (operand and result get separate factors, as their sizes differ).
//!
//! `gather` (embedding-lookup style): the batch dims of the indices pass through to the result;
//! operand dims that are sliced whole pass through to their offset dim in the result; gathered
//! (collapsed) dims and partially sliced dims need replication; explicit batching dims
//! (`operand_batching_dims`) are pass-through factors shared by operand, indices and result.
//!
//! `scatter`: input and result share every dim; inserted (scattered-into) dims need replication,
//! whole window dims pass through to the updates. The update dims that follow the indices'
//! batch dims are *reduction* factors when the combiner is associative (add, max, min, mul,
//! and, or: each device scatters its part of the updates and an all-reduce combines, the usual
//! embedding-gradient strategy), else need-replication.

use super::contraction::other_dims;
use super::{
    canonical_name, check_dim_list, dim_attr, ints_attr, parsed_attr, FactorKind, Ints, OpRule, OpTableError,
    RuleBuilder,
};
use crate::ir::attr_text::{GatherDimensionNumbers, ScatterDimensionNumbers};
use crate::ir::graph::{OpNode, ValueRef};
use FactorKind::*;

pub(super) fn rule(name: &str, b: RuleBuilder<'_>) -> Result<Option<OpRule>, OpTableError> {
    Ok(Some(match name {
        "concatenate" => concatenate(b)?,
        "slice" | "dynamic_slice" => slice(b)?,
        "dynamic_update_slice" => dynamic_update_slice(b)?,
        "pad" => pad(b)?,
        "gather" => gather(b)?,
        "scatter" => scatter(b)?,
        _ => return Ok(None),
    }))
}

fn concatenate(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    let Some(out) = b.result(0)? else { return Ok(b.conservative(true)) };
    let dim = dim_attr(b.op, "dimension", out.rank())?;
    let mut total = 0i64;
    for (i, t) in b.operands.iter().enumerate() {
        let Some(t) = t else { return Ok(b.conservative(true)) };
        if t.rank() != out.rank() {
            return Err(b.shape_err(format!("operand {i} has rank {}, the result {}", t.rank(), out.rank())));
        }
        total += t.shape[dim];
    }
    if total != out.shape[dim] {
        return Err(
            b.shape_err(format!("operands add up to {total} along dim {dim}, the result has {}", out.shape[dim]))
        );
    }
    for d in 0..out.rank() {
        if d == dim {
            for i in 0..b.operands.len() {
                b.operand_factor(i, d, NeedReplication);
            }
            b.result_factor(0, d, NeedReplication);
        } else {
            let f = b.result_factor(0, d, PassThrough);
            for i in 0..b.operands.len() {
                b.map_operand(i, d, f);
            }
        }
    }
    b.finish()
}

/// `slice` and `dynamic_slice`: whole dims pass through, cut ones need replication. The start
/// indices of `dynamic_slice` are scalars (no dims).
fn slice(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    let (Some(input), Some(out)) = (b.operand(0)?, b.result(0)?) else { return Ok(b.conservative(true)) };
    if input.rank() != out.rank() {
        return Err(b.shape_err(format!("operand rank {} != result rank {}", input.rank(), out.rank())));
    }
    if let (Ints::Values(start), Ints::Values(limit)) =
        (ints_attr(b.op, "start_indices")?, ints_attr(b.op, "limit_indices")?)
    {
        let strides = ints_attr(b.op, "strides")?.or_fill(input.rank(), 1).unwrap_or_default();
        if start.len() != input.rank() || limit.len() != input.rank() || strides.len() != input.rank() {
            return Err(super::bad_attr(b.op, "start_indices", "one entry per dimension expected"));
        }
        for d in 0..input.rank() {
            let stride = strides[d].max(1);
            let expected = ((limit[d] - start[d]).max(0) + stride - 1) / stride;
            if expected != out.shape[d] {
                return Err(
                    b.shape_err(format!("dim {d}: slice gives {expected} elements, the result has {}", out.shape[d]))
                );
            }
        }
    }
    if let Ints::Values(sizes) = ints_attr(b.op, "slice_sizes")? {
        if sizes != out.shape {
            return Err(super::bad_attr(
                b.op,
                "slice_sizes",
                format!("{sizes:?} differs from the result shape {:?}", out.shape),
            ));
        }
    }
    for d in 0..input.rank() {
        b.relate(0, d, 0, d, PassThrough);
    }
    b.finish()
}

fn dynamic_update_slice(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    let (Some(input), Some(update)) = (b.operand(0)?, b.operand(1)?) else { return Ok(b.conservative(true)) };
    if input.rank() != update.rank() {
        return Err(b.shape_err(format!("operand rank {} != update rank {}", input.rank(), update.rank())));
    }
    for d in 0..input.rank() {
        let whole = update.shape[d] == input.shape[d];
        let f = b.operand_factor(0, d, if whole { PassThrough } else { NeedReplication });
        b.map_result(0, d, f);
        if whole {
            b.map_operand(1, d, f);
        } else if update.shape[d] > input.shape[d] {
            return Err(b.shape_err(format!("update dim {d} is larger than the operand's")));
        } else {
            b.operand_factor(1, d, NeedReplication);
        }
    }
    b.finish()
}

fn pad(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    let (Some(input), Some(out)) = (b.operand(0)?, b.result(0)?) else { return Ok(b.conservative(true)) };
    if input.rank() != out.rank() {
        return Err(b.shape_err(format!("operand rank {} != result rank {}", input.rank(), out.rank())));
    }
    let rank = input.rank();
    let lo = ints_attr(b.op, "edge_padding_low")?.or_fill(rank, 0);
    let hi = ints_attr(b.op, "edge_padding_high")?.or_fill(rank, 0);
    let interior = ints_attr(b.op, "interior_padding")?.or_fill(rank, 0);
    for d in 0..rank {
        let unpadded = match (&lo, &hi, &interior) {
            (Some(l), Some(h), Some(i)) => {
                let (l, h, i) = (l.get(d).copied(), h.get(d).copied(), i.get(d).copied());
                let (Some(l), Some(h), Some(i)) = (l, h, i) else {
                    return Err(super::bad_attr(b.op, "edge_padding_low", "one entry per dimension expected"));
                };
                let n = input.shape[d];
                let expected = l + h + n + (n - 1).max(0) * i;
                if expected != out.shape[d] {
                    return Err(
                        b.shape_err(format!("dim {d}: padding gives {expected}, the result has {}", out.shape[d]))
                    );
                }
                l == 0 && h == 0 && i == 0
            }
            _ => input.shape[d] == out.shape[d],
        };
        if unpadded {
            b.relate(0, d, 0, d, PassThrough);
        } else {
            b.operand_factor(0, d, NeedReplication);
            b.result_factor(0, d, NeedReplication);
        }
    }
    b.finish()
}

/// The index vector dim of gather/scatter: at most the indices' rank (equal means implicit).
fn index_vector_dim(op: &OpNode, attr: &str, dim: i64, rank: usize) -> Result<usize, OpTableError> {
    match usize::try_from(dim) {
        Ok(ivd) if ivd <= rank => Ok(ivd),
        _ => Err(super::bad_attr(op, attr, format!("index_vector_dim {dim} beyond the indices' rank {rank}"))),
    }
}

fn gather(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    b.expect_operands(2)?;
    let dn = parsed_attr(b.op, "dimension_numbers", GatherDimensionNumbers::parse)?;
    let (Some(input), Some(indices), Some(out)) = (b.operand(0)?, b.operand(1)?, b.result(0)?) else {
        return Ok(b.conservative(true));
    };
    let op = b.op;
    let attr = "dimension_numbers";
    let collapsed = check_dim_list(op, attr, &dn.collapsed_slice_dims, input.rank())?;
    let op_batch = check_dim_list(op, attr, &dn.operand_batching_dims, input.rank())?;
    let idx_batch = check_dim_list(op, attr, &dn.start_indices_batching_dims, indices.rank())?;
    check_dim_list(op, attr, &dn.start_index_map, input.rank())?;
    let offset = check_dim_list(op, attr, &dn.offset_dims, out.rank())?;
    let ivd = index_vector_dim(op, attr, dn.index_vector_dim, indices.rank())?;
    let slice_sizes = match ints_attr(op, "slice_sizes")? {
        Ints::Values(v) if v.len() == input.rank() => Some(v),
        Ints::Values(v) => {
            return Err(super::bad_attr(op, "slice_sizes", format!("{} entries for rank {}", v.len(), input.rank())))
        }
        _ => None,
    };
    if let Some(sizes) = &slice_sizes {
        for (d, &size) in sizes.iter().enumerate() {
            let limit = if collapsed.contains(&d) || op_batch.contains(&d) { 1 } else { input.shape[d] };
            if size < 0 || size > limit {
                return Err(super::bad_attr(
                    op,
                    "slice_sizes",
                    format!("slice size {size} of dim {d} exceeds {limit}"),
                ));
            }
        }
    }
    let batch_in: Vec<usize> = (0..indices.rank()).filter(|&d| d != ivd).collect();
    let batch_out = other_dims(out.rank(), &[&offset]);
    let offset_in = other_dims(input.rank(), &[&collapsed, &op_batch]);
    if batch_in.len() != batch_out.len() || offset_in.len() != offset.len() {
        return Err(b.shape_err(format!(
            "result rank {} does not fit {} batch and {} offset dims",
            out.rank(),
            batch_in.len(),
            offset_in.len()
        )));
    }
    for (&id, &rd) in batch_in.iter().zip(&batch_out) {
        let f = b.operand_factor(1, id, PassThrough);
        b.map_result(0, rd, f);
        if let Some(p) = idx_batch.iter().position(|&x| x == id) {
            b.map_operand(0, op_batch[p], f);
        }
    }
    for (&od, &rd) in offset_in.iter().zip(&offset) {
        let size = slice_sizes.as_ref().map_or(out.shape[rd], |s| s[od]);
        if size != out.shape[rd] {
            return Err(b.shape_err(format!("result dim {rd} has size {}, slice_sizes say {size}", out.shape[rd])));
        }
        b.relate(0, od, 0, rd, PassThrough);
    }
    b.finish()
}

/// Whether a reduction body only applies associative combiners (add, max, min, mul, and, or)
/// to its arguments, so partial results can be combined by an all-reduce.
pub(crate) fn associative_body(op: &OpNode) -> bool {
    let Some(block) = op.regions.first().and_then(|r| r.blocks.first()) else { return false };
    !block.ops.is_empty()
        && block.ops.iter().all(|inner| {
            matches!(canonical_name(&inner.name).as_str(), "add" | "maximum" | "minimum" | "multiply" | "and" | "or")
                && inner.operands.iter().all(|v| matches!(v, ValueRef::Arg(_)))
        })
}

fn scatter(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    let dn = parsed_attr(b.op, "scatter_dimension_numbers", ScatterDimensionNumbers::parse)?;
    let total = b.operands.len();
    if total < 3 || total.is_multiple_of(2) {
        return Err(b.shape_err(format!("expects inputs, indices and as many updates as inputs; has {total} operands")));
    }
    let n = (total - 1) / 2;
    let idx = n;
    let (Some(input), Some(indices), Some(update)) = (b.operand(0)?, b.operand(idx)?, b.operand(idx + 1)?) else {
        return Ok(b.conservative(true));
    };
    let op = b.op;
    let attr = "scatter_dimension_numbers";
    let inserted = check_dim_list(op, attr, &dn.inserted_window_dims, input.rank())?;
    let in_batch = check_dim_list(op, attr, &dn.input_batching_dims, input.rank())?;
    let idx_batch = check_dim_list(op, attr, &dn.scatter_indices_batching_dims, indices.rank())?;
    check_dim_list(op, attr, &dn.scatter_dims_to_operand_dims, input.rank())?;
    let window = check_dim_list(op, attr, &dn.update_window_dims, update.rank())?;
    let ivd = index_vector_dim(op, attr, dn.index_vector_dim, indices.rank())?;
    let scatter_idx: Vec<usize> = (0..indices.rank()).filter(|&d| d != ivd).collect();
    let scatter_upd = other_dims(update.rank(), &[&window]);
    let window_in = other_dims(input.rank(), &[&inserted, &in_batch]);
    if scatter_idx.len() != scatter_upd.len() || window_in.len() != window.len() {
        return Err(b.shape_err(format!(
            "update rank {} does not fit {} scatter and {} window dims",
            update.rank(),
            scatter_idx.len(),
            window_in.len()
        )));
    }
    for (&d, &ud) in window_in.iter().zip(&window) {
        if update.shape[ud] > input.shape[d] {
            return Err(b.shape_err(format!("update window dim {ud} is larger than input dim {d}")));
        }
    }
    let inputs = 0..n;
    let updates = idx + 1..total;
    // Input dims, shared with the results; window dims also with the updates.
    let mut input_factor = Vec::with_capacity(input.rank());
    for d in 0..input.rank() {
        let whole_window =
            window_in.iter().position(|&x| x == d).map(|p| (window[p], update.shape[window[p]] == input.shape[d]));
        let kind = match whole_window {
            Some((_, true)) => PassThrough,
            _ if in_batch.contains(&d) => PassThrough,
            _ => NeedReplication,
        };
        let f = b.operand_factor(0, d, kind);
        input_factor.push(f);
        for i in inputs.clone().skip(1) {
            b.map_operand(i, d, f);
        }
        for r in 0..b.results.len() {
            b.map_result(r, d, f);
        }
        if let Some((ud, whole)) = whole_window {
            for u in updates.clone() {
                if whole {
                    b.map_operand(u, ud, f);
                } else {
                    b.operand_factor(u, ud, NeedReplication);
                }
            }
        }
    }
    // Index dims and the update dims they scatter.
    let combine = if associative_body(op) { Reduction } else { NeedReplication };
    for (&id, &ud) in scatter_idx.iter().zip(&scatter_upd) {
        let f = match idx_batch.iter().position(|&x| x == id) {
            Some(p) => input_factor[in_batch[p]],
            None => b.factor(indices.shape[id], combine),
        };
        b.map_operand(idx, id, f);
        for u in updates.clone() {
            b.map_operand(u, ud, f);
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
    fn concatenate_replicates_only_the_concat_dim() {
        let o = op("stablehlo.concatenate", &[f32t(&[4, 10])], &[("dimension", Attr::Int(1))]);
        let r = checked(&o, &[&f32t(&[4, 3]), &f32t(&[4, 7])]);
        assert_eq!(r.operand_dims[0][0], r.result_dims[0][0]);
        assert_eq!(r.operand_dims[1][0], r.result_dims[0][0]);
        assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![NeedReplication]);
        assert_ne!(r.operand_dims[0][1], r.result_dims[0][1]);
        err(&o, &[&f32t(&[4, 3]), &f32t(&[4, 6])]);
        err(
            &op("stablehlo.concatenate", &[f32t(&[4, 10])], &[("dimension", Attr::Int(2))]),
            &[&f32t(&[4, 3]), &f32t(&[4, 7])],
        );
    }

    #[test]
    fn slice_and_dynamic_slice() {
        let o = op(
            "stablehlo.slice",
            &[f32t(&[4, 5])],
            &[("start_indices", ints(&[0, 2])), ("limit_indices", ints(&[4, 12])), ("strides", ints(&[1, 2]))],
        );
        let r = checked(&o, &[&f32t(&[4, 16])]);
        assert_eq!(r.operand_dims[0][0], r.result_dims[0][0]);
        assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![NeedReplication]);
        let wrong = op(
            "stablehlo.slice",
            &[f32t(&[4, 6])],
            &[("start_indices", ints(&[0, 2])), ("limit_indices", ints(&[4, 12])), ("strides", ints(&[1, 2]))],
        );
        err(&wrong, &[&f32t(&[4, 16])]);
        let i = typed(&[], "i32");
        let o = op("stablehlo.dynamic_slice", &[f32t(&[1, 64])], &[("slice_sizes", ints(&[1, 64]))]);
        let r = checked(&o, &[&f32t(&[128, 64]), &i, &i]);
        assert_eq!(r.operand_dims[0][1], r.result_dims[0][1]);
        assert_eq!(kinds(&r, &r.operand_dims[0][0]), vec![NeedReplication]);
    }

    #[test]
    fn dynamic_update_slice_and_pad() {
        let i = typed(&[], "i32");
        let o = op("stablehlo.dynamic_update_slice", &[f32t(&[16, 64])], &[]);
        let r = checked(&o, &[&f32t(&[16, 64]), &f32t(&[1, 64]), &i, &i]);
        assert_eq!(r.operand_dims[1][1], r.result_dims[0][1]);
        assert_eq!(r.operand_dims[0][0], r.result_dims[0][0]);
        assert_eq!(kinds(&r, &r.result_dims[0][0]), vec![NeedReplication]);
        let o = op(
            "stablehlo.pad",
            &[f32t(&[4, 10])],
            &[
                ("edge_padding_low", ints(&[0, 1])),
                ("edge_padding_high", ints(&[0, 2])),
                ("interior_padding", ints(&[0, 0])),
            ],
        );
        let r = checked(&o, &[&f32t(&[4, 7]), &f32t(&[])]);
        assert_eq!(r.operand_dims[0][0], r.result_dims[0][0]);
        assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![NeedReplication]);
        err(&o, &[&f32t(&[4, 8]), &f32t(&[])]);
    }

    fn embedding_gather() -> crate::ir::graph::OpNode {
        op(
            "stablehlo.gather",
            &[f32t(&[8, 16, 64])],
            &[
                (
                    "dimension_numbers",
                    opaque("gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>"),
                ),
                ("slice_sizes", ints(&[1, 64])),
                ("indices_are_sorted", Attr::Bool(false)),
            ],
        )
    }

    #[test]
    fn embedding_lookup_gather() {
        let r = checked(&embedding_gather(), &[&f32t(&[1000, 64]), &typed(&[8, 16, 1], "i32")]);
        assert_eq!(r.operand_dims[1][0], r.result_dims[0][0]);
        assert_eq!(r.operand_dims[1][1], r.result_dims[0][1]);
        assert_eq!(r.operand_dims[0][1], r.result_dims[0][2]);
        assert_eq!(kinds(&r, &r.operand_dims[0][0]), vec![NeedReplication]);
        assert!(r.operand_dims[1][2].is_empty());
    }

    #[test]
    fn batched_gather_shares_the_batching_dim() {
        // take_along_axis style: operand [B, N], indices [B, K, 1], batching dim 0.
        let o = op(
            "stablehlo.gather",
            &[f32t(&[4, 3])],
            &[
                (
                    "dimension_numbers",
                    opaque(
                        "gather<collapsed_slice_dims = [1], operand_batching_dims = [0], \
                         start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>",
                    ),
                ),
                ("slice_sizes", ints(&[1, 1])),
            ],
        );
        let r = checked(&o, &[&f32t(&[4, 10]), &typed(&[4, 3, 1], "i32")]);
        assert_eq!(r.operand_dims[0][0], r.result_dims[0][0]);
        assert_eq!(r.operand_dims[1][0], r.result_dims[0][0]);
        assert_eq!(r.operand_dims[1][1], r.result_dims[0][1]);
    }

    #[test]
    fn malformed_gathers_are_errors() {
        err(&embedding_gather(), &[&f32t(&[1000, 32]), &typed(&[8, 16, 1], "i32")]);
        err(&embedding_gather(), &[&f32t(&[1000, 64]), &typed(&[8, 1], "i32")]);
        let bad = op(
            "stablehlo.gather",
            &[f32t(&[8, 16, 64])],
            &[("dimension_numbers", opaque("gather<offset_dims = [2], index_vector_dims = 2>"))],
        );
        let e = err(&bad, &[&f32t(&[1000, 64]), &typed(&[8, 16, 1], "i32")]);
        assert!(e.to_string().contains("dimension_numbers"), "{e}");
    }

    #[test]
    fn embedding_gradient_scatter_add_reduces_over_tokens() {
        let mut o = op(
            "stablehlo.scatter",
            &[f32t(&[1000, 64])],
            &[(
                "scatter_dimension_numbers",
                opaque("scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>"),
            )],
        );
        o.regions.push(add_body());
        let operands = [f32t(&[1000, 64]), typed(&[8, 16, 1], "i32"), f32t(&[8, 16, 64])];
        let r = checked(&o, &[&operands[0], &operands[1], &operands[2]]);
        assert_eq!(r.operand_dims[0], r.result_dims[0]);
        assert_eq!(kinds(&r, &r.result_dims[0][0]), vec![NeedReplication]);
        assert_eq!(r.operand_dims[2][2], r.result_dims[0][1]);
        assert_eq!(r.operand_dims[2][0], r.operand_dims[1][0]);
        assert_eq!(kinds(&r, &r.operand_dims[2][0]), vec![Reduction]);
        // Without an associative body (e.g. a plain overwrite) the token dims need replication.
        o.regions.clear();
        let r = checked(&o, &[&operands[0], &operands[1], &operands[2]]);
        assert_eq!(kinds(&r, &r.operand_dims[2][0]), vec![NeedReplication]);
        err(&o, &[&operands[0], &operands[1]]);
        err(&o, &[&operands[0], &operands[1], &f32t(&[8, 16, 128])]);
        // A window narrower than the input is fine: that dim needs replication.
        let r = checked(&o, &[&operands[0], &operands[1], &f32t(&[8, 16, 32])]);
        assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![NeedReplication]);
    }
}

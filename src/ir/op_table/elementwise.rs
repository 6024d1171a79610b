//! Elementwise ops: StableHLO's unary, binary and ternary ops, `convert`, `bitcast_convert`,
//! `map`, CHLO's unary and binary math ops, and CHLO's implicitly broadcasting `broadcast_*` ops.
//!
//! Every result dimension is one pass-through factor shared with the matching dimension of every
//! operand. Scalar operands (the predicate of `select`, the bounds of `clamp`) have no dims. The
//! CHLO `broadcast_*` ops align operands numpy-style (or by `broadcast_dimensions`); an operand
//! dimension of size 1 against a larger result dimension maps to no factor.

use super::{ints_attr, FactorKind, Ints, OpRule, OpTableError, RuleBuilder};

/// What the table knows about one elementwise op; `cost.rs` counts FLOPs from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElementwiseInfo {
    /// Floating point (or integer) operations per result element.
    pub flops: u64,
    /// Whether the op is transcendental (exp, log, tanh, erf, ...): counted as one FLOP and
    /// one transcendental per element, as XLA's cost analysis does.
    pub transcendental: bool,
    /// CHLO `broadcast_*`: operands broadcast implicitly to the result shape.
    pub broadcasting: bool,
}

const fn plain(flops: u64) -> ElementwiseInfo {
    ElementwiseInfo { flops, transcendental: false, broadcasting: false }
}

const TRANSCENDENTAL: ElementwiseInfo = ElementwiseInfo { flops: 1, transcendental: true, broadcasting: false };

/// The elementwise op called `name` (canonical: `add`, `chlo.erf`, `chlo.broadcast_add`), if
/// it is one. `bitcast_convert` and `map` are elementwise too but have their own rules.
pub fn elementwise_info(name: &str) -> Option<ElementwiseInfo> {
    if let Some(inner) = name.strip_prefix("chlo.broadcast_") {
        let base = elementwise_info(inner).or_else(|| elementwise_info(&format!("chlo.{inner}")))?;
        return Some(ElementwiseInfo { broadcasting: true, ..base });
    }
    Some(match name {
        // Unary, binary and ternary arithmetic, logic and comparisons: one operation each.
        "abs"
        | "negate"
        | "sign"
        | "floor"
        | "ceil"
        | "round_nearest_afz"
        | "round_nearest_even"
        | "not"
        | "popcnt"
        | "count_leading_zeros"
        | "is_finite"
        | "convert"
        | "reduce_precision"
        | "uniform_quantize"
        | "uniform_dequantize"
        | "add"
        | "subtract"
        | "multiply"
        | "divide"
        | "remainder"
        | "maximum"
        | "minimum"
        | "and"
        | "or"
        | "xor"
        | "shift_left"
        | "shift_right_arithmetic"
        | "shift_right_logical"
        | "compare"
        | "complex"
        | "select" => plain(1),
        "chlo.conj" | "chlo.is_inf" | "chlo.is_neg_inf" | "chlo.is_pos_inf" | "chlo.square" | "chlo.next_after" => {
            plain(1)
        }
        // min(max(x, lo), hi).
        "clamp" => plain(2),
        // Reading a component or filling a constant computes nothing.
        "real" | "imag" | "chlo.constant_like" => plain(0),
        // Transcendental: one FLOP plus one transcendental per element.
        "exponential"
        | "exponential_minus_one"
        | "log"
        | "log_plus_one"
        | "logistic"
        | "sine"
        | "cosine"
        | "tan"
        | "tanh"
        | "sqrt"
        | "rsqrt"
        | "cbrt"
        | "power"
        | "atan2" => TRANSCENDENTAL,
        "chlo.acos" | "chlo.acosh" | "chlo.asin" | "chlo.asinh" | "chlo.atan" | "chlo.atanh" | "chlo.bessel_i1e"
        | "chlo.cosh" | "chlo.sinh" | "chlo.tan" | "chlo.digamma" | "chlo.erf" | "chlo.erfc" | "chlo.erf_inv"
        | "chlo.lgamma" | "chlo.polygamma" | "chlo.zeta" => TRANSCENDENTAL,
        _ => return None,
    })
}

/// The CHLO op that a `custom_call` to `mhlo.<op>` stands for, when it is an elementwise op of
/// the table: StableHLO serializes an MHLO op it lacks that way (torch_xla writes GELU's erf as
/// `custom_call @mhlo.erf`), and XLA reads it back as that op.
pub fn chlo_of_mhlo_custom_call(target: &str) -> Option<String> {
    let chlo = format!("chlo.{}", target.strip_prefix("mhlo.")?);
    elementwise_info(&chlo).is_some_and(|info| !info.broadcasting).then_some(chlo)
}

pub(super) fn rule(name: &str, b: RuleBuilder<'_>) -> Result<Option<OpRule>, OpTableError> {
    if name == "bitcast_convert" {
        return bitcast_convert(b).map(Some);
    }
    if name == "map" {
        return same_shape(b).map(Some);
    }
    match elementwise_info(name) {
        Some(info) if info.broadcasting => broadcasting(b).map(Some),
        Some(_) => same_shape(b).map(Some),
        None => Ok(None),
    }
}

/// The shape every result (and full-rank operand) has: the first result's, else the first
/// ranked operand's of highest rank.
fn base_shape(b: &RuleBuilder<'_>) -> Option<Vec<i64>> {
    if let Some(Some(t)) = b.results.first() {
        return Some(t.shape.clone());
    }
    b.operands.iter().flatten().max_by_key(|t| t.rank()).map(|t| t.shape.clone())
}

fn same_shape(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    let Some(shape) = base_shape(&b) else { return Ok(b.conservative(true)) };
    let rank = shape.len();
    for (i, t) in b.operands.iter().enumerate() {
        if let Some(t) = t {
            if t.rank() != rank && t.rank() != 0 {
                return Err(b.shape_err(format!("operand {i} has rank {}, the result rank {rank}", t.rank())));
            }
        }
    }
    for (i, t) in b.results.iter().enumerate() {
        if let Some(t) = t {
            if t.rank() != rank {
                return Err(b.shape_err(format!("result {i} has rank {}, expected {rank}", t.rank())));
            }
        }
    }
    for (d, &size) in shape.iter().enumerate() {
        let f = b.factor(size, FactorKind::PassThrough);
        for r in 0..b.results.len() {
            b.map_result(r, d, f);
        }
        for o in 0..b.operands.len() {
            if b.operands[o].is_some_and(|t| t.rank() == rank) {
                b.map_operand(o, d, f);
            }
        }
    }
    b.finish()
}

/// CHLO's implicitly broadcasting binary ops.
fn broadcasting(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    let Some(shape) = base_shape(&b) else { return Ok(b.conservative(true)) };
    let rank = shape.len();
    let explicit = match ints_attr(b.op, "broadcast_dimensions")? {
        Ints::Values(v) => Some(v),
        _ => None,
    };
    let factors: Vec<usize> = shape.iter().map(|&s| b.factor(s, FactorKind::PassThrough)).collect();
    for r in 0..b.results.len() {
        for (d, &f) in factors.iter().enumerate() {
            b.map_result(r, d, f);
        }
    }
    for o in 0..b.operands.len() {
        let Some(t) = b.operands[o] else { continue };
        if t.rank() > rank {
            return Err(b.shape_err(format!("operand {o} has rank {}, above the result's {rank}", t.rank())));
        }
        for (d, &size) in t.shape.iter().enumerate() {
            let target = match &explicit {
                Some(dims) if dims.len() == t.rank() => dims[d],
                _ => (rank - t.rank() + d) as i64,
            };
            if target < 0 || target as usize >= rank {
                return Err(super::bad_attr(b.op, "broadcast_dimensions", format!("dimension {target} out of range")));
            }
            let target = target as usize;
            if size == shape[target] {
                b.map_operand(o, d, factors[target]);
            } else if size != 1 {
                return Err(b.shape_err(format!(
                    "operand {o} dim {d} has size {size}, which does not broadcast to {}",
                    shape[target]
                )));
            }
        }
    }
    b.finish()
}

/// Same-width bitcasts are elementwise; a narrowing bitcast adds a minor result dim and a
/// widening one consumes a minor operand dim (the bytes of one element: need-replication).
fn bitcast_convert(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    b.expect_operands(1)?;
    let (Some(input), Some(output)) = (b.operand(0)?, b.result(0)?) else { return Ok(b.conservative(true)) };
    let shared = input.rank().min(output.rank());
    if input.rank().abs_diff(output.rank()) > 1 {
        return Err(b.shape_err(format!("ranks {} and {} differ by more than one", input.rank(), output.rank())));
    }
    for d in 0..shared {
        let f = b.result_factor(0, d, FactorKind::PassThrough);
        b.map_operand(0, d, f);
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::cloned_ref_to_slice_refs)]
    use super::super::test_util::*;
    use super::super::FactorKind::*;
    use super::*;
    use crate::ir::graph::Attr;

    #[test]
    fn mhlo_custom_calls_of_elementwise_ops_name_their_chlo_op() {
        assert_eq!(chlo_of_mhlo_custom_call("mhlo.erf").as_deref(), Some("chlo.erf"));
        assert_eq!(chlo_of_mhlo_custom_call("mhlo.acosh").as_deref(), Some("chlo.acosh"));
        // Not MHLO's, not elementwise, or broadcasting: none.
        for target in ["erf", "mhlo.topk", "mhlo.broadcast_add", "mhlo.", "lapack_sgetrf", "mhlo.sharding"] {
            assert_eq!(chlo_of_mhlo_custom_call(target), None, "{target}");
        }
    }

    #[test]
    fn binary_op_shares_one_factor_per_dim() {
        let t = f32t(&[8, 16]);
        let r = checked(&op("stablehlo.add", &[t.clone()], &[]), &[&t, &t]);
        assert_eq!(r.factors.len(), 2);
        assert_eq!(r.operand_dims, vec![vec![vec![0], vec![1]]; 2]);
        assert_eq!(r.result_dims, vec![vec![vec![0], vec![1]]]);
        assert!(r.factors.iter().all(|f| f.kind == PassThrough));
        assert!(r.known);
    }

    #[test]
    fn select_with_scalar_predicate_and_clamp_with_scalar_bounds() {
        let t = f32t(&[4, 6]);
        let pred = typed(&[], "i1");
        let r = checked(&op("stablehlo.select", &[t.clone()], &[]), &[&pred, &t, &t]);
        assert!(r.operand_dims[0].is_empty());
        assert_eq!(r.operand_dims[1], r.result_dims[0]);
        let s = f32t(&[]);
        let r = checked(&op("stablehlo.clamp", &[t.clone()], &[]), &[&s, &t, &s]);
        assert_eq!(r.operand_dims[1], vec![vec![0], vec![1]]);
        let full_pred = typed(&[4, 6], "i1");
        let r = checked(&op("stablehlo.select", &[t.clone()], &[]), &[&full_pred, &t, &t]);
        assert_eq!(r.operand_dims[0], r.result_dims[0]);
    }

    #[test]
    fn compare_convert_and_chlo_unary_ops_are_elementwise() {
        let t = f32t(&[2, 3, 5]);
        let b = typed(&[2, 3, 5], "i1");
        let r = checked(
            &op("stablehlo.compare", &[b.clone()], &[("comparison_direction", opaque("<comparison_direction LT>"))]),
            &[&t, &t],
        );
        assert_eq!(r.factors.len(), 3);
        let h = typed(&[2, 3, 5], "bf16");
        checked(&op("stablehlo.convert", &[h.clone()], &[]), &[&t]);
        for name in
            ["chlo.square", "chlo.erf", "chlo.tan", "chlo.lgamma", "chlo.digamma", "chlo.erf_inv", "stablehlo.logistic"]
        {
            let r = checked(&op(name, &[t.clone()], &[]), &[&t]);
            assert_eq!(r.operand_dims[0], r.result_dims[0], "{name}");
        }
    }

    #[test]
    fn size_one_dims_have_no_factor() {
        let t = f32t(&[1, 7]);
        let r = checked(&op("stablehlo.negate", &[t.clone()], &[]), &[&t]);
        assert_eq!(r.factors.len(), 1);
        assert_eq!(r.result_dims[0], vec![vec![], vec![0]]);
    }

    #[test]
    fn mismatched_shapes_are_errors() {
        let a = f32t(&[4, 6]);
        let b = f32t(&[4, 5]);
        let e = err(&op("stablehlo.add", &[a.clone()], &[]), &[&a, &b]);
        assert!(e.to_string().contains("stablehlo.add"), "{e}");
        let c = f32t(&[4]);
        err(&op("stablehlo.multiply", &[a.clone()], &[]), &[&a, &c]);
    }

    #[test]
    fn chlo_broadcast_ops_align_trailing_dims() {
        let out = f32t(&[4, 8, 16]);
        let bias = f32t(&[16]);
        let ones = f32t(&[4, 1, 16]);
        let r = checked(&op("chlo.broadcast_add", &[out.clone()], &[]), &[&out, &bias]);
        assert_eq!(r.operand_dims[1], vec![vec![2]]);
        let r = checked(&op("chlo.broadcast_multiply", &[out.clone()], &[]), &[&ones, &out]);
        assert_eq!(r.operand_dims[0], vec![vec![0], vec![], vec![2]]);
        let col = f32t(&[8]);
        let r = checked(
            &op("chlo.broadcast_subtract", &[out.clone()], &[("broadcast_dimensions", ints(&[1]))]),
            &[&out, &col],
        );
        assert_eq!(r.operand_dims[1], vec![vec![1]]);
        err(&op("chlo.broadcast_add", &[out.clone()], &[]), &[&out, &col]);
        let _ = Attr::Unit;
    }

    #[test]
    fn bitcast_convert_of_same_and_different_width() {
        let f = f32t(&[3, 5]);
        let i = typed(&[3, 5], "i32");
        let r = checked(&op("stablehlo.bitcast_convert", &[i.clone()], &[]), &[&f]);
        assert_eq!(r.operand_dims[0], r.result_dims[0]);
        let bytes = typed(&[3, 5, 4], "i8");
        let r = checked(&op("stablehlo.bitcast_convert", &[bytes.clone()], &[]), &[&f]);
        assert_eq!(kinds(&r, &r.result_dims[0][2]), vec![NeedReplication]);
        assert_eq!(r.operand_dims[0][1], r.result_dims[0][1]);
        let r = checked(&op("stablehlo.bitcast_convert", &[f.clone()], &[]), &[&bytes]);
        assert_eq!(kinds(&r, &r.operand_dims[0][2]), vec![NeedReplication]);
    }

    #[test]
    fn info_for_broadcast_and_transcendental_ops() {
        assert!(elementwise_info("exponential").unwrap().transcendental);
        assert!(elementwise_info("chlo.broadcast_power").unwrap().broadcasting);
        assert!(elementwise_info("chlo.broadcast_polygamma").unwrap().transcendental);
        assert_eq!(elementwise_info("clamp").unwrap().flops, 2);
        assert!(elementwise_info("dot_general").is_none());
    }
}

//! Ops that only rearrange or create data: `reshape`, `transpose`, `broadcast_in_dim`,
//! `broadcast`, `reverse`, `iota`, `constant`.
//!
//! - `transpose`: one pass-through factor per operand dim; the permutation lives in the mapping.
//! - `broadcast_in_dim`: operand dims of the result's size share a factor with their result dim;
//!   every other result dim gets a result-only pass-through factor (each device makes its slice).
//! - `reshape`: dims are split and merged into common factors, like Shardy's reshape rule. Walking
//!   both shapes from the major end, the greatest common divisor of the two current remainders is
//!   a factor both share (the major part of each). When the remainders are coprime the rest of
//!   that group of dims (up to the next point where both prefix products agree) cannot be
//!   expressed and gets need-replication factors.
//! - `reverse`: reversed dims are permutation factors.
//! - `iota`, `constant`: one result-only pass-through factor per dim.

use super::{check_dim_list, dims_attr, ints_attr, FactorKind, Ints, OpRule, OpTableError, RuleBuilder};
use FactorKind::*;

pub(super) fn rule(name: &str, b: RuleBuilder<'_>) -> Result<Option<OpRule>, OpTableError> {
    Ok(Some(match name {
        "reshape" | "dynamic_reshape" => reshape(b)?,
        "transpose" => transpose(b)?,
        "broadcast_in_dim" | "dynamic_broadcast_in_dim" => broadcast_in_dim(b)?,
        "broadcast" => broadcast(b)?,
        "reverse" => reverse(b)?,
        "iota" | "constant" | "dynamic_iota" => result_only(b)?,
        _ => return Ok(None),
    }))
}

fn result_only(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    for r in 0..b.results.len() {
        for d in 0..b.results[r].map_or(0, |t| t.rank()) {
            b.result_factor(r, d, PassThrough);
        }
    }
    b.finish()
}

fn transpose(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    b.expect_operands(1)?;
    let Some(input) = b.operand(0)? else { return Ok(b.conservative(true)) };
    let perm = dims_attr(b.op, "permutation", input.rank())?;
    if perm.len() != input.rank() {
        return Err(super::bad_attr(b.op, "permutation", format!("{} entries for rank {}", perm.len(), input.rank())));
    }
    for (rd, &od) in perm.iter().enumerate() {
        let f = b.operand_factor(0, od, PassThrough);
        b.map_result(0, rd, f);
    }
    b.finish()
}

fn broadcast_in_dim(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    let (Some(input), Some(out)) = (b.operand(0)?, b.result(0)?) else { return Ok(b.conservative(true)) };
    let dims = dims_attr(b.op, "broadcast_dimensions", out.rank())?;
    if dims.len() != input.rank() {
        return Err(super::bad_attr(
            b.op,
            "broadcast_dimensions",
            format!("{} entries for operand rank {}", dims.len(), input.rank()),
        ));
    }
    let mut covered = vec![false; out.rank()];
    for (od, &rd) in dims.iter().enumerate() {
        let (size, target) = (input.shape[od], out.shape[rd]);
        if size == target {
            let f = b.result_factor(0, rd, PassThrough);
            b.map_operand(0, od, f);
            covered[rd] = true;
        } else if size != 1 {
            return Err(b.shape_err(format!(
                "operand dim {od} of size {size} cannot broadcast to result dim {rd} of size {target}"
            )));
        }
    }
    for (rd, done) in covered.iter().enumerate() {
        if !done {
            b.result_factor(0, rd, PassThrough);
        }
    }
    b.finish()
}

/// The old-style `broadcast`: the result is `broadcast_sizes ++ operand shape`.
fn broadcast(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    let (Some(input), Some(out)) = (b.operand(0)?, b.result(0)?) else { return Ok(b.conservative(true)) };
    if out.rank() < input.rank() {
        return Err(b.shape_err("result rank below the operand's"));
    }
    let extra = out.rank() - input.rank();
    for rd in 0..out.rank() {
        let f = b.result_factor(0, rd, PassThrough);
        if rd >= extra {
            b.map_operand(0, rd - extra, f);
        }
    }
    b.finish()
}

fn reverse(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    let Some(input) = b.operand(0)? else { return Ok(b.conservative(true)) };
    let dims = dims_attr(b.op, "dimensions", input.rank())?;
    for d in 0..input.rank() {
        let kind = if dims.contains(&d) { Permutation } else { PassThrough };
        let f = b.operand_factor(0, d, kind);
        b.map_result(0, d, f);
    }
    b.finish()
}

fn reshape(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    let (Some(input), Some(out)) = (b.operand(0)?, b.result(0)?) else { return Ok(b.conservative(true)) };
    if input.num_elements() != out.num_elements() {
        return Err(b.shape_err(format!("{input} and {out} differ in element count")));
    }
    if input.num_elements() == 0 {
        return Ok(b.conservative(true));
    }
    if let Ints::Values(dims) = ints_attr(b.op, "dimensions")? {
        // Old-style reshapes may carry a (pass-through) dims list; only check it.
        check_dim_list(b.op, "dimensions", &dims, input.rank())?;
    }
    // Size-1 dims carry no factor; walk the others.
    let ins: Vec<usize> = (0..input.rank()).filter(|&d| input.shape[d] != 1).collect();
    let outs: Vec<usize> = (0..out.rank()).filter(|&d| out.shape[d] != 1).collect();
    let (mut i, mut j) = (0, 0);
    let mut a = ins.first().map_or(1, |&d| input.shape[d]);
    let mut c = outs.first().map_or(1, |&d| out.shape[d]);
    while i < ins.len() && j < outs.len() {
        let g = gcd(a, c);
        if g > 1 {
            let f = b.factor(g, PassThrough);
            b.map_operand(0, ins[i], f);
            b.map_result(0, outs[j], f);
            a /= g;
            c /= g;
        } else {
            // Coprime remainders: need-replication up to the end of this group of dims.
            let f = b.factor(a, NeedReplication);
            b.map_operand(0, ins[i], f);
            let f = b.factor(c, NeedReplication);
            b.map_result(0, outs[j], f);
            let (mut pa, mut pc) = (a as i128, c as i128);
            a = 1;
            c = 1;
            while pa != pc {
                if pa < pc {
                    i += 1;
                    let d = ins[i];
                    pa *= input.shape[d] as i128;
                    b.operand_factor(0, d, NeedReplication);
                } else {
                    j += 1;
                    let d = outs[j];
                    pc *= out.shape[d] as i128;
                    b.result_factor(0, d, NeedReplication);
                }
            }
        }
        if a == 1 {
            i += 1;
            a = ins.get(i).map_or(1, |&d| input.shape[d]);
        }
        if c == 1 {
            j += 1;
            c = outs.get(j).map_or(1, |&d| out.shape[d]);
        }
    }
    b.finish()
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::cloned_ref_to_slice_refs)]
    use super::super::test_util::*;
    use super::*;
    use crate::ir::types::TensorType;
    use proptest::prelude::*;

    fn reshape_rule(from: &[i64], to: &[i64]) -> OpRule {
        checked(&op("stablehlo.reshape", &[f32t(to)], &[]), &[&f32t(from)])
    }

    #[test]
    fn reshape_split_and_merge() {
        // [B*T, H] -> [B, T, H]
        let r = reshape_rule(&[32, 64], &[4, 8, 64]);
        assert_eq!(r.factors.len(), 3);
        assert_eq!(r.operand_dims[0][0], vec![r.result_dims[0][0][0], r.result_dims[0][1][0]]);
        assert_eq!(r.operand_dims[0][1], r.result_dims[0][2]);
        assert!(r.factors.iter().all(|f| f.kind == PassThrough));
        // [B, T, heads, d] -> [B, T, heads * d]
        let r = reshape_rule(&[4, 8, 16, 64], &[4, 8, 1024]);
        assert_eq!(r.result_dims[0][2], vec![r.operand_dims[0][2][0], r.operand_dims[0][3][0]]);
    }

    #[test]
    fn reshape_with_partial_overlap_and_unit_dims() {
        // [4, 6] -> [8, 3]: 4 | 8, then 2 | 6.
        let r = reshape_rule(&[4, 6], &[8, 3]);
        assert_eq!(r.factors.len(), 3);
        assert_eq!(r.result_dims[0][0].len(), 2);
        assert_eq!(r.operand_dims[0][1].len(), 2);
        // Unit dims come and go freely.
        let r = reshape_rule(&[1, 8, 1], &[8]);
        assert_eq!(r.operand_dims[0], vec![vec![], vec![0], vec![]]);
        assert_eq!(r.result_dims[0], vec![vec![0]]);
        let r = reshape_rule(&[], &[1, 1]);
        assert!(r.factors.is_empty());
    }

    #[test]
    fn reshape_that_interleaves_falls_back_to_need_replication() {
        // [6, 4] -> [4, 6]: the major 2 is shared, the rest is not expressible.
        let r = reshape_rule(&[6, 4], &[4, 6]);
        let shared = r.operand_dims[0][0][0];
        assert_eq!(r.factors[shared].size, 2);
        assert_eq!(r.result_dims[0][0][0], shared);
        assert_eq!(kinds(&r, &r.operand_dims[0][1]), vec![NeedReplication]);
        assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![NeedReplication]);
        // [3, 5] -> [5, 3]: nothing shared; a following dim is still pass-through.
        let r = reshape_rule(&[3, 5, 7], &[5, 3, 7]);
        assert_eq!(r.operand_dims[0][2], r.result_dims[0][2]);
        assert_eq!(kinds(&r, &r.operand_dims[0][0]), vec![NeedReplication]);
    }

    #[test]
    fn reshape_element_count_mismatch_is_an_error() {
        err(&op("stablehlo.reshape", &[f32t(&[4, 5])], &[]), &[&f32t(&[21])]);
    }

    proptest! {
        #[test]
        fn reshape_rules_keep_the_conventions(
            dims in prop::collection::vec(prop::sample::select(vec![1i64, 2, 3, 4, 5, 6, 8, 12]), 0..6),
            seed in any::<u64>(),
        ) {
            // Regroup the same primes differently to get a compatible output shape.
            let total: i64 = dims.iter().product();
            let mut primes = Vec::new();
            let mut n = total;
            for p in [2i64, 3, 5] {
                while n % p == 0 { primes.push(p); n /= p; }
            }
            let mut out = Vec::new();
            let mut s = seed;
            let mut cur = 1;
            for p in primes {
                cur *= p;
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                if s >> 62 == 0 { out.push(cur); cur = 1; }
            }
            out.push(cur);
            if s >> 61 & 1 == 1 { out.reverse(); }
            let input = f32t(&dims);
            let output: TensorType = f32t(&out);
            let o = op("stablehlo.reshape", &[output.clone()], &[]);
            let r = checked(&o, &[&input]);
            // Pass-through factors always link operand and result.
            for f in r.factors_of_kind(PassThrough) {
                prop_assert!(r.in_operands(f) && r.in_results(f));
            }
        }
    }

    #[test]
    fn transpose_permutes_factors() {
        let r = checked(
            &op("stablehlo.transpose", &[f32t(&[5, 3, 4])], &[("permutation", ints(&[2, 0, 1]))]),
            &[&f32t(&[3, 4, 5])],
        );
        assert_eq!(r.result_dims[0][0], r.operand_dims[0][2]);
        assert_eq!(r.result_dims[0][1], r.operand_dims[0][0]);
        assert_eq!(r.result_dims[0][2], r.operand_dims[0][1]);
        err(
            &op("stablehlo.transpose", &[f32t(&[5, 3, 4])], &[("permutation", ints(&[2, 0, 0]))]),
            &[&f32t(&[3, 4, 5])],
        );
        err(&op("stablehlo.transpose", &[f32t(&[5, 3, 4])], &[]), &[&f32t(&[3, 4, 5])]);
    }

    #[test]
    fn broadcast_in_dim_adds_result_only_factors() {
        // bias [H] -> [B, T, H]
        let o = op("stablehlo.broadcast_in_dim", &[f32t(&[4, 8, 16])], &[("broadcast_dimensions", ints(&[2]))]);
        let r = checked(&o, &[&f32t(&[16])]);
        assert_eq!(r.operand_dims[0][0], r.result_dims[0][2]);
        assert!(!r.in_operands(r.result_dims[0][0][0]));
        assert_eq!(kinds(&r, &r.result_dims[0][0]), vec![PassThrough]);
        // [4, 1] -> [4, 8] expands a unit dim.
        let o = op("stablehlo.broadcast_in_dim", &[f32t(&[4, 8])], &[("broadcast_dimensions", ints(&[0, 1]))]);
        let r = checked(&o, &[&f32t(&[4, 1])]);
        assert!(r.operand_dims[0][1].is_empty());
        // Scalar -> anything.
        let o = op("stablehlo.broadcast_in_dim", &[f32t(&[4, 8])], &[("broadcast_dimensions", ints(&[]))]);
        assert_eq!(checked(&o, &[&f32t(&[])]).factors.len(), 2);
        let bad = op("stablehlo.broadcast_in_dim", &[f32t(&[4, 8])], &[("broadcast_dimensions", ints(&[0, 1]))]);
        err(&bad, &[&f32t(&[4, 3])]);
    }

    #[test]
    fn iota_constant_reverse_and_old_broadcast() {
        let r = checked(
            &op("stablehlo.iota", &[typed(&[4, 8], "i32")], &[("iota_dimension", crate::ir::graph::Attr::Int(1))]),
            &[],
        );
        assert_eq!(r.factors.len(), 2);
        assert!(r.operand_dims.is_empty());
        let r = checked(&op("stablehlo.constant", &[f32t(&[3])], &[]), &[]);
        assert_eq!(r.factors.len(), 1);
        let r = checked(&op("stablehlo.reverse", &[f32t(&[3, 4])], &[("dimensions", ints(&[1]))]), &[&f32t(&[3, 4])]);
        assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![Permutation]);
        assert_eq!(kinds(&r, &r.result_dims[0][0]), vec![PassThrough]);
        let r = checked(
            &op("stablehlo.broadcast", &[f32t(&[2, 3, 4])], &[("broadcast_sizes", ints(&[2]))]),
            &[&f32t(&[3, 4])],
        );
        assert_eq!(r.operand_dims[0][0], r.result_dims[0][1]);
    }
}

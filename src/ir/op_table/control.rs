//! Control flow, tuples, tokens, random numbers, custom calls and linear algebra.
//!
//! These are known ops whose dims the table treats conservatively:
//! - `while`: operand `i` and result `i` are the same loop-carried value and share one factor
//!   per dim, but the body may mix anything, so those factors need replication.
//! - `case`, `if`, `tuple`, `get_tuple_element`, `rng_bit_generator`, `rng`: every dim needs
//!   replication (random bits must come out exactly as on one device).
//! - `optimization_barrier`, `sdy.sharding_constraint`, `sdy.reshard` and identity custom calls
//!   (`@Sharding`, `@annotate_device_placement`, ...) pass each operand through to its result.
//! - Other `custom_call`s are unknown (`known: false`, all need-replication).
//! - `cholesky`: batch dims pass through, the matrix dims need replication. `triangular_solve`
//!   also passes through the right-hand sides' independent columns (rows when `left_side` is
//!   false). `fft`: leading dims pass through, the transformed dims need replication.

use super::{ints_attr, FactorKind, Ints, OpRule, OpTableError, RuleBuilder};
use crate::ir::graph::Attr;
use FactorKind::*;

/// Custom call targets that return their operands unchanged (annotations for XLA).
const IDENTITY_TARGETS: &[&str] = &[
    "Sharding",
    "annotate_device_placement",
    "MoveToHost",
    "MoveToDevice",
    "LayoutConstraint",
    "xla.sdy.ShardingConstraint",
];

pub(super) fn rule(name: &str, b: RuleBuilder<'_>) -> Result<Option<OpRule>, OpTableError> {
    Ok(Some(match name {
        "while" => carried(b, NeedReplication)?,
        "optimization_barrier" | "sdy.sharding_constraint" | "sdy.reshard" => carried(b, PassThrough)?,
        "case" | "if" | "tuple" | "get_tuple_element" | "after_all" | "create_token" | "partition_id"
        | "replica_id" | "get_dimension_size" | "rng_bit_generator" | "rng" | "return" => b.conservative(true),
        "custom_call" => custom_call(b)?,
        "cholesky" => cholesky(b)?,
        "triangular_solve" => triangular_solve(b)?,
        "fft" => fft(b)?,
        _ => return Ok(None),
    }))
}

/// Operand `i` and result `i` share a factor per dim of `kind` (when their shapes agree).
fn carried(mut b: RuleBuilder<'_>, kind: FactorKind) -> Result<OpRule, OpTableError> {
    if b.operands.len() != b.results.len() {
        return Err(b.shape_err(format!("{} operands but {} results", b.operands.len(), b.results.len())));
    }
    for i in 0..b.operands.len() {
        let (Some(t), Some(r)) = (b.operands[i], b.results[i]) else { continue };
        if t.shape != r.shape {
            return Err(b.shape_err(format!("operand {i} is {t} but result {i} is {r}")));
        }
        for d in 0..t.rank() {
            b.relate(i, d, i, d, kind);
        }
    }
    b.finish()
}

fn custom_call(b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    let target = match b.op.attr("call_target_name") {
        Some(Attr::Str(s)) | Some(Attr::SymbolRef(s)) => s.as_str(),
        _ => "",
    };
    let same_types = b.operands.len() == b.results.len()
        && b.operands.iter().zip(&b.results).all(|(o, r)| o.map(|t| &t.shape) == r.map(|t| &t.shape));
    if IDENTITY_TARGETS.contains(&target) && same_types {
        return carried(b, PassThrough);
    }
    Ok(b.conservative(false))
}

/// Dims before the last `n`: pass through between operand `t`, result 0 and the other tensors
/// listed; returns the index where the trailing dims start.
fn batch_prefix(b: &mut RuleBuilder<'_>, rank: usize, n: usize, operands: &[usize]) -> Result<usize, OpTableError> {
    if rank < n {
        return Err(b.shape_err(format!("rank {rank} is below {n}")));
    }
    let start = rank - n;
    for d in 0..start {
        let f = b.result_factor(0, d, PassThrough);
        for &t in operands {
            b.map_operand(t, d, f);
        }
    }
    Ok(start)
}

fn cholesky(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    b.expect_operands(1)?;
    let Some(a) = b.operand(0)? else { return Ok(b.conservative(true)) };
    let start = batch_prefix(&mut b, a.rank(), 2, &[0])?;
    for d in start..a.rank() {
        b.relate(0, d, 0, d, Combined);
    }
    b.finish()
}

fn triangular_solve(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    b.expect_operands(2)?;
    let (Some(a), Some(rhs)) = (b.operand(0)?, b.operand(1)?) else { return Ok(b.conservative(true)) };
    if a.rank() != rhs.rank() {
        return Err(b.shape_err(format!("a has rank {}, b rank {}", a.rank(), rhs.rank())));
    }
    let left = matches!(b.op.attr("left_side"), Some(Attr::Bool(true)) | Some(Attr::Int(1)));
    let start = batch_prefix(&mut b, a.rank(), 2, &[0, 1])?;
    // a's matrix dims and b's solved dim are combined; b's other dim is independent.
    let (solved, free) = if left { (start, start + 1) } else { (start + 1, start) };
    b.operand_factor(0, start, Combined);
    b.operand_factor(0, start + 1, Combined);
    b.relate(1, solved, 0, solved, Combined);
    b.relate(1, free, 0, free, PassThrough);
    b.finish()
}

fn fft(mut b: RuleBuilder<'_>) -> Result<OpRule, OpTableError> {
    b.expect_operands(1)?;
    let Some(x) = b.operand(0)? else { return Ok(b.conservative(true)) };
    let n = match ints_attr(b.op, "fft_length")? {
        Ints::Values(v) => v.len(),
        _ => return Err(super::OpTableError::MissingAttr { op: b.op.name.clone(), attr: "fft_length".into() }),
    };
    let start = batch_prefix(&mut b, x.rank(), n, &[0])?;
    for d in start..x.rank() {
        b.relate(0, d, 0, d, Combined);
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::cloned_ref_to_slice_refs)]
    use super::super::test_util::*;
    use super::*;
    use crate::ir::graph::OpNode;
    use crate::ir::types::ValueType;

    #[test]
    fn while_shares_need_replication_factors_per_carried_value() {
        let i = typed(&[], "i32");
        let x = f32t(&[4, 8]);
        let o = op("stablehlo.while", &[i.clone(), x.clone()], &[]);
        let r = checked(&o, &[&i, &x]);
        assert_eq!(r.operand_dims, r.result_dims);
        assert!(r.factors.iter().all(|f| f.kind == NeedReplication));
        assert!(r.known);
        err(&o, &[&i, &f32t(&[4, 9])]);
    }

    #[test]
    fn optimization_barrier_and_sharding_custom_call_are_identities() {
        let x = f32t(&[4, 8]);
        let r = checked(&op("stablehlo.optimization_barrier", &[x.clone(), x.clone()], &[]), &[&x, &x]);
        assert_eq!(r.operand_dims, r.result_dims);
        assert!(r.factors.iter().all(|f| f.kind == PassThrough));
        let o = op("stablehlo.custom_call", &[x.clone()], &[("call_target_name", Attr::Str("Sharding".into()))]);
        let r = checked(&o, &[&x]);
        assert!(r.known);
        assert_eq!(r.operand_dims, r.result_dims);
    }

    #[test]
    fn a_barrier_carries_its_operands_through_and_a_loop_or_a_sort_does_not() {
        let (i, x, w) = (typed(&[], "i32"), f32t(&[4, 8]), f32t(&[8, 8]));
        let barrier =
            checked(&op("stablehlo.optimization_barrier", &[i.clone(), x.clone(), w.clone()], &[]), &[&i, &x, &w]);
        assert!(barrier.carries_operands_through());
        let sharding = op("stablehlo.custom_call", &[x.clone()], &[("call_target_name", Attr::Str("Sharding".into()))]);
        assert!(checked(&sharding, &[&x]).carries_operands_through());
        // A loop's carried values are computed by its body; counters alone say nothing either way.
        assert!(!checked(&op("stablehlo.while", &[i.clone(), x.clone()], &[]), &[&i, &x]).carries_operands_through());
        assert!(!checked(&op("stablehlo.while", &[i.clone(), i.clone()], &[]), &[&i, &i]).carries_operands_through());
        let scalars = op("stablehlo.optimization_barrier", &[i.clone(), i.clone()], &[]);
        assert!(!checked(&scalars, &[&i, &i]).carries_operands_through());
        // A sort along dim 1 of two operands moves their elements together.
        let sort = op("stablehlo.sort", &[x.clone(), x.clone()], &[("dimension", Attr::Int(1))]);
        assert!(!checked(&sort, &[&x, &x]).carries_operands_through());
        let add = op("stablehlo.add", &[x.clone()], &[]);
        assert!(!checked(&add, &[&x, &x]).carries_operands_through());
    }

    #[test]
    fn unknown_custom_calls_and_ops_are_conservative() {
        let x = f32t(&[4, 8]);
        let o = op("stablehlo.custom_call", &[x.clone()], &[("call_target_name", Attr::Str("my_kernel".into()))]);
        let r = checked(&o, &[&x]);
        assert!(!r.known);
        assert_eq!(r.factors.len(), 4);
        assert!(r.factors.iter().all(|f| f.kind == NeedReplication));
        let r = checked(&op("mydialect.frobnicate", &[x.clone()], &[]), &[&x, &x]);
        assert!(!r.known);
        assert_eq!(r.factors.len(), 6);
    }

    #[test]
    fn tuples_tokens_and_rng_are_known_and_replicated() {
        let x = f32t(&[4, 8]);
        let mut t = op("stablehlo.tuple", &[], &[]);
        t.results = vec![ValueType::Tuple(vec![ValueType::Tensor(x.clone())])];
        let r = super::super::op_rule(&t, &[Some(&x)]).unwrap();
        assert!(r.known);
        assert_eq!(r.result_dims, vec![Vec::<Vec<usize>>::new()]);
        let state = typed(&[2], "ui64");
        let o = op("stablehlo.rng_bit_generator", &[state.clone(), typed(&[4, 8], "ui32")], &[]);
        let r = checked(&o, &[&state]);
        assert!(r.factors.iter().all(|f| f.kind == NeedReplication));
        let tok = OpNode { results: vec![ValueType::Token], ..op("stablehlo.after_all", &[], &[]) };
        assert!(super::super::op_rule(&tok, &[None, None]).unwrap().factors.is_empty());
    }

    #[test]
    fn linear_algebra_ops() {
        let a = f32t(&[3, 5, 5]);
        let r = checked(&op("stablehlo.cholesky", &[a.clone()], &[]), &[&a]);
        assert_eq!(kinds(&r, &r.result_dims[0][0]), vec![PassThrough]);
        assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![Combined]);
        let rhs = f32t(&[3, 5, 7]);
        let o = op("stablehlo.triangular_solve", &[rhs.clone()], &[("left_side", Attr::Bool(true))]);
        let r = checked(&o, &[&a, &rhs]);
        assert_eq!(r.operand_dims[1][2], r.result_dims[0][2]);
        assert_eq!(kinds(&r, &r.result_dims[0][2]), vec![PassThrough]);
        assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![Combined]);
        assert_eq!(kinds(&r, &r.operand_dims[0][1]), vec![Combined]);
        assert_eq!(kinds(&r, &r.operand_dims[0][2]), vec![Combined]);
        let x = f32t(&[8, 16]);
        let y = typed(&[8, 9], "complex<f32>");
        let o = op("stablehlo.fft", &[y], &[("fft_type", opaque("<fft_type RFFT>")), ("fft_length", ints(&[16]))]);
        let r = checked(&o, &[&x]);
        assert_eq!(r.operand_dims[0][0], r.result_dims[0][0]);
        assert_ne!(r.operand_dims[0][1], r.result_dims[0][1]);
        // The transformed dim changes size (16 reals -> 9 frequencies) and stays combined.
        assert_eq!(kinds(&r, &r.operand_dims[0][1]), vec![Combined]);
        assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![Combined]);
    }
}

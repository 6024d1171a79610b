//! An op rule as one line of text, for reading and for lit tests (alpa-test-print-op-rules):
//! `([i,j,l], [i,l,k]) -> [i,j,k] {i=4, j=8, k=32, l=16}, reduction {l}` (a batched matmul).
//!
//! Factors are named by id, `i` to `z`, then `a` to `h`, then `f26`, `f27`, ...; a dimension made
//! of several factors joins them major to minor with `*` (`[i*j]`), a dimension of size 1 (no
//! factor) is `1`; a scalar is `[]` and a value that is not a ranked tensor `-`. Several results are parenthesised like the operands. After the
//! sizes come the factors of each kind other than pass-through, in the order reduction,
//! need-replication, permutation.

use std::fmt;

use super::{FactorKind, OpRule};

const NAMES: &[u8] = b"ijklmnopqrstuvwxyzabcdefgh";

/// The printed name of factor `id`.
pub fn factor_name(id: usize) -> String {
    match NAMES.get(id) {
        Some(&c) => (c as char).to_string(),
        None => format!("f{id}"),
    }
}

fn write_tensor(f: &mut fmt::Formatter<'_>, dims: &[Vec<usize>], is_tensor: bool) -> fmt::Result {
    if !is_tensor {
        return write!(f, "-");
    }
    let dims: Vec<String> = dims
        .iter()
        .map(|factors| match factors.as_slice() {
            [] => "1".to_string(),
            _ => factors.iter().map(|&id| factor_name(id)).collect::<Vec<_>>().join("*"),
        })
        .collect();
    write!(f, "[{}]", dims.join(","))
}

fn write_tensors(
    f: &mut fmt::Formatter<'_>,
    tensors: &[Vec<Vec<usize>>],
    is_tensor: &[bool],
    parenthesise_one: bool,
) -> fmt::Result {
    let bracket = parenthesise_one || tensors.len() != 1;
    if bracket {
        write!(f, "(")?;
    }
    for (t, dims) in tensors.iter().enumerate() {
        if t > 0 {
            write!(f, ", ")?;
        }
        write_tensor(f, dims, is_tensor.get(t).copied().unwrap_or(true))?;
    }
    if bracket {
        write!(f, ")")?;
    }
    Ok(())
}

/// An [`OpRule`] with, per operand and result, whether it is a ranked tensor (a rank-0 tensor
/// and a token both have no dims; only the first prints as `[]`).
pub struct RuleText<'a> {
    pub rule: &'a OpRule,
    pub operand_is_tensor: Vec<bool>,
    pub result_is_tensor: Vec<bool>,
}

impl fmt::Display for RuleText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rule = self.rule;
        write_tensors(f, &rule.operand_dims, &self.operand_is_tensor, true)?;
        write!(f, " -> ")?;
        write_tensors(f, &rule.result_dims, &self.result_is_tensor, false)?;
        let sizes: Vec<String> = rule
            .factors
            .iter()
            .enumerate()
            .map(|(id, factor)| format!("{}={}", factor_name(id), factor.size))
            .collect();
        write!(f, " {{{}}}", sizes.join(", "))?;
        for (kind, label) in [
            (FactorKind::Reduction, "reduction"),
            (FactorKind::NeedReplication, "need-replication"),
            (FactorKind::Combined, "combined"),
            (FactorKind::Permutation, "permutation"),
        ] {
            let ids = rule.factors_of_kind(kind);
            if !ids.is_empty() {
                let names: Vec<String> = ids.into_iter().map(factor_name).collect();
                write!(f, ", {label} {{{}}}", names.join(","))?;
            }
        }
        if !rule.known {
            write!(f, ", not in the op table")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{checked, f32t, op, opaque};
    use super::super::{Factor, FactorKind, OpRule};
    use super::{factor_name, RuleText};

    fn text(rule: &OpRule, operands: usize, results: usize) -> String {
        RuleText { rule, operand_is_tensor: vec![true; operands], result_is_tensor: vec![true; results] }.to_string()
    }

    #[test]
    fn batched_matmul_prints_like_an_einsum() {
        let dn = "dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], \
                  lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>";
        let dot = op("stablehlo.dot_general", &[f32t(&[4, 8, 32])], &[("dot_dimension_numbers", opaque(dn))]);
        let rule = checked(&dot, &[&f32t(&[4, 8, 16]), &f32t(&[4, 16, 32])]);
        assert_eq!(text(&rule, 2, 1), "([i,j,l], [i,l,k]) -> [i,j,k] {i=4, j=8, k=32, l=16}, reduction {l}");
    }

    #[test]
    fn compound_and_unit_dims_scalars_tokens_and_unknown_rules() {
        let pass = |size| Factor { size, kind: FactorKind::PassThrough };
        let rule = OpRule {
            factors: vec![pass(2), pass(3), Factor { size: 5, kind: FactorKind::NeedReplication }],
            operand_dims: vec![vec![vec![0], vec![1]], vec![], vec![vec![], vec![2]]],
            result_dims: vec![vec![vec![0, 1]], vec![]],
            known: false,
        };
        let shown =
            RuleText { rule: &rule, operand_is_tensor: vec![true, false, true], result_is_tensor: vec![true, true] };
        assert_eq!(
            shown.to_string(),
            "([i,j], -, [1,k]) -> ([i*j], []) {i=2, j=3, k=5}, need-replication {k}, not in the op table"
        );
    }

    #[test]
    fn factor_names_run_out_of_letters_into_numbers() {
        assert_eq!(factor_name(0), "i");
        assert_eq!(factor_name(17), "z");
        assert_eq!(factor_name(18), "a");
        assert_eq!(factor_name(25), "h");
        assert_eq!(factor_name(26), "f26");
    }
}

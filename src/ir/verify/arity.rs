//! How many operands and results each StableHLO op takes (the StableHLO spec's signatures; CHLO
//! and MHLO ops of the same names alike). MLIR 22 has no StableHLO dialect to check them, and
//! the op rules read only the operands and results they need, so an `add` of three operands or
//! a `constant` of two results would otherwise be planned as if well formed.

use crate::ir::graph::OpNode;
use crate::ir::op_table::{shape_err, OpTableError};

/// A count an op's operands or results must have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    Exactly(usize),
    AtLeast(usize),
}

impl Count {
    fn admits(self, n: usize) -> bool {
        match self {
            Count::Exactly(k) => n == k,
            Count::AtLeast(k) => n >= k,
        }
    }

    /// "1 operand", "2 results", "at least 1 operand".
    fn expected(self, noun: &str) -> String {
        let (bound, k) = match self {
            Count::Exactly(k) => ("", k),
            Count::AtLeast(k) => ("at least ", k),
        };
        format!("{bound}{k} {noun}{}", if k == 1 { "" } else { "s" })
    }
}

use Count::{AtLeast, Exactly};

const UNARY: &[&str] = &[
    "abs",
    "cbrt",
    "ceil",
    "convert",
    "cosine",
    "count_leading_zeros",
    "exponential",
    "exponential_minus_one",
    "floor",
    "imag",
    "is_finite",
    "log",
    "log_plus_one",
    "logistic",
    "not",
    "negate",
    "popcnt",
    "real",
    "reduce_precision",
    "round_nearest_afz",
    "round_nearest_even",
    "rsqrt",
    "sign",
    "sine",
    "sqrt",
    "tan",
    "tanh",
    "uniform_quantize",
    "uniform_dequantize",
    "bitcast_convert",
    "reshape",
    "transpose",
    "broadcast_in_dim",
    "broadcast",
    "reverse",
    "slice",
    "cholesky",
    "fft",
    "copy",
    "get_tuple_element",
    "collective_permute",
    "collective_broadcast",
    "reduce_scatter",
    "dynamic_iota",
    "chlo.acos",
    "chlo.acosh",
    "chlo.asin",
    "chlo.asinh",
    "chlo.atan",
    "chlo.atanh",
    "chlo.bessel_i1e",
    "chlo.conj",
    "chlo.cosh",
    "chlo.digamma",
    "chlo.erf",
    "chlo.erf_inv",
    "chlo.erfc",
    "chlo.is_inf",
    "chlo.is_neg_inf",
    "chlo.is_pos_inf",
    "chlo.lgamma",
    "chlo.sinh",
    "chlo.square",
    "chlo.tan",
];

const BINARY: &[&str] = &[
    "add",
    "subtract",
    "multiply",
    "divide",
    "remainder",
    "maximum",
    "minimum",
    "power",
    "atan2",
    "and",
    "or",
    "xor",
    "shift_left",
    "shift_right_arithmetic",
    "shift_right_logical",
    "compare",
    "complex",
    "dot_general",
    "dot",
    "convolution",
    "triangular_solve",
    "pad",
    "gather",
    "dynamic_reshape",
    "chlo.next_after",
    "chlo.polygamma",
    "chlo.zeta",
];

const TERNARY: &[&str] = &["select", "clamp", "rng", "select_and_scatter", "dynamic_gather"];

/// The operand and result counts op `name` (canonical: `add`, `chlo.erf`) must have, when it
/// is a StableHLO or CHLO op of fixed or bounded arity; `None` for variadic and unknown ops.
pub fn arity(name: &str) -> Option<(Count, Count)> {
    let one = Exactly(1);
    if let Some(inner) = name.strip_prefix("chlo.broadcast_") {
        let binary = BINARY.contains(&inner) || BINARY.contains(&format!("chlo.{inner}").as_str());
        return match inner {
            "select" => Some((Exactly(3), one)),
            _ => binary.then_some((Exactly(2), one)),
        };
    }
    if UNARY.contains(&name) {
        return Some((Exactly(1), one));
    }
    if BINARY.contains(&name) {
        return Some((Exactly(2), one));
    }
    if TERNARY.contains(&name) {
        return Some((Exactly(3), one));
    }
    Some(match name {
        "constant" | "iota" | "partition_id" | "replica_id" | "create_token" => (Exactly(0), one),
        "rng_bit_generator" => (Exactly(1), Exactly(2)),
        "chlo.top_k" | "topk" => (Exactly(1), Exactly(2)),
        "batch_norm_training" => (Exactly(3), Exactly(3)),
        "batch_norm_inference" => (Exactly(5), one),
        "batch_norm_grad" => (Exactly(5), Exactly(3)),
        // An operand and its start indices; an operand, an update and the start indices.
        "dynamic_slice" => (AtLeast(1), one),
        "dynamic_update_slice" => (AtLeast(2), one),
        "concatenate" | "map" => (AtLeast(1), one),
        "dynamic_broadcast_in_dim" => (Exactly(2), one),
        "dynamic_pad" => (Exactly(5), one),
        "tuple" | "after_all" => (AtLeast(0), one),
        _ => return None,
    })
}

/// `op`'s operand count (`operand_count`) and result count against `arity`; an error names the
/// first that is off.
pub fn check_arity(op: &OpNode, name: &str, operand_count: usize) -> Result<(), OpTableError> {
    let Some((operands, results)) = arity(name) else { return Ok(()) };
    for (noun, count, n) in [("operand", operands, operand_count), ("result", results, op.results.len())] {
        if !count.admits(n) {
            return Err(shape_err(op, format!("expects {}, has {n}", count.expected(noun))));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::op_table::canonical_name;
    use crate::ir::op_table::test_util::{f32t, op};

    fn with_counts(name: &str, operands: usize, results: usize) -> Result<(), String> {
        check_arity(&op(name, &vec![f32t(&[4]); results], &[]), &canonical_name(name), operands)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn fixed_arities_are_held_to_and_variadic_ops_are_not() {
        assert_eq!(with_counts("stablehlo.add", 2, 1), Ok(()));
        assert!(with_counts("stablehlo.add", 3, 1).unwrap_err().contains("expects 2 operands, has 3"));
        assert!(with_counts("mhlo.negate", 2, 1).unwrap_err().contains("expects 1 operand, has 2"));
        assert!(with_counts("stablehlo.constant", 0, 2).unwrap_err().contains("expects 1 result, has 2"));
        assert!(with_counts("stablehlo.select", 2, 1).unwrap_err().contains("expects 3 operands, has 2"));
        assert_eq!(with_counts("stablehlo.batch_norm_training", 3, 3), Ok(()));
        assert!(with_counts("stablehlo.batch_norm_grad", 5, 1).unwrap_err().contains("expects 3 results"));
        assert!(with_counts("stablehlo.dynamic_slice", 0, 1).unwrap_err().contains("at least 1 operand,"));
        assert_eq!(with_counts("stablehlo.dynamic_slice", 3, 1), Ok(()));
        assert_eq!(with_counts("chlo.broadcast_add", 2, 1), Ok(()));
        assert_eq!(with_counts("chlo.broadcast_next_after", 2, 1), Ok(()));
        assert!(with_counts("chlo.broadcast_select", 2, 1).is_err());
        assert!(with_counts("chlo.erf", 1, 2).is_err());
        for variadic in [
            "stablehlo.reduce",
            "stablehlo.custom_call",
            "stablehlo.while",
            "stablehlo.optimization_barrier",
            "foo.bar",
        ] {
            assert_eq!(with_counts(variadic, 5, 3), Ok(()), "{variadic}");
        }
    }
}

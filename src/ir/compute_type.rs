//! The element type whose peak rate an op runs at: the cost model's compute term divides an
//! op's FLOPs by the cluster's peak for this type (`Cluster::peak_flops`).
//!
//! - An op computes in its inputs' type (a bf16 matmul accumulating into f32 runs at the bf16
//!   rate), else its result's, else f32.
//! - A dot or convolution on f32 inputs runs as `tf32` (f32 data on tensor cores) at the
//!   default precision: XLA's GPU backend lowers such contractions to TF32 on GPUs that have
//!   it, as JAX users see (jax-ml/jax#12008, #14022). `HIGHEST` on an operand keeps full f32.
//!   A cluster without a TF32 rate (V100, CPUs) gives `tf32` its f32 rate.
//! - A dot's `algorithm` names its input type outright (`lhs_precision_type`).

use crate::ir::attr_text::Precision;
use crate::ir::graph::{Attr, OpNode};
use crate::ir::op_table::{canonical_name, opaque_text};
use crate::ir::types::{TensorType, ValueType};

/// The compute type of f32 contractions at default precision.
pub const TENSOR_FLOAT_32: &str = "tf32";

/// The type whose peak `op` runs at, given its operands' types.
pub fn compute_type(op: &OpNode, operands: &[Option<&TensorType>]) -> String {
    let element = operands
        .iter()
        .find_map(|t| *t)
        .or_else(|| op.results.iter().find_map(ValueType::tensor))
        .map_or_else(|| "f32".to_string(), |t| t.element.to_string());
    if !matches!(canonical_name(&op.name).as_str(), "dot_general" | "dot" | "convolution") {
        return element;
    }
    if let Some(input) = algorithm_input_type(op) {
        return input;
    }
    if element == "f32" && !asks_highest(op) {
        return TENSOR_FLOAT_32.to_string();
    }
    element
}

/// Whether an operand's `precision_config` entry is `HIGHEST`.
fn asks_highest(op: &OpNode) -> bool {
    let Some(Attr::Array(items)) = op.attr("precision_config") else { return false };
    items.iter().filter_map(opaque_text).any(|t| Precision::parse(t) == Ok(Precision::Highest))
}

/// `lhs_precision_type` of a dot's `#stablehlo.dot_algorithm<...>`, if it has one.
fn algorithm_input_type(op: &OpNode) -> Option<String> {
    let text = opaque_text(op.attr("algorithm")?)?;
    let rest = &text[text.find("lhs_precision_type")? + "lhs_precision_type".len()..];
    let value = rest.trim_start().strip_prefix('=')?.trim_start();
    let end = value.find(|c: char| c == ',' || c == '>' || c.is_whitespace()).unwrap_or(value.len());
    (end > 0).then(|| value[..end].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::op_table::test_util::{op, opaque, typed};

    fn dot(attrs: &[(&str, Attr)], element: &str) -> (OpNode, TensorType) {
        let t = typed(&[8, 8], element);
        (op("stablehlo.dot_general", std::slice::from_ref(&t), attrs), t)
    }

    #[test]
    fn f32_contractions_run_as_tf32_unless_highest() {
        let (o, t) = dot(&[], "f32");
        assert_eq!(compute_type(&o, &[Some(&t), Some(&t)]), "tf32");
        let default = Attr::Array(vec![opaque("<precision DEFAULT>"), opaque("<precision HIGH>")]);
        let (o, t) = dot(&[("precision_config", default)], "f32");
        assert_eq!(compute_type(&o, &[Some(&t), Some(&t)]), "tf32");
        let highest = Attr::Array(vec![opaque("<precision DEFAULT>"), opaque("<precision HIGHEST>")]);
        let (o, t) = dot(&[("precision_config", highest)], "f32");
        assert_eq!(compute_type(&o, &[Some(&t), Some(&t)]), "f32");
        let conv = op("stablehlo.convolution", &[typed(&[1, 4, 4, 8], "f32")], &[]);
        let x = typed(&[1, 4, 4, 8], "f32");
        assert_eq!(compute_type(&conv, &[Some(&x), Some(&x)]), "tf32");
    }

    #[test]
    fn other_types_and_ops_keep_their_inputs_type() {
        let (o, t) = dot(&[], "bf16");
        assert_eq!(compute_type(&o, &[Some(&t), Some(&t)]), "bf16");
        let add = op("stablehlo.add", &[typed(&[4], "f32")], &[]);
        let x = typed(&[4], "f32");
        assert_eq!(compute_type(&add, &[Some(&x), Some(&x)]), "f32");
        // No operand types: the result's.
        assert_eq!(compute_type(&add, &[None, None]), "f32");
        let convert = op("stablehlo.convert", &[typed(&[4], "bf16")], &[]);
        assert_eq!(compute_type(&convert, &[None]), "bf16");
    }

    #[test]
    fn a_dot_algorithm_names_the_type() {
        let algorithm = opaque(
            "dot_algorithm<lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, \
             lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, \
             allow_imprecise_accumulation = false>",
        );
        let (o, t) = dot(&[("algorithm", algorithm)], "f32");
        assert_eq!(compute_type(&o, &[Some(&t), Some(&t)]), "f32");
        let bf16 = opaque("dot_algorithm<lhs_precision_type = bf16, rhs_precision_type = bf16>");
        let (o, t) = dot(&[("algorithm", bf16)], "f32");
        assert_eq!(compute_type(&o, &[Some(&t), Some(&t)]), "bf16");
    }
}

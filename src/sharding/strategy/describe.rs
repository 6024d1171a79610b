//! One op's rule and strategies as one line of text (alpa-test-print-op-rules; lit tests specify
//! the op table and the enumeration through it).

use crate::cluster::DeviceMesh;
use crate::ir::graph::OpNode;
use crate::ir::op_table::{op_rule, OpTableError, RuleText};
use crate::ir::types::{TensorType, ValueType};

use super::{op_strategies, StrategyOptions};

/// `stablehlo.dot_general: ([i,k], [k,j]) -> [i,j] {i=8, j=4, k=16}, reduction {k}; 12 strategies on 2x2
/// (heavy: those using every device): S01R = S01R x RR | ...`,
/// the strategies being those the intra-op pass enumerates for `op` on `mesh` with the default
/// options; a `heavy` op keeps only those using every device, and its line says so.
pub fn describe_op(
    op: &OpNode,
    operands: &[Option<&TensorType>],
    heavy: bool,
    mesh: &DeviceMesh,
) -> Result<String, OpTableError> {
    let rule = op_rule(op, operands)?;
    let results: Vec<Option<&TensorType>> = op.results.iter().map(ValueType::tensor).collect();
    let shown = RuleText {
        rule: &rule,
        operand_is_tensor: operands.iter().map(Option::is_some).collect(),
        result_is_tensor: results.iter().map(Option::is_some).collect(),
    };
    let strategies = op_strategies(&rule, operands, &results, heavy, mesh, &StrategyOptions::default());
    let names: Vec<&str> = strategies.iter().map(|s| s.name.as_str()).collect();
    let [rows, columns] = mesh.shape;
    let heavy_note = if heavy { " (heavy: those using every device)" } else { "" };
    Ok(format!(
        "{}: {shown}; {} strateg{} on {rows}x{columns}{heavy_note}: {}",
        op.name,
        names.len(),
        if names.len() == 1 { "y" } else { "ies" },
        names.join(" | ")
    ))
}

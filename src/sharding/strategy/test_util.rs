//! Helpers for the strategy tests: ops built by hand and run through the op table.

use crate::cluster::DeviceMesh;
use crate::ir::graph::OpNode;
pub use crate::ir::op_table::test_util::{f32t, ints, op, opaque, typed};
use crate::ir::op_table::{op_rule, OpRule};
use crate::ir::types::TensorType;

use super::{follow, op_strategies, Strategy, StrategyOptions};

/// An op with its operand types, ready for the strategy functions.
pub struct Case {
    pub op: OpNode,
    pub operands: Vec<TensorType>,
    pub rule: OpRule,
}

impl Case {
    pub fn new(op: OpNode, operands: &[TensorType]) -> Case {
        let types: Vec<Option<&TensorType>> = operands.iter().map(Some).collect();
        let rule = op_rule(&op, &types).unwrap_or_else(|e| panic!("{e}"));
        Case { op, operands: operands.to_vec(), rule }
    }

    pub fn operand_types(&self) -> Vec<Option<&TensorType>> {
        self.operands.iter().map(Some).collect()
    }

    pub fn result_types(&self) -> Vec<Option<&TensorType>> {
        self.op.results.iter().map(|r| r.tensor()).collect()
    }

    pub fn strategies(&self, heavy: bool, mesh: &DeviceMesh, options: &StrategyOptions) -> Vec<Strategy> {
        op_strategies(&self.rule, &self.operand_types(), &self.result_types(), heavy, mesh, options)
    }

    pub fn light(&self, mesh: &DeviceMesh) -> Vec<Strategy> {
        self.strategies(false, mesh, &StrategyOptions::default())
    }

    pub fn heavy(&self, mesh: &DeviceMesh) -> Vec<Strategy> {
        self.strategies(true, mesh, &StrategyOptions::default())
    }

    pub fn follow(&self, operand: usize, leader: &str, mesh: &DeviceMesh) -> Strategy {
        follow(
            &self.rule,
            &self.operand_types(),
            &self.result_types(),
            operand,
            &leader.parse().unwrap(),
            mesh,
            &StrategyOptions::default(),
        )
    }
}

pub fn mesh(shape: [usize; 2]) -> DeviceMesh {
    DeviceMesh::alpa_test(shape).unwrap()
}

pub fn names(strategies: &[Strategy]) -> Vec<&str> {
    strategies.iter().map(|s| s.name.as_str()).collect()
}

pub fn find<'a>(strategies: &'a [Strategy], name: &str) -> &'a Strategy {
    strategies
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no strategy `{name}` among {:#?}", names(strategies)))
}

pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// `dot_general` with the given dimension numbers text and result shape (f32).
pub fn dot(dn: &str, out: &[i64]) -> OpNode {
    op("stablehlo.dot_general", &[f32t(out)], &[("dot_dimension_numbers", opaque(dn))])
}

/// `[m, k] x [k, n]`.
pub fn matmul(m: i64, k: i64, n: i64) -> Case {
    Case::new(
        dot("dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>", &[m, n]),
        &[f32t(&[m, k]), f32t(&[k, n])],
    )
}

/// `broadcast_in_dim` of a `[rows]` vector to `[rows, cols]` (dim 0 kept).
pub fn broadcast_rows(rows: i64, cols: i64) -> Case {
    Case::new(
        op("stablehlo.broadcast_in_dim", &[f32t(&[rows, cols])], &[("broadcast_dimensions", ints(&[0]))]),
        &[f32t(&[rows])],
    )
}

/// `transpose` of a `[rows, cols]` matrix.
pub fn transpose_2d(rows: i64, cols: i64) -> Case {
    Case::new(
        op("stablehlo.transpose", &[f32t(&[cols, rows])], &[("permutation", ints(&[1, 0]))]),
        &[f32t(&[rows, cols])],
    )
}

//! A layer range cut out of a function as a function of its own (the stage sub-graph the
//! oracle plans): values produced outside become arguments, values used outside (or returned)
//! become results, donation aliases kept where both ends are in the stage.

use super::error::InterError;
use crate::ir::graph::{Attr, Attrs, Block, Graph, OpNode, Param, ValueRef};
use std::collections::{BTreeSet, HashMap};

/// Where an argument of a stage comes from in the whole function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StageInput {
    /// Argument `i` of the function (its type and attributes are kept).
    Arg(usize),
    /// Result `result` of op `op` of the function, computed by another stage.
    Value { op: usize, result: usize },
}

/// A set of ops of a function cut out as a function of its own: values produced outside become
/// arguments, values used outside (or returned by the function) become results.
#[derive(Clone, Debug, PartialEq)]
pub struct StageGraph {
    pub graph: Graph,
    /// The function's op index of every stage op.
    pub ops: Vec<usize>,
    /// The origin of every stage argument: the function's arguments first (in their order),
    /// then values of other stages (in producer order).
    pub inputs: Vec<StageInput>,
    /// The function's value (op, result) of every stage result, in producer order.
    pub outputs: Vec<(usize, usize)>,
}

const ALIAS_ATTR: &str = "tf.aliasing_output";

impl StageGraph {
    /// Cuts `ops` (function op indices, strictly increasing) out of `graph`. A function
    /// argument keeps its `Param` (type, donation, sharding attributes); its
    /// `tf.aliasing_output` is renumbered to the stage result it is aliased to, or dropped when
    /// that result is not computed by the stage. Values from other stages become plain
    /// arguments; results the function returns keep the function's result attributes.
    pub fn extract(graph: &Graph, ops: &[usize], name: String) -> Result<StageGraph, InterError> {
        let n = graph.ops().len();
        if ops.is_empty() {
            return Err(InterError::InvalidInput("a stage needs at least one op".into()));
        }
        if ops.windows(2).any(|w| w[0] >= w[1]) || ops.iter().any(|&i| i >= n) {
            return Err(InterError::InvalidInput(format!("stage ops must be increasing op indices below {n}")));
        }
        let mut position = vec![None; n];
        for (p, &op) in ops.iter().enumerate() {
            position[op] = Some(p);
        }
        let in_stage = |op: usize| position.get(op).copied().flatten().is_some();

        // Inputs: the function's arguments and other stages' values the stage reads.
        let mut args = BTreeSet::new();
        let mut values = BTreeSet::new();
        for &index in ops {
            for operand in &graph.ops()[index].operands {
                match *operand {
                    ValueRef::Arg(a) if a < graph.args.len() => {
                        args.insert(a);
                    }
                    ValueRef::Op { op, result } if !in_stage(op) => {
                        if op >= index {
                            return Err(InterError::InvalidInput(format!(
                                "op {index} reads op {op}, which is not before it"
                            )));
                        }
                        values.insert((op, result));
                    }
                    ValueRef::Arg(a) => {
                        return Err(InterError::InvalidInput(format!(
                            "op {index} reads argument {a} of {}",
                            graph.args.len()
                        )));
                    }
                    _ => {}
                }
            }
        }
        let inputs: Vec<StageInput> = args
            .iter()
            .map(|&a| StageInput::Arg(a))
            .chain(values.iter().map(|&(op, result)| StageInput::Value { op, result }))
            .collect();
        let input_index: HashMap<StageInput, usize> = inputs.iter().enumerate().map(|(i, v)| (*v, i)).collect();

        // Outputs: stage values read by other stages or returned by the function.
        let mut outputs = BTreeSet::new();
        for (index, op) in graph.ops().iter().enumerate() {
            if in_stage(index) {
                continue;
            }
            for operand in &op.operands {
                if let ValueRef::Op { op, result } = *operand {
                    if in_stage(op) {
                        outputs.insert((op, result));
                    }
                }
            }
        }
        for value in &graph.returned {
            if let ValueRef::Op { op, result } = *value {
                if in_stage(op) {
                    outputs.insert((op, result));
                }
            }
        }
        let outputs: Vec<(usize, usize)> = outputs.into_iter().collect();
        let output_index: HashMap<(usize, usize), usize> = outputs.iter().enumerate().map(|(i, v)| (*v, i)).collect();

        let value_type = |op: usize, result: usize| {
            graph.ops()[op]
                .results
                .get(result)
                .cloned()
                .ok_or_else(|| InterError::InvalidInput(format!("op {op} has no result {result}")))
        };
        let mut stage_args = Vec::with_capacity(inputs.len());
        for input in &inputs {
            stage_args.push(match *input {
                StageInput::Arg(a) => {
                    let mut param = graph.args[a].clone();
                    let aliased = param.aliased_output().and_then(|r| match graph.returned.get(r) {
                        Some(ValueRef::Op { op, result }) => output_index.get(&(*op, *result)).copied(),
                        _ => None,
                    });
                    match aliased {
                        Some(r) => param.attrs.insert(ALIAS_ATTR.into(), Attr::Int(r as i64)),
                        None => param.attrs.remove(ALIAS_ATTR),
                    };
                    param
                }
                StageInput::Value { op, result } => Param { ty: value_type(op, result)?, attrs: Attrs::new() },
            });
        }
        let mut stage_results = Vec::with_capacity(outputs.len());
        for &(op, result) in &outputs {
            let returned_as = graph.returned.iter().position(|v| *v == ValueRef::Op { op, result });
            stage_results.push(match returned_as.and_then(|r| graph.results.get(r)) {
                Some(param) => param.clone(),
                None => Param { ty: value_type(op, result)?, attrs: Attrs::new() },
            });
        }

        let remap = |value: ValueRef| match value {
            ValueRef::Arg(a) => ValueRef::Arg(input_index[&StageInput::Arg(a)]),
            ValueRef::Op { op, result } => match position[op] {
                Some(p) => ValueRef::Op { op: p, result },
                None => ValueRef::Arg(input_index[&StageInput::Value { op, result }]),
            },
            ValueRef::Outer => ValueRef::Outer,
        };
        let body_ops: Vec<OpNode> = ops
            .iter()
            .map(|&index| {
                let mut op = graph.ops()[index].clone();
                for operand in &mut op.operands {
                    *operand = remap(*operand);
                }
                op
            })
            .collect();
        let returned = outputs.iter().map(|&(op, result)| remap(ValueRef::Op { op, result })).collect();
        let graph = Graph {
            func_name: name,
            body: Block { args: stage_args.iter().map(|p| p.ty.clone()).collect(), ops: body_ops, terminator: None },
            args: stage_args,
            results: stage_results,
            returned,
        };
        Ok(StageGraph { graph, ops: ops.to_vec(), inputs, outputs })
    }
}

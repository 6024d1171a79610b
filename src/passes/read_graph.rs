//! Builds the graph view (src/ir/graph.rs) of a function from MLIR.

use super::diagnostics::Diagnostic;
use super::entry::Function;
use super::mlir;
use crate::ir::graph::{Attr, Attrs, Block, Graph, OpNode, Param, Region, ValueRef};
use crate::ir::types::{TensorType, ValueType};
use crate::ir::verify::{value_fits, verify_op, verify_params, IssueSeverity, ParamIssue};
use mlir_sys::*;
use std::collections::HashMap;
use std::ffi::c_void;

/// The graph of a function plus the MLIR op behind every op of its body, in the same order,
/// so that passes can emit diagnostics at an op and write attributes back.
pub struct ReadGraph {
    pub graph: Graph,
    pub handles: Vec<MlirOperation>,
}

pub fn read_function(function: Function) -> Result<ReadGraph, Vec<Diagnostic>> {
    let func_op = function.op;
    let Some(body) = mlir::body_block(func_op) else {
        return Err(vec![Diagnostic::error(func_op, "function has no body")]);
    };
    // Only the first block is read: control flow between blocks has no graph here.
    let blocks = mlir::regions(func_op).first().map_or(0, |r| mlir::blocks(*r).len());
    if blocks != 1 {
        return Err(vec![Diagnostic::error(
            func_op,
            format!("function '@{}' has {blocks} blocks: only a single-block body (StableHLO's structured control flow) can be planned", function.name()),
        )]);
    }
    let (arg_types, result_types) = function_signature(func_op)?;
    let args = params(func_op, "arg_attrs", arg_types);
    let results = params(func_op, "res_attrs", result_types);
    let too_large: Vec<Diagnostic> = [("argument", &args), ("result", &results)]
        .into_iter()
        .flat_map(|(what, params)| params.iter().enumerate().map(move |(i, p)| (what, i, p)))
        .filter_map(|(what, i, p)| {
            let at = (what == "argument").then_some(i);
            value_fits(&p.ty).err().map(|m| Diagnostic::error(func_op, format!("{what} #{i}: {m}")).at_argument(at))
        })
        .collect();
    if !too_large.is_empty() {
        return Err(too_large);
    }

    let mut errors = Vec::new();
    let (block, handles) = read_block(body, true, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let returned = block.terminator.as_ref().map(|t| t.operands.clone()).unwrap_or_default();
    let graph = Graph { func_name: function.name(), args, results, body: block, returned };
    if graph.checked_argument_bytes().is_none() {
        let message = "the arguments together have more than 2^64 bytes: sizes past u64 cannot be costed";
        return Err(vec![Diagnostic::error(func_op, message)]);
    }
    // Argument and result attributes are checked before any pass plans with them; the function
    // is where they are written.
    let (errors, remarks): (Vec<ParamIssue>, Vec<ParamIssue>) =
        verify_params(&graph).into_iter().partition(|i| i.severity == IssueSeverity::Error);
    if !errors.is_empty() {
        return Err(errors
            .into_iter()
            .map(|i| Diagnostic::error(func_op, i.message).at_argument(i.argument))
            .collect());
    }
    remarks.into_iter().for_each(|i| Diagnostic::remark(func_op, i.message).at_argument(i.argument).emit());
    Ok(ReadGraph { graph, handles })
}

fn function_signature(func_op: MlirOperation) -> Result<(Vec<ValueType>, Vec<ValueType>), Vec<Diagnostic>> {
    let fail = |message: String, at: Option<usize>| vec![Diagnostic::error(func_op, message).at_argument(at)];
    let attr =
        mlir::attribute(func_op, "function_type").ok_or_else(|| fail("function has no function_type".into(), None))?;
    unsafe {
        let ty = mlirTypeAttrGetValue(attr);
        let convert = |t: MlirType, what: &str, i: isize| {
            let at = (what == "argument").then_some(i as usize);
            mlir::value_type(t).map_err(|text| {
                fail(format!("{what} #{i} has dynamic shape {text}: only static shapes can be planned (export the step at the microbatch's shapes, not with jax.export's symbolic dimensions)"), at)
            })
        };
        let inputs = (0..mlirFunctionTypeGetNumInputs(ty))
            .map(|i| convert(mlirFunctionTypeGetInput(ty, i), "argument", i))
            .collect::<Result<_, _>>()?;
        let outputs = (0..mlirFunctionTypeGetNumResults(ty))
            .map(|i| convert(mlirFunctionTypeGetResult(ty, i), "result", i))
            .collect::<Result<_, _>>()?;
        Ok((inputs, outputs))
    }
}

fn params(func_op: MlirOperation, attr_name: &str, types: Vec<ValueType>) -> Vec<Param> {
    let per_param: Vec<Attrs> = match mlir::attribute(func_op, attr_name).map(mlir::attr_value) {
        Some(Attr::Array(items)) => items
            .into_iter()
            .map(|item| match item {
                Attr::Dict(entries) => entries,
                _ => Attrs::new(),
            })
            .collect(),
        _ => Vec::new(),
    };
    types
        .into_iter()
        .enumerate()
        .map(|(i, ty)| Param { ty, attrs: per_param.get(i).cloned().unwrap_or_default() })
        .collect()
}

fn is_terminator_name(name: &str) -> bool {
    name.ends_with(".return") || name.ends_with(".yield")
}

/// Reads one block; `handles` lists the MLIR op of every non-terminator op of this block.
fn read_block(block: MlirBlock, top_level: bool, errors: &mut Vec<Diagnostic>) -> (Block, Vec<MlirOperation>) {
    let mut values: HashMap<*const c_void, ValueRef> = HashMap::new();
    let mut args = Vec::new();
    // The op whose region holds the block; the entry's arguments are checked with the signature.
    let owner = unsafe { mlirBlockGetParentOperation(block) };
    for (i, arg) in mlir::block_args(block).into_iter().enumerate() {
        values.insert(arg.ptr, ValueRef::Arg(i));
        let ty = unsafe { mlirValueGetType(arg) };
        match mlir::value_type(ty) {
            Ok(t) => {
                if let (false, Err(m)) = (top_level, value_fits(&t)) {
                    errors.push(Diagnostic::error(owner, format!("block argument #{i}: {m}")));
                }
                args.push(t)
            }
            Err(text) => {
                if !top_level {
                    errors.push(Diagnostic::error(
                        owner,
                        format!("block argument #{i} has dynamic shape {text}: only static shapes can be planned"),
                    ));
                }
                args.push(ValueType::Other(text));
            }
        }
    }

    let mut ops = Vec::new();
    let mut handles = Vec::new();
    let mut terminator = None;
    let all = mlir::block_ops(block);
    let last = all.len().saturating_sub(1);
    for (position, op) in all.into_iter().enumerate() {
        let node = read_op(op, &values, errors);
        if top_level && node.name == "func.call" {
            let callee = mlir::string_attr(op, "callee").unwrap_or_default();
            errors.push(Diagnostic::error(
                op,
                format!("call to '@{callee}' in the entry function: run alpa-inline first"),
            ));
        }
        if position == last && is_terminator_name(&node.name) {
            terminator = Some(node);
            continue;
        }
        let index = ops.len();
        for (r, result) in mlir::results(op).into_iter().enumerate() {
            values.insert(result.ptr, ValueRef::Op { op: index, result: r });
        }
        ops.push(node);
        handles.push(op);
    }
    (Block { args, ops, terminator }, handles)
}

fn read_op(op: MlirOperation, values: &HashMap<*const c_void, ValueRef>, errors: &mut Vec<Diagnostic>) -> OpNode {
    let name = mlir::op_name(op);
    let operands = mlir::operands(op).into_iter().map(|v| *values.get(&v.ptr).unwrap_or(&ValueRef::Outer)).collect();
    let mut results = Vec::new();
    for (i, result) in mlir::results(op).into_iter().enumerate() {
        match mlir::value_type(unsafe { mlirValueGetType(result) }) {
            Ok(ty) => results.push(ty),
            Err(text) => {
                errors.push(Diagnostic::error(
                    op,
                    format!("result #{i} has dynamic shape {text}: only static shapes can be planned"),
                ));
                results.push(ValueType::Other(text));
            }
        }
    }
    let attrs = mlir::attributes(op)
        .into_iter()
        .map(|(k, a)| {
            let value = read_attr(&k, a);
            (k, value)
        })
        .collect();
    let regions = mlir::regions(op)
        .into_iter()
        .map(|region| Region {
            blocks: mlir::blocks(region).into_iter().map(|b| read_block(b, false, errors).0).collect(),
        })
        .collect();
    let node = OpNode { name, location: mlir::op_location(op), operands, results, attrs, regions };
    // Nested ops were verified as their regions were read, so every op of the body is checked.
    let operand_types: Vec<Option<ValueType>> =
        mlir::operands(op).into_iter().map(|v| mlir::value_type(unsafe { mlirValueGetType(v) }).ok()).collect();
    let operand_tensors: Vec<Option<&TensorType>> =
        operand_types.iter().map(|t| t.as_ref().and_then(ValueType::tensor)).collect();
    if let Err(error) = verify_op(&node, &operand_tensors) {
        errors.push(Diagnostic::error(op, error.to_string()));
    }
    node
}

/// Attributes as plain data; `padding` (dense `[n, 2]` integers on windowed ops) keeps its values,
/// which the verifier needs to check the result shape.
fn read_attr(name: &str, attr: MlirAttribute) -> Attr {
    if name == "padding" {
        if let Some(values) = small_i64_elements(attr) {
            return Attr::I64Array(values);
        }
    }
    mlir::attr_value(attr)
}

fn small_i64_elements(attr: MlirAttribute) -> Option<Vec<i64>> {
    unsafe {
        if !mlirAttributeIsADenseElements(attr) {
            return None;
        }
        let element = mlirShapedTypeGetElementType(mlirAttributeGetType(attr));
        if !mlirTypeIsAInteger(element) || mlirIntegerTypeGetWidth(element) != 64 {
            return None;
        }
        let n = mlirElementsAttrGetNumElements(attr);
        if n > 1024 {
            return None;
        }
        let splat = mlirDenseElementsAttrIsSplat(attr);
        Some((0..n).map(|i| mlirDenseElementsAttrGetInt64Value(attr, if splat { 0 } else { i as isize })).collect())
    }
}

//! Writes a [`PipelineProgram`] into the module: one private function per stage and kind
//! (`@stage{i}_forward|backward|apply`, carrying the stage's devices and logical mesh), and the
//! entry rewritten to take the global batch, slice it into microbatches, call the stage
//! functions in the schedule's order, accumulate, apply, and return what the step returned.
//! A value that crosses stages passes through `alpa.transfer` (source and destination stage,
//! devices, logical mesh and sharding), for the cross-mesh resharding to expand.

use super::entry::Function;
use super::mlir;
use crate::inter::program::{Accumulate, PipelineProgram, Ratio};
use crate::ir::graph::ValueRef;
use mlir_sys::*;
use std::collections::HashMap;

/// Where a stage runs.
#[derive(Clone, Debug)]
pub struct StagePlacement {
    pub devices: Vec<usize>,
    pub logical_mesh: [usize; 2],
}

/// Appends ops to one block.
struct Emitter {
    context: MlirContext,
    location: MlirLocation,
    block: MlirBlock,
}

impl Emitter {
    fn op(
        &self,
        name: &str,
        operands: &[MlirValue],
        results: &[MlirType],
        attrs: &[(&str, MlirAttribute)],
    ) -> MlirOperation {
        let op = mlir::new_op(self.location, name, operands, results, attrs);
        unsafe { mlirBlockAppendOwnedOperation(self.block, op) };
        op
    }

    fn attr(&self, text: &str) -> Result<MlirAttribute, String> {
        mlir::parse_attr(self.context, text)
    }
}

fn value_type(v: MlirValue) -> MlirType {
    unsafe { mlirValueGetType(v) }
}

fn tensor_shape(ty: MlirType) -> Option<Vec<i64>> {
    unsafe {
        if !mlirTypeIsARankedTensor(ty) {
            return None;
        }
        Some((0..mlirShapedTypeGetRank(ty)).map(|d| mlirShapedTypeGetDimSize(ty, d as isize)).collect())
    }
}

fn with_shape(ty: MlirType, shape: &[i64]) -> MlirType {
    unsafe {
        mlirRankedTensorTypeGet(
            shape.len() as isize,
            shape.as_ptr(),
            mlirShapedTypeGetElementType(ty),
            mlirAttributeGetNull(),
        )
    }
}

pub fn emit(
    module: MlirOperation,
    entry: Function,
    handles: &[MlirOperation],
    program: &PipelineProgram,
    returned_by_step: &[ValueRef],
    placements: &[StagePlacement],
    transfers: bool,
    transfer_shardings: &dyn Fn(usize, usize, usize, usize) -> Option<(String, String)>,
) -> Result<Vec<Option<MlirOperation>>, String> {
    let context = mlir::context(module);
    let body = mlir::body_block(entry.op).ok_or("the entry has no body")?;
    let args = mlir::block_args(body);
    let location = unsafe { mlirOperationGetLocation(entry.op) };
    let original = |v: ValueRef| -> Result<MlirValue, String> {
        match v {
            ValueRef::Arg(a) => args.get(a).copied().ok_or_else(|| format!("no argument {a}")),
            ValueRef::Op { op, result } => {
                mlir::results(handles[op]).get(result).copied().ok_or_else(|| format!("no result {result} of op {op}"))
            }
            ValueRef::Outer => Err("a captured value cannot cross a function boundary".into()),
        }
    };
    let module_body = mlir::body_block(module).ok_or("the module has no body")?;

    // The stage functions, before the entry.
    let mut clones: Vec<Option<MlirOperation>> = vec![None; handles.len()];
    let mut function_result_types: Vec<Vec<MlirType>> = Vec::new();
    for (f, function) in program.functions.iter().enumerate() {
        let inputs: Vec<MlirValue> = function.inputs.iter().map(|v| original(*v)).collect::<Result<_, _>>()?;
        let outputs: Vec<MlirValue> = function.outputs.iter().map(|v| original(*v)).collect::<Result<_, _>>()?;
        let input_types: Vec<MlirType> = inputs.iter().map(|v| value_type(*v)).collect();
        let output_types: Vec<MlirType> = outputs.iter().map(|v| value_type(*v)).collect();
        function_result_types.push(output_types.clone());
        let placement = placements.get(function.stage.index()).ok_or("a stage without a placement")?;
        unsafe {
            let function_type = mlir::function_type(context, &input_types, &output_types);
            let locations = vec![location; input_types.len()];
            let block = mlirBlockCreate(input_types.len() as isize, input_types.as_ptr(), locations.as_ptr());
            let region = mlirRegionCreate();
            mlirRegionAppendOwnedBlock(region, block);
            let mut state = mlirOperationStateGet(mlir::string_ref("func.func"), location);
            let attrs = [
                ("sym_name", mlir::string_attr_value(context, &function.symbol())),
                ("function_type", mlirTypeAttrGet(function_type)),
                ("sym_visibility", mlir::string_attr_value(context, "private")),
                ("alpa.stage", mlir::parse_attr(context, &format!("{} : i64", function.stage))?),
                (
                    "alpa.devices",
                    mlir::parse_attr(context, &mlir::i64_array_text(placement.devices.iter().map(|&d| d as i64)))?,
                ),
                (
                    "alpa.logical_mesh",
                    mlir::parse_attr(context, &mlir::i64_array_text(placement.logical_mesh.iter().map(|&d| d as i64)))?,
                ),
            ];
            let named: Vec<MlirNamedAttribute> = attrs
                .iter()
                .map(|(k, v)| mlirNamedAttributeGet(mlirIdentifierGet(context, mlir::string_ref(k)), *v))
                .collect();
            mlirOperationStateAddAttributes(&mut state, named.len() as isize, named.as_ptr());
            mlirOperationStateAddOwnedRegions(&mut state, 1, &region);
            let func = mlirOperationCreate(&mut state);
            mlirBlockInsertOwnedOperationBefore(module_body, entry.op, func);

            let mut mapped: HashMap<*mut std::ffi::c_void, MlirValue> = HashMap::new();
            for (i, v) in inputs.iter().enumerate() {
                mapped.insert(v.ptr as *mut _, mlirBlockGetArgument(block, i as isize));
            }
            for op in function.ops.iter().map(|op| op.index()) {
                let clone = mlirOperationClone(handles[op]);
                mlirBlockAppendOwnedOperation(block, clone);
                // A value of constants copied into a function that reads it is not the op's
                // own clone (its stage's shardings are written on that one only).
                if program.function_of_op[op] == f {
                    clones[op] = Some(clone);
                }
                for i in 0..mlirOperationGetNumOperands(clone) {
                    let operand = mlirOperationGetOperand(clone, i);
                    let new = mapped
                        .get(&(operand.ptr as *mut _))
                        .copied()
                        .ok_or("an operand from outside the stage function")?;
                    mlirOperationSetOperand(clone, i, new);
                }
                for (old, new) in mlir::results(handles[op]).into_iter().zip(mlir::results(clone)) {
                    mapped.insert(old.ptr as *mut _, new);
                }
            }
            let returned: Vec<MlirValue> = outputs
                .iter()
                .map(|v| mapped.get(&(v.ptr as *mut _)).copied().ok_or("an output from outside"))
                .collect::<Result<_, _>>()?;
            let emitter = Emitter { context, location, block };
            emitter.op("func.return", &returned, &[], &[]);
        }
    }

    // What @main computes again on the global batch's weights, read before the ops go.
    let replayed: HashMap<Ratio, Vec<Replayed>> = program
        .ratios()
        .map(|(of, w)| {
            let steps = w.steps.iter().map(|step| replayed(handles[step.op], step.from)).collect::<Result<_, _>>()?;
            Ok::<_, String>((of, steps))
        })
        .collect::<Result<_, _>>()?;

    // The entry: erase the old body (users first), retype the batch arguments.
    let old_ops = mlir::block_ops(body);
    let terminator = unsafe { mlirBlockGetTerminator(body) };
    unsafe {
        mlirOperationDestroy(terminator);
        for op in old_ops.iter().rev() {
            if op.ptr != terminator.ptr {
                mlirOperationDestroy(*op);
            }
        }
    }
    let b = program.microbatches as i64;
    let mut microbatch_type: HashMap<usize, MlirType> = HashMap::new();
    for (a, dim) in program.batch_dims.iter().enumerate() {
        let Some(dim) = *dim else { continue };
        let ty = value_type(args[a]);
        let mut shape = tensor_shape(ty).ok_or("a batch input is not a ranked tensor")?;
        microbatch_type.insert(a, ty);
        shape[dim] = shape[dim].checked_mul(b).ok_or("a batch input's global size does not fit in 64 bits")?;
        unsafe { mlirValueSetType(args[a], with_shape(ty, &shape)) };
    }
    let arg_types: Vec<MlirType> = args.iter().map(|v| value_type(*v)).collect();

    let emitter = Emitter { context, location, block: body };
    // Microbatch slices of the batch inputs.
    let mut slices: HashMap<(usize, usize), MlirValue> = HashMap::new();
    for (a, dim) in program.batch_dims.iter().enumerate() {
        let Some(dim) = *dim else { continue };
        let ty = microbatch_type[&a];
        let shape = tensor_shape(ty).ok_or("a batch input is not a ranked tensor")?;
        for k in 0..program.microbatches {
            let start: Vec<i64> = (0..shape.len()).map(|d| if d == dim { k as i64 * shape[d] } else { 0 }).collect();
            let limit: Vec<i64> =
                (0..shape.len()).map(|d| if d == dim { (k as i64 + 1) * shape[d] } else { shape[d] }).collect();
            let op = emitter.op(
                "stablehlo.slice",
                &[args[a]],
                &[ty],
                &[
                    ("start_indices", emitter.attr(&mlir::i64_array_text(start))?),
                    ("limit_indices", emitter.attr(&mlir::i64_array_text(limit))?),
                    ("strides", emitter.attr(&mlir::i64_array_text(vec![1; shape.len()]))?),
                ],
            );
            slices.insert((a, k), mlir::results(op)[0]);
        }
    }

    let placement_attrs = |stage: usize, prefix: &str| -> Result<Vec<(String, MlirAttribute)>, String> {
        let p = placements.get(stage).ok_or("a stage without a placement")?;
        Ok(vec![
            (format!("{prefix}_stage"), emitter.attr(&format!("{stage} : i64"))?),
            (format!("{prefix}_devices"), emitter.attr(&mlir::i64_array_text(p.devices.iter().map(|&d| d as i64)))?),
            (
                format!("{prefix}_logical_mesh"),
                emitter.attr(&mlir::i64_array_text(p.logical_mesh.iter().map(|&d| d as i64)))?,
            ),
        ])
    };
    // A value produced in one stage and read in another goes through a transfer, once per
    // (value, microbatch, destination stage).
    let mut transferred: HashMap<(ValueRef, Option<usize>, usize), MlirValue> = HashMap::new();
    let mut transfer =
        |value: MlirValue, key: (ValueRef, Option<usize>, usize), from: usize| -> Result<MlirValue, String> {
            let to = key.2;
            if !transfers || from == to {
                return Ok(value);
            }
            if let Some(v) = transferred.get(&key) {
                return Ok(*v);
            }
            let mut attrs = placement_attrs(from, "src")?;
            attrs.extend(placement_attrs(to, "dst")?);
            if let ValueRef::Op { op, result } = key.0 {
                if let Some((source, destination)) = transfer_shardings(op, result, from, to) {
                    attrs.push(("src_sharding".into(), emitter.attr(&source)?));
                    attrs.push(("dst_sharding".into(), emitter.attr(&destination)?));
                }
            }
            let attrs: Vec<(&str, MlirAttribute)> = attrs.iter().map(|(k, v)| (k.as_str(), *v)).collect();
            let op = emitter.op("alpa.transfer", &[value], &[value_type(value)], &attrs);
            let out = mlir::results(op)[0];
            transferred.insert(key, out);
            Ok(out)
        };

    let stage_of = |v: ValueRef| match v {
        ValueRef::Op { op, .. } => Some(program.stage_of_op[op].index().min(placements.len().saturating_sub(1))),
        _ => None,
    };
    let mut per_microbatch: HashMap<(ValueRef, usize), MlirValue> = HashMap::new();
    let mut once: HashMap<ValueRef, MlirValue> = HashMap::new();
    let mut accumulated: HashMap<ValueRef, MlirValue> = HashMap::new();
    // Per ratio of sums and stage, the global batch's denominator, computed there from the
    // microbatches' weights once they are all in.
    let mut global_denominators: HashMap<(Ratio, usize), MlirValue> = HashMap::new();
    let accumulate_all = |per_microbatch: &HashMap<(ValueRef, usize), MlirValue>,
                          accumulated: &mut HashMap<ValueRef, MlirValue>,
                          global_denominators: &mut HashMap<(Ratio, usize), MlirValue>,
                          transfer: &mut dyn FnMut(
        MlirValue,
        (ValueRef, Option<usize>, usize),
        usize,
    ) -> Result<MlirValue, String>|
     -> Result<(), String> {
        for &(v, mode) in &program.accumulated {
            if accumulated.contains_key(&v) {
                continue;
            }
            let parts: Option<Vec<MlirValue>> =
                (0..program.microbatches).map(|k| per_microbatch.get(&(v, k)).copied()).collect();
            let Some(parts) = parts else { continue };
            let ty = value_type(parts[0]);
            let result = match mode {
                Accumulate::Last => *parts.last().expect("at least one microbatch"),
                Accumulate::Extreme { max: true } => fold_by(&emitter, "stablehlo.maximum", &parts),
                Accumulate::Extreme { max: false } => fold_by(&emitter, "stablehlo.minimum", &parts),
                Accumulate::Sum | Accumulate::Mean => {
                    let mut sum = add_up(&emitter, &parts);
                    if mode == Accumulate::Mean && program.microbatches > 1 {
                        let splat = mlir::whole_number_attr(emitter.context, program.microbatches as i64, ty)?;
                        let count = mlir::results(emitter.op("stablehlo.constant", &[], &[ty], &[("value", splat)]))[0];
                        sum = mlir::results(emitter.op("stablehlo.divide", &[sum, count], &[ty], &[]))[0];
                    }
                    sum
                }
                Accumulate::WeightedMean { of } => {
                    let w = program.ratio(of).ok_or("a weighted mean without its ratio of sums")?;
                    // The weights and denominators, moved to where the value is.
                    let to = stage_of(v).ok_or("a weighted mean of an argument")?;
                    let mut here = |u: ValueRef| -> Result<Option<Vec<MlirValue>>, String> {
                        let from = stage_of(u).ok_or("a weight that is an argument")?;
                        (0..program.microbatches)
                            .map(|k| match per_microbatch.get(&(u, k)) {
                                Some(&value) => transfer(value, (u, Some(k), to), from).map(Some),
                                None => Ok(None),
                            })
                            .collect::<Result<Option<Vec<_>>, String>>()
                    };
                    let (Some(weights), Some(denominators)) = (here(w.weights)?, here(w.denominator)?) else {
                        continue;
                    };
                    let total = match global_denominators.get(&(of, to)) {
                        Some(&total) => total,
                        None => {
                            let steps = replayed.get(&of).ok_or("a ratio of sums without its steps")?;
                            let total = replay(&emitter, steps, add_up(&emitter, &weights));
                            global_denominators.insert((of, to), total);
                            total
                        }
                    };
                    let weighted: Vec<MlirValue> = parts
                        .iter()
                        .zip(denominators.iter().zip(&weights))
                        .map(|(&part, (&d, &sum_of_weights))| {
                            let spread_d = spread(&emitter, d, ty)?;
                            let product =
                                mlir::results(emitter.op("stablehlo.multiply", &[part, spread_d], &[ty], &[]))[0];
                            if !w.nonnegative {
                                return Ok(product);
                            }
                            // Non-negative weights summing to zero are all zero: the microbatch's
                            // numerator is zero too, so its part is zero, not its 0/0 (NaN). The
                            // weights' sum, not the denominator, is asked: `sum(w) - 1` is zero
                            // with weights that are not.
                            let scalar = with_shape(ty, &[]);
                            let own_weights = spread(&emitter, sum_of_weights, scalar)?;
                            let zero = |t: MlirType| -> Result<MlirValue, String> {
                                let splat = mlir::whole_number_attr(emitter.context, 0, t)?;
                                Ok(mlir::results(emitter.op("stablehlo.constant", &[], &[t], &[("value", splat)]))[0])
                            };
                            let (none, zeros) = (zero(scalar)?, zero(ty)?);
                            let eq = emitter.attr("#stablehlo<comparison_direction EQ>")?;
                            let i1 = mlir::parse_type(emitter.context, "tensor<i1>")?;
                            let empty = mlir::results(emitter.op(
                                "stablehlo.compare",
                                &[own_weights, none],
                                &[i1],
                                &[("comparison_direction", eq)],
                            ))[0];
                            let shape = tensor_shape(ty).ok_or("a weighted mean of no ranked tensor")?;
                            let empty = if shape.is_empty() {
                                empty
                            } else {
                                let dims = emitter.attr(&mlir::i64_array_text([]))?;
                                mlir::results(emitter.op(
                                    "stablehlo.broadcast_in_dim",
                                    &[empty],
                                    &[with_shape(i1, &shape)],
                                    &[("broadcast_dimensions", dims)],
                                ))[0]
                            };
                            Ok(mlir::results(emitter.op("stablehlo.select", &[empty, zeros, product], &[ty], &[]))[0])
                        })
                        .collect::<Result<_, String>>()?;
                    let sum = add_up(&emitter, &weighted);
                    let total = spread(&emitter, total, ty)?;
                    mlir::results(emitter.op("stablehlo.divide", &[sum, total], &[ty], &[]))[0]
                }
                Accumulate::Concatenate { dim } => {
                    let mut shape = tensor_shape(ty).ok_or("a value per example is not a ranked tensor")?;
                    let size = shape.get_mut(dim).ok_or("a value per example without its batch dimension")?;
                    *size = size
                        .checked_mul(program.microbatches as i64)
                        .ok_or("a value per example's global size does not fit in 64 bits")?;
                    let dimension = emitter.attr(&format!("{dim} : i64"))?;
                    let joined = emitter.op(
                        "stablehlo.concatenate",
                        &parts,
                        &[with_shape(ty, &shape)],
                        &[("dimension", dimension)],
                    );
                    mlir::results(joined)[0]
                }
            };
            accumulated.insert(v, result);
        }
        Ok(())
    };

    for call in &program.calls {
        let function = &program.functions[call.function];
        if call.microbatch.is_none() {
            accumulate_all(&per_microbatch, &mut accumulated, &mut global_denominators, &mut transfer)?;
        }
        let mut operands = Vec::with_capacity(function.inputs.len());
        for &v in &function.inputs {
            let value = match (v, call.microbatch) {
                (ValueRef::Arg(a), Some(k)) if program.batch_dims[a].is_some() => slices[&(a, k)],
                (ValueRef::Arg(a), _) => args[a],
                (ValueRef::Op { .. }, Some(k)) => {
                    *per_microbatch.get(&(v, k)).ok_or("a value used before the call that computes it")?
                }
                (ValueRef::Op { .. }, None) => match accumulated.get(&v).or_else(|| once.get(&v)) {
                    Some(value) => *value,
                    None => return Err("an apply function reads a value nothing computed".into()),
                },
                (ValueRef::Outer, _) => return Err("a captured value cannot cross a function boundary".into()),
            };
            let value = match stage_of(v) {
                Some(from) => transfer(value, (v, call.microbatch, function.stage.index()), from)?,
                None => value,
            };
            operands.push(value);
        }
        let types = &function_result_types[call.function];
        let callee = emitter.attr(&format!("@{}", function.symbol()))?;
        let call_op = emitter.op("func.call", &operands, types, &[("callee", callee)]);
        for (v, r) in function.outputs.iter().zip(mlir::results(call_op)) {
            match call.microbatch {
                Some(k) => {
                    per_microbatch.insert((*v, k), r);
                }
                None => {
                    once.insert(*v, r);
                }
            }
        }
    }
    accumulate_all(&per_microbatch, &mut accumulated, &mut global_denominators, &mut transfer)?;

    // What the step returns.
    let mut returned = Vec::new();
    for &v in returned_by_step {
        let value = match v {
            ValueRef::Arg(a) => args[a],
            ValueRef::Op { .. } => match once.get(&v).or_else(|| accumulated.get(&v)) {
                Some(value) => *value,
                None => return Err("a returned value nothing computed".into()),
            },
            ValueRef::Outer => return Err("a captured value is returned".into()),
        };
        returned.push(value);
    }
    emitter.op("func.return", &returned, &[], &[]);

    // The entry's type: global-batch inputs.
    let result_types: Vec<MlirType> = returned.iter().map(|v| value_type(*v)).collect();
    unsafe {
        let function_type = mlir::function_type(context, &arg_types, &result_types);
        mlirOperationSetInherentAttributeByName(
            entry.op,
            mlir::string_ref("function_type"),
            mlirTypeAttrGet(function_type),
        );
    }
    Ok(clones)
}

/// An op of a ratio-of-sums loss's denominator, to compute again in `@main`: its name, result
/// type, and per operand the value before it (`None`, operand `from`) or a constant's value and
/// type.
struct Replayed {
    name: String,
    result: MlirType,
    operands: Vec<Option<(MlirAttribute, MlirType)>>,
}

fn replayed(op: MlirOperation, from: usize) -> Result<Replayed, String> {
    let operands = mlir::operands(op)
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            if i == from {
                return Ok(None);
            }
            let value = unsafe { mlirValueIsAOpResult(v).then(|| mlir::attribute(mlirOpResultGetOwner(v), "value")) };
            let value = value.flatten().ok_or("a denominator's constant operand without a value")?;
            Ok(Some((value, value_type(v))))
        })
        .collect::<Result<_, String>>()?;
    let result = *mlir::results(op).first().ok_or("a denominator's op without a result")?;
    Ok(Replayed { name: mlir::op_name(op), result: value_type(result), operands })
}

/// `steps` computed again from `value`.
fn replay(emitter: &Emitter, steps: &[Replayed], mut value: MlirValue) -> MlirValue {
    for step in steps {
        let operands: Vec<MlirValue> = step
            .operands
            .iter()
            .map(|operand| match operand {
                None => value,
                Some((attr, ty)) => {
                    mlir::results(emitter.op("stablehlo.constant", &[], &[*ty], &[("value", *attr)]))[0]
                }
            })
            .collect();
        value = mlir::results(emitter.op(&step.name, &operands, &[step.result], &[]))[0];
    }
    value
}

/// The sum of `values` (one type).
fn add_up(emitter: &Emitter, values: &[MlirValue]) -> MlirValue {
    fold_by(emitter, "stablehlo.add", values)
}

/// `values` (one type) combined pairwise, left to right, by the binary elementwise op `name`.
fn fold_by(emitter: &Emitter, name: &str, values: &[MlirValue]) -> MlirValue {
    let ty = value_type(values[0]);
    values[1..].iter().fold(values[0], |acc, &v| mlir::results(emitter.op(name, &[acc, v], &[ty], &[]))[0])
}

/// The scalar `value` converted to `ty`'s element type and broadcast to its shape.
fn spread(emitter: &Emitter, value: MlirValue, ty: MlirType) -> Result<MlirValue, String> {
    let scalar = with_shape(ty, &[]);
    let mut value = value;
    if !unsafe { mlirTypeEqual(value_type(value), scalar) } {
        value = mlir::results(emitter.op("stablehlo.convert", &[value], &[scalar], &[]))[0];
    }
    if tensor_shape(ty).is_some_and(|shape| !shape.is_empty()) {
        let dims = emitter.attr(&mlir::i64_array_text([]))?;
        value =
            mlir::results(emitter.op("stablehlo.broadcast_in_dim", &[value], &[ty], &[("broadcast_dimensions", dims)]))
                [0];
    }
    Ok(value)
}

//! Writes each stage's intra-op plan into its stage functions: one `sdy.mesh` per stage
//! (`@stage{i}_mesh`, the stage's logical mesh), `sdy.sharding` on every cloned op result and on
//! the functions' arguments and results, and, as `alpa-intra-op-shard` does, every result
//! pinned and every resharding explicit, so XLA runs each stage function with its plan's
//! collectives and no others.

use super::mlir;
use super::write_shardings::{self, Shardings};
pub use crate::inter::driver::StageShardings;
use crate::inter::program::PipelineProgram;
use crate::intra::config::OutputFormat;
use crate::ir::graph::{Graph, ValueRef};
use crate::sharding::{sharding_per_value, NamedMesh, ShardingSpec};
use mlir_sys::*;
use std::collections::HashMap;

/// The Shardy mesh of stage `index`.
pub fn stage_mesh(index: usize, logical_mesh: [usize; 2]) -> Result<NamedMesh, String> {
    NamedMesh::new(logical_mesh).and_then(|m| m.with_name(&format!("stage{index}_mesh"))).map_err(|e| e.to_string())
}

/// The shardings a value crossing from stage `from` to stage `to` has on each side, as
/// `#sdy.sharding` texts on the stages' meshes (for `alpa.transfer`). A value no op of the
/// destination reads (one `@main` combines there, as a loss's weights) arrives replicated.
pub fn transfer_shardings(
    stages: &[StageShardings],
    op: usize,
    result: usize,
    from: usize,
    to: usize,
) -> Option<(String, String)> {
    let source = stages.get(from)?;
    let destination = stages.get(to)?;
    let produced = source.result_specs.get(op)?.as_ref()?.get(result)?.as_ref()?;
    let replicated = ShardingSpec::replicated(produced.rank());
    let consumed = destination.input_specs.get(&(op, result)).unwrap_or(&replicated);
    let source_mesh = stage_mesh(from, source.logical_mesh).ok()?;
    let destination_mesh = stage_mesh(to, destination.logical_mesh).ok()?;
    Some((produced.to_sdy(&source_mesh).to_string(), consumed.to_sdy(&destination_mesh).to_string()))
}

/// `clones[op]` is the op of a stage function that entry op `op` became.
pub fn write(module: MlirOperation, clones: &[Option<MlirOperation>], stages: &[StageShardings]) -> Result<(), String> {
    let context = mlir::context(module);
    let body = mlir::body_block(module).ok_or("the module has no body")?;
    for (index, stage) in stages.iter().enumerate().rev() {
        let mesh = stage_mesh(index, stage.logical_mesh)?;
        let text =
            format!("\"sdy.mesh\"() <{{mesh = {}, sym_name = \"{}\"}}> : () -> ()", mesh.to_sdy().attr(), mesh.name());
        mlir::insert_parsed_op_at_start(body, context, &text)?;
        for (op, specs) in stage.result_specs.iter().enumerate() {
            let (Some(specs), Some(Some(clone))) = (specs, clones.get(op)) else { continue };
            if !write_shardings::takes_result_sharding(*clone) {
                continue;
            }
            let Some(specs): Option<Vec<&ShardingSpec>> = specs.iter().map(Option::as_ref).collect() else { continue };
            if specs.is_empty() {
                continue;
            }
            let per_value: Vec<_> = specs.iter().map(|s| s.to_sdy(&mesh)).collect();
            let attr = mlir::parse_attr(context, &sharding_per_value(&per_value))?;
            mlir::set_attr(*clone, "sdy.sharding", attr);
        }
    }
    Ok(())
}

/// Pins every stage function to its stage's plan (see `write_shardings::pin`) and writes the
/// shardings of its arguments and results. `graph` is the entry the program was sliced from.
pub fn pin(
    module: MlirOperation,
    graph: &Graph,
    program: &PipelineProgram,
    clones: &[Option<MlirOperation>],
    stages: &[StageShardings],
) -> Result<(), String> {
    let context = mlir::context(module);
    let functions: HashMap<String, MlirOperation> =
        super::entry::functions(module).into_iter().map(|f| (f.name(), f.op)).collect();
    let n = graph.ops().len();
    for (f, function) in program.functions.iter().enumerate() {
        let stage = stages.get(function.stage.index()).ok_or("a function of a stage without a plan")?;
        let mesh = stage_mesh(function.stage.index(), stage.logical_mesh)?;
        // What every value of the entry looks like from this stage: its own results, the
        // layouts values of other stages arrive in, and the arguments it reads.
        let ops: Vec<Vec<Option<&ShardingSpec>>> = (0..n)
            .map(|op| match &stage.result_specs[op] {
                Some(specs) => specs.iter().map(Option::as_ref).collect(),
                None => (0..graph.ops()[op].results.len()).map(|r| stage.input_specs.get(&(op, r))).collect(),
            })
            .collect();
        let args: Vec<Option<&ShardingSpec>> = (0..graph.args.len()).map(|a| stage.arg_specs.get(&a)).collect();
        let mut handles: Vec<Option<MlirOperation>> = vec![None; n];
        let mut operands: Vec<Vec<Option<&ShardingSpec>>> = vec![Vec::new(); n];
        // Copies of values of constants (not the function's own ops) are left to propagation.
        for op in function.ops.iter().map(|op| op.index()).filter(|&op| program.function_of_op[op] == f) {
            handles[op] = clones.get(op).copied().flatten();
            operands[op] = stage.operand_specs[op]
                .as_ref()
                .map(|specs| specs.iter().map(Option::as_ref).collect())
                .unwrap_or_default();
        }
        let resharding_steps = stage.resharding_steps.iter().map(|(k, v)| (*k, v.as_slice())).collect();
        let shardings = Shardings {
            args,
            ops,
            operands,
            operand_values: graph.ops().iter().map(|op| op.operands.clone()).collect(),
            returned: Vec::new(),
            resharding_steps,
        };
        let render = |spec: &ShardingSpec| spec.to_sdy(&mesh).to_string();
        write_shardings::pin(&handles, &shardings, OutputFormat::Sdy, &render, context)?;

        let func = *functions.get(&function.symbol()).ok_or_else(|| format!("no function @{}", function.symbol()))?;
        let spec_of = |value: &ValueRef| Shardings::of_value(&shardings.args, &shardings.ops, *value);
        for (index, value) in function.inputs.iter().enumerate() {
            if let Some(spec) = spec_of(value) {
                let attr = mlir::parse_attr(context, &render(spec))?;
                unsafe { mlirFuncSetArgAttr(func, index as isize, mlir::string_ref("sdy.sharding"), attr) };
            }
        }
        for (index, value) in function.outputs.iter().enumerate() {
            if let Some(spec) = spec_of(value) {
                let attr = mlir::parse_attr(context, &render(spec))?;
                unsafe { mlirFuncSetResultAttr(func, index as isize, mlir::string_ref("sdy.sharding"), attr) };
            }
        }
    }
    Ok(())
}

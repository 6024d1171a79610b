//! Writes each stage's intra-op plan into its stage functions: one `sdy.mesh` per stage
//! (`@stage{i}_mesh`, the stage's logical mesh) and `sdy.sharding` on every cloned op result,
//! so each stage function carries the shardings its submesh runs it with.

use super::mlir;
use crate::sharding::{sharding_per_value, NamedMesh, ShardingSpec};
use mlir_sys::*;
use std::collections::HashMap;

/// The plan of one stage: its logical mesh and, per op of the entry (by index), the result
/// shardings its strategy produces (`None` for ops of other stages).
pub struct StageShardings {
    pub logical_mesh: [usize; 2],
    pub result_specs: Vec<Option<Vec<Option<ShardingSpec>>>>,
    /// The sharding the stage's plan takes each value from another stage in, by (op, result).
    pub input_specs: HashMap<(usize, usize), ShardingSpec>,
}

/// The Shardy mesh of stage `index`.
pub fn stage_mesh(index: usize, logical_mesh: [usize; 2]) -> Result<NamedMesh, String> {
    NamedMesh::new(logical_mesh).and_then(|m| m.with_name(&format!("stage{index}_mesh"))).map_err(|e| e.to_string())
}

/// The shardings a value crossing from stage `from` to stage `to` has on each side, as
/// `#sdy.sharding` texts on the stages' meshes (for `alpa.transfer`).
pub fn transfer_shardings(stages: &[StageShardings], op: usize, result: usize, from: usize, to: usize) -> Option<(String, String)> {
    let source = stages.get(from)?;
    let destination = stages.get(to)?;
    let produced = source.result_specs.get(op)?.as_ref()?.get(result)?.as_ref()?;
    let consumed = destination.input_specs.get(&(op, result))?;
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
        let text = format!("\"sdy.mesh\"() <{{mesh = {}, sym_name = \"{}\"}}> : () -> ()", mesh.to_sdy().attr(), mesh.name());
        mlir::insert_parsed_op_at_start(body, context, &text)?;
        for (op, specs) in stage.result_specs.iter().enumerate() {
            let (Some(specs), Some(Some(clone))) = (specs, clones.get(op)) else { continue };
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

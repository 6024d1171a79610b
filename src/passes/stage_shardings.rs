//! Writes each stage's intra-op plan into its stage functions: one `sdy.mesh` per stage
//! (`@stage{i}_mesh`, the stage's logical mesh) and `sdy.sharding` on every cloned op result,
//! so each stage function carries the shardings its submesh runs it with.

use super::mlir;
use crate::sharding::{sharding_per_value, NamedMesh, ShardingSpec};
use mlir_sys::*;

/// The plan of one stage: its logical mesh and, per op of the entry (by index), the result
/// shardings its strategy produces (`None` for ops of other stages).
pub struct StageShardings {
    pub logical_mesh: [usize; 2],
    pub result_specs: Vec<Option<Vec<Option<ShardingSpec>>>>,
}

/// `clones[op]` is the op of a stage function that entry op `op` became.
pub fn write(module: MlirOperation, clones: &[Option<MlirOperation>], stages: &[StageShardings]) -> Result<(), String> {
    let context = mlir::context(module);
    let body = mlir::body_block(module).ok_or("the module has no body")?;
    for (index, stage) in stages.iter().enumerate().rev() {
        let mesh = NamedMesh::new(stage.logical_mesh)
            .and_then(|m| m.with_name(&format!("stage{index}_mesh")))
            .map_err(|e| e.to_string())?;
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

//! JAX's export of an unpartitioned step can still hold Shardy meshes that partition nothing:
//! - `@empty_mesh = <[]>`: no axes, so every sharding on it is replicated (JAX pins a typed
//!   PRNG key with a `sdy.sharding_constraint` on it). Dropped, with every sharding that names it.
//! - `@maximal_mesh_K = <[], device_ids=[K]>`: an op pinned to device K, which JAX writes for
//!   host callbacks (`jax.debug.print`, `io_callback`). Their callback lives in the exporting
//!   Python process, so no plan of ours can run them: refused at the op.
//!
//! Meshes with axes are left for the passes to refuse (a step that is already partitioned).

use super::diagnostics::Diagnostic;
use super::mlir;
use crate::sharding::parse_sdy_mesh;
use mlir_sys::*;
use std::collections::BTreeSet;

/// Drops the module's empty meshes and what names them; an op on a maximal mesh is an error.
fn strip(module: MlirOperation, pass: &str) -> Result<(), Vec<Diagnostic>> {
    let Some(body) = mlir::body_block(module) else { return Ok(()) };
    let mut empty = BTreeSet::new();
    let mut maximal = BTreeSet::new();
    let mut empty_decls = Vec::new();
    for op in mlir::block_ops(body).into_iter().filter(|op| mlir::op_name(*op) == "sdy.mesh") {
        let (Some(name), Some(mesh)) = (mlir::string_attr(op, "sym_name"), mlir::attribute(op, "mesh")) else {
            continue;
        };
        let Ok(mesh) = parse_sdy_mesh(&mlir::print_attr(mesh)) else { continue };
        if !mesh.axes.is_empty() {
            continue;
        }
        match mesh.device_ids.as_deref() {
            None | Some([]) => {
                empty.insert(name);
                empty_decls.push(op);
            }
            Some(_) => {
                maximal.insert(name);
            }
        }
    }
    if empty.is_empty() && maximal.is_empty() {
        return Ok(());
    }
    let names_only = |attr: MlirAttribute, set: &BTreeSet<String>| {
        let names = mesh_names(&mlir::print_attr(attr));
        !names.is_empty() && names.iter().all(|n| set.contains(n))
    };
    let names_any = |attr: MlirAttribute, set: &BTreeSet<String>| {
        mesh_names(&mlir::print_attr(attr)).iter().any(|n| set.contains(n))
    };

    let ops = mlir::nested_ops(module);
    if let Some((op, _)) = ops
        .iter()
        .flat_map(|&op| sharding_attrs(op).into_iter().map(move |attr| (op, attr)))
        .find(|&(_, attr)| names_any(attr, &maximal))
    {
        return Err(vec![Diagnostic::error(
            op,
            format!(
                "{pass}: this op is pinned to one device by a maximal Shardy mesh, as JAX exports host callbacks (jax.debug.print, io_callback, pure_callback); their Python function stays in the exporting process, so a compiled plan cannot call it: remove the callback from the exported step"
            ),
        )]);
    }
    for op in ops {
        match mlir::op_name(op).as_str() {
            "sdy.sharding_constraint" if mlir::attribute(op, "sharding").is_some_and(|a| names_only(a, &empty)) => {
                let (operands, results) = (mlir::operands(op), mlir::results(op));
                if let ([input], [output]) = (operands.as_slice(), results.as_slice()) {
                    // SAFETY: every use now reads the constrained value itself; nothing else
                    // refers to the op.
                    unsafe {
                        mlirValueReplaceAllUsesOfWith(*output, *input);
                        mlirOperationDestroy(op);
                    }
                }
            }
            "func.func" => {
                for list in ["arg_attrs", "res_attrs"] {
                    if let Some(attrs) = mlir::attribute(op, list) {
                        let kept = without_shardings_on(attrs, &|a| names_only(a, &empty));
                        // Inherent: set as discardable, it would sit beside the original.
                        unsafe { mlirOperationSetInherentAttributeByName(op, mlir::string_ref(list), kept) };
                    }
                }
            }
            _ => {
                if mlir::attribute(op, "sdy.sharding").is_some_and(|a| names_only(a, &empty)) {
                    unsafe { mlirOperationRemoveAttributeByName(op, mlir::string_ref("sdy.sharding")) };
                }
            }
        }
    }
    // A declaration is erased once nothing names it (a form not handled above keeps it, and the
    // passes then refuse the module as partitioned).
    let still_named: BTreeSet<String> = mlir::nested_ops(module)
        .into_iter()
        .flat_map(|op| sharding_attrs(op).into_iter().flat_map(|a| mesh_names(&mlir::print_attr(a))))
        .collect();
    for decl in empty_decls {
        if !mlir::string_attr(decl, "sym_name").is_some_and(|n| still_named.contains(&n)) {
            // SAFETY: no attribute of the module names the mesh any more.
            unsafe { mlirOperationDestroy(decl) };
        }
    }
    Ok(())
}

/// [`strip`], then an error at the first mesh left (one that partitions), `refusal(its name)`
/// saying why the pass does not take it.
pub fn strip_then_refuse_meshes(
    module: MlirOperation,
    pass: &str,
    refusal: impl Fn(&str) -> String,
) -> Result<(), Vec<Diagnostic>> {
    strip(module, pass)?;
    let Some(body) = mlir::body_block(module) else { return Ok(()) };
    match mlir::block_ops(body).into_iter().find(|op| mlir::op_name(*op) == "sdy.mesh") {
        Some(mesh) => {
            let name = mlir::string_attr(mesh, "sym_name").unwrap_or_default();
            Err(vec![Diagnostic::error(mesh, format!("{pass}: {}", refusal(&name)))])
        }
        None => Ok(()),
    }
}

/// An `arg_attrs` / `res_attrs` array with every `sdy.sharding` entry that `drop` accepts removed.
fn without_shardings_on(list: MlirAttribute, drop: &dyn Fn(MlirAttribute) -> bool) -> MlirAttribute {
    unsafe {
        let context = mlirAttributeGetContext(list);
        let dictionaries: Vec<MlirAttribute> = (0..mlirArrayAttrGetNumElements(list))
            .map(|i| {
                let dictionary = mlirArrayAttrGetElement(list, i);
                let entries: Vec<MlirNamedAttribute> = (0..mlirDictionaryAttrGetNumElements(dictionary))
                    .map(|j| mlirDictionaryAttrGetElement(dictionary, j))
                    .filter(|entry| {
                        let name = mlir::to_string(mlirIdentifierStr(entry.name));
                        !(name == "sdy.sharding" && drop(entry.attribute))
                    })
                    .collect();
                mlirDictionaryAttrGet(context, entries.len() as isize, entries.as_ptr())
            })
            .collect();
        mlirArrayAttrGet(context, dictionaries.len() as isize, dictionaries.as_ptr())
    }
}

/// The attributes of `op` that can name a mesh (not its constants, which can be large to print).
fn sharding_attrs(op: MlirOperation) -> Vec<MlirAttribute> {
    if mlir::op_name(op) == "sdy.mesh" {
        return Vec::new();
    }
    mlir::attributes(op)
        .into_iter()
        .filter(|(name, _)| name.contains("sharding") || name == "arg_attrs" || name == "res_attrs")
        .map(|(_, attr)| attr)
        .collect()
}

/// The symbols (`@name`) an attribute's text refers to.
fn mesh_names(text: &str) -> BTreeSet<String> {
    text.split('@')
        .skip(1)
        .map(|rest| {
            rest.chars().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '-')).collect()
        })
        .filter(|name: &String| !name.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::mesh_names;

    #[test]
    fn mesh_names_are_the_symbols_an_attribute_refers_to() {
        let names = |t: &str| mesh_names(t).into_iter().collect::<Vec<_>>();
        assert_eq!(names("#sdy.sharding<@empty_mesh, [{}]>"), ["empty_mesh"]);
        assert_eq!(names("#sdy.sharding_per_value<[<@maximal_mesh_0, []>, <@m, [{\"x\"}]>]>"), ["m", "maximal_mesh_0"]);
        assert!(names("dense<1.0> : tensor<f32>").is_empty());
    }
}

//! Finding the functions of a module and its entry function.

use super::diagnostics::Diagnostic;
use super::mlir;
use mlir_sys::MlirOperation;

#[derive(Clone, Copy, Debug)]
pub struct Function {
    pub op: MlirOperation,
}

impl Function {
    pub fn name(&self) -> String {
        mlir::string_attr(self.op, "sym_name").unwrap_or_default()
    }

    pub fn is_private(&self) -> bool {
        mlir::string_attr(self.op, "sym_visibility").is_some_and(|v| v == "private")
    }

    /// A declaration has no body.
    pub fn is_declaration(&self) -> bool {
        mlir::body_block(self.op).is_none()
    }
}

/// The `func.func` ops directly inside the module, in order.
pub fn functions(module: MlirOperation) -> Vec<Function> {
    let Some(body) = mlir::body_block(module) else { return Vec::new() };
    mlir::block_ops(body).into_iter().filter(|op| mlir::op_name(*op) == "func.func").map(|op| Function { op }).collect()
}

pub const DEFAULT_ENTRY: &str = "main";

/// The entry function: the one named `requested`, or, when the default name is not present,
/// the module's only public function.
pub fn find_entry(module: MlirOperation, requested: &str) -> Result<Function, Diagnostic> {
    let functions = functions(module);
    if let Some(found) = functions.iter().find(|f| f.name() == requested) {
        if found.is_declaration() {
            return Err(Diagnostic::error(found.op, format!("entry function '@{requested}' has no body")));
        }
        return Ok(*found);
    }
    let public: Vec<&Function> = functions.iter().filter(|f| !f.is_private() && !f.is_declaration()).collect();
    if requested == DEFAULT_ENTRY && public.len() == 1 {
        return Ok(*public[0]);
    }
    let names: Vec<String> = public.iter().map(|f| format!("@{}", f.name())).collect();
    let listed = if names.is_empty() { "none".to_string() } else { names.join(", ") };
    Err(Diagnostic::error(
        module,
        format!("entry function '@{requested}' not found (public functions: {listed}); pass entry=<name>"),
    ))
}

//! Parsing a module outside a pass manager, for benchmarks and tools that call the readers
//! directly.

use super::mlir;
use mlir_sys::*;
use std::path::Path;

/// A module parsed into its own MLIR context (unregistered dialects allowed).
pub struct ParsedModule {
    context: MlirContext,
    module: MlirModule,
}

impl ParsedModule {
    pub fn parse_text(text: &str) -> Result<Self, String> {
        unsafe {
            let context = mlirContextCreate();
            mlirContextSetAllowUnregisteredDialects(context, true);
            mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), context);
            let module = mlirModuleCreateParse(context, mlir::string_ref(text));
            if module.ptr.is_null() {
                mlirContextDestroy(context);
                return Err("the module does not parse (see the diagnostics above)".into());
            }
            Ok(ParsedModule { context, module })
        }
    }

    pub fn parse_file(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Self::parse_text(&text)
    }

    pub fn operation(&self) -> MlirOperation {
        unsafe { mlirModuleGetOperation(self.module) }
    }
}

impl Drop for ParsedModule {
    fn drop(&mut self) {
        unsafe {
            mlirModuleDestroy(self.module);
            mlirContextDestroy(self.context);
        }
    }
}

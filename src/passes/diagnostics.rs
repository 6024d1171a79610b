//! Diagnostics at an op's location (or a function argument's), emitted through MLIR's
//! diagnostic engine.

use super::ffi::bridge;
use super::mlir;
use mlir_sys::*;
use std::cell::RefCell;
use std::sync::Once;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error = 0,
    Warning = 1,
    Remark = 2,
}

#[derive(Debug)]
pub struct Diagnostic {
    pub op: MlirOperation,
    /// An argument of `op` (a function) the diagnostic is about: it is emitted there.
    pub argument: Option<usize>,
    pub severity: Severity,
    pub message: String,
}

impl Diagnostic {
    pub fn error(op: MlirOperation, message: impl Into<String>) -> Self {
        Diagnostic { op, argument: None, severity: Severity::Error, message: message.into() }
    }

    pub fn warning(op: MlirOperation, message: impl Into<String>) -> Self {
        Diagnostic { op, argument: None, severity: Severity::Warning, message: message.into() }
    }

    pub fn remark(op: MlirOperation, message: impl Into<String>) -> Self {
        Diagnostic { op, argument: None, severity: Severity::Remark, message: message.into() }
    }

    /// The same diagnostic at argument `a` of the function `op` (`None`: at the function).
    pub fn at_argument(self, a: Option<usize>) -> Self {
        Diagnostic { argument: a, ..self }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    pub fn emit(&self) {
        bridge::emit_diagnostic(self.location().ptr as usize, self.severity as u8, &self.message);
    }

    /// The argument's location where it has a position (`loc(...)` after it in the signature,
    /// or where the parser read it), else the op's. JAX names arguments without a position
    /// (`loc("params['w']")`): the name is kept, placed at the op.
    fn location(&self) -> MlirLocation {
        let at_op = unsafe { mlirOperationGetLocation(self.op) };
        let argument =
            self.argument.and_then(|a| mlir::body_block(self.op).and_then(|b| mlir::block_args(b).get(a).copied()));
        let Some(at) = argument.map(|v| unsafe { mlirValueGetLocation(v) }) else { return at_op };
        if has_position(at) {
            return at;
        }
        if unsafe { mlirLocationIsAName(at) } {
            return unsafe {
                mlirLocationNameGet(mlirLocationGetContext(at), mlirIdentifierStr(mlirLocationNameGetName(at)), at_op)
            };
        }
        at_op
    }
}

/// Whether a location leads to a place in a file (names wrap a child that may be unknown).
fn has_position(location: MlirLocation) -> bool {
    unsafe {
        if mlirLocationIsAName(location) {
            return has_position(mlirLocationNameGetChildLoc(location));
        }
        !mlirLocationEqual(location, mlirLocationUnknownGet(mlirLocationGetContext(location)))
    }
}

thread_local! {
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replaces the default panic printout (which would interleave with MLIR's diagnostics) by
/// remembering where the panic happened; `panic_message` puts it into the diagnostic.
pub fn install_quiet_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::env::var_os("ALPA_PANIC_BACKTRACE").is_some() {
                default_hook(info);
            }
            let location = info.location().map(|l| format!("{}:{}", l.file(), l.line()));
            PANIC_LOCATION.with(|slot| *slot.borrow_mut() = location);
        }));
    });
}

pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    match PANIC_LOCATION.with(|slot| slot.borrow_mut().take()) {
        Some(location) => format!("{text} (at {location})"),
        None => text,
    }
}

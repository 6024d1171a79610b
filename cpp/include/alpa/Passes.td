// The alpa passes, declared the MLIR way so that they take real pass options
// (`alpa-x{opt=value}` in a pipeline, `--alpa-x="opt=value"` on the command line) and show in
// --help. Each pass hands its module and option values to Rust (src/passes/).

#ifndef ALPA_PASSES
#define ALPA_PASSES

include "mlir/Pass/PassBase.td"

def AlpaInline : Pass<"alpa-inline", "::mlir::ModuleOp"> {
  let summary = "Inline the private functions that the entry function calls";
  let description = [{
    Inlines every `func.call` of a private function into its caller, transitively, starting
    from the public entry function, then erases the private functions left without callers.
    Works on unregistered StableHLO ops, where MLIR's own `--inline` does not.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Name of the entry function (default: main, or the only public function)">,
  ];
}

def AlpaAnnotateCosts : Pass<"alpa-annotate-costs", "::mlir::ModuleOp"> {
  let summary = "Attach FLOPs and bytes to every op of the entry function";
  let description = [{
    Reads the entry function into the graph view, looks every op up in the op table and
    attaches `alpa.flops`, `alpa.bytes_read` and `alpa.bytes_written`. Emits a summary
    (ops by kind, total FLOPs, parameter bytes) as a remark on the function, and a remark
    for every op the table does not know.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Name of the entry function (default: main, or the only public function)">,
    Option<"summary", "summary", "bool", /*default=*/"true",
           "Emit the summary remark">,
    Option<"cluster", "cluster", "std::string", /*default=*/"\"\"",
           "Cluster preset name or JSON file: adds single-device compute time at peak to the summary">,
  ];
}

def AlpaTestPanic : Pass<"alpa-test-panic", "::mlir::ModuleOp"> {
  let summary = "Testing only: panics inside Rust to show it becomes a diagnostic";
  let options = [
    Option<"message", "message", "std::string", /*default=*/"\"test panic\"",
           "Panic message">,
  ];
}

#endif // ALPA_PASSES

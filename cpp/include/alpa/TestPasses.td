// Passes for tests only, kept apart from the production passes the way MLIR keeps its test
// passes: alpa-opt registers them (registerAlpaTestPasses, cpp/lib/TestPasses.cpp), the plugin
// and libalpa_mlir.so's alpaRegisterPasses do not.

#ifndef ALPA_TEST_PASSES
#define ALPA_TEST_PASSES

include "mlir/Pass/PassBase.td"
include "alpa/AlpaOption.td"

def AlpaTestPrintOpRules : Pass<"alpa-test-print-op-rules", "::mlir::ModuleOp"> {
  let summary = "Testing only: a remark per op with its op-table rule and its strategies on a mesh";
  let description = [{
    For every op of the entry function, emits one remark: the op's factor rule from the op
    table, e.g. `([i,j,l], [i,l,k]) -> [i,j,k] {i=4, j=8, k=32, l=16}, reduction {l}`, and the
    names of the strategies the intra-op pass enumerates for it on the mesh (default options;
    heavy ops keep those that use every device). lit-tests/op-table specifies the op table
    with it.
  }];
  let options = [
    AlpaOption<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Name of the entry function (when there is no @main: the only public function)">,
    AlpaOption<"mesh", "mesh", "std::string", /*default=*/"\"2x4\"",
           "Logical mesh shape NxM to enumerate the strategies on">,
  ];
}

def AlpaTestPanic : Pass<"alpa-test-panic", "::mlir::ModuleOp"> {
  let summary = "Testing only: panics inside Rust to show it becomes a diagnostic";
  let options = [
    AlpaOption<"message", "message", "std::string", /*default=*/"\"test panic\"",
           "Panic message">,
  ];
}

#endif // ALPA_TEST_PASSES

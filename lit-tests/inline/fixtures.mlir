// alpa-inline on real JAX exports: no call remains, no private function remains, and the entry
// keeps its exact signature (argument types and donation attributes, result types).
// RUN: for m in mlp gpt_tiny gpt_tiny_remat moe_tiny wresnet_tiny; do \
// RUN:   alpa-opt %inputs/$m.mlir -o %t.$m.roundtrip && \
// RUN:   grep -m1 'func.func public @main' %t.$m.roundtrip > %t.$m.before && \
// RUN:   alpa-opt --alpa-inline %inputs/$m.mlir -o %t.$m.after && \
// RUN:   grep -m1 'func.func public @main' %t.$m.after | diff %t.$m.before - && \
// RUN:   grep -c 'func.func' %t.$m.after | FileCheck %s --check-prefix=ONE-FUNC && \
// RUN:   not grep -q 'call @' %t.$m.after && \
// RUN:   grep -c 'func.func private' %t.$m.roundtrip | FileCheck %s --check-prefix=HAD-PRIVATE || exit 1 ; \
// RUN: done
// The original exports do call private helpers.
// RUN: grep -c '"func.call"' %inputs/gpt_tiny.mlir | FileCheck %s --check-prefix=HAD-CALLS

// ONE-FUNC: {{^1$}}
// HAD-PRIVATE: {{^[1-9][0-9]*$}}
// HAD-CALLS: {{^[1-9][0-9]*$}}

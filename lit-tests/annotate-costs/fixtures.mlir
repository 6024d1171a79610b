// The reader end to end on real JAX train steps: every op is in the op table and costed.
// RUN: alpa-opt --alpa-inline --alpa-annotate-costs %inputs/mlp.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=MLP
// RUN: alpa-opt --alpa-inline --alpa-annotate-costs %inputs/gpt_tiny.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=GPT
// RUN: alpa-opt --alpa-inline --alpa-annotate-costs %inputs/moe_tiny.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=MOE
// RUN: alpa-opt --alpa-inline --alpa-annotate-costs %inputs/wresnet_tiny.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=WRN
// RUN: alpa-opt --alpa-inline --alpa-annotate-costs %inputs/gpt_tiny.mlir 2>/dev/null | FileCheck %s --check-prefix=ATTRS

// Alpa's test MLP (6 Dense layers, hidden 256, batch 32): 6 forward matmuls + 11 backward
// (the input gradient of the first layer is not needed), each 2*32*256*256 = 4194304 FLOPs.
// MLP: remark: alpa-annotate-costs: @main: {{[0-9]+}} ops ({{.*}}stablehlo.dot_general 17
// MLP-SAME: arguments: 39
// MLP-NOT: not in the op table
// GPT: remark: alpa-annotate-costs: @main:
// GPT-SAME: stablehlo.dot_general
// GPT-SAME: stablehlo.gather
// GPT-SAME: stablehlo.scatter
// GPT-NOT: not in the op table
// MOE: remark: alpa-annotate-costs: @main:
// MOE-NOT: not in the op table
// WRN: remark: alpa-annotate-costs: @main:
// WRN-SAME: stablehlo.convolution 26
// WRN-SAME: stablehlo.select_and_scatter 1
// WRN-NOT: not in the op table
// ATTRS: "stablehlo.dot_general"{{.*}}alpa.flops = {{[1-9][0-9]*}} : i64
// ATTRS-NOT: func.call

// RUN: alpa-opt --alpa-inline --alpa-annotate-costs %inputs/gpt_tiny_remat.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=REMAT
// REMAT: remark: alpa-annotate-costs: @main:
// REMAT-SAME: stablehlo.optimization_barrier
// REMAT-NOT: not in the op table

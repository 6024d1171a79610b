// alpa-auto-shard is alpa-inline followed by alpa-inter-op-stage with the same options; its
// diagnostics carry its own name.
// RUN: alpa-opt --alpa-auto-shard="cluster=%inputs/cluster-2xa100.json microbatches=2 layers=2" %inputs/mlp.mlir -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// RUN: not alpa-opt --alpa-auto-shard="schedule=zigzag" %inputs/mlp.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// Stages without shardings give their transfers no layouts to plan from: refused before planning.
// RUN: not alpa-opt --alpa-auto-shard="shardings=false" %inputs/mlp.mlir 2>&1 | FileCheck %s --check-prefix=UNSHARDED
// UNSHARDED: error: alpa-auto-shard: shardings=false leaves the stages without the layouts their transfers are planned from; add lower-transfers=false
// RUN: alpa-opt --alpa-auto-shard="cluster=%inputs/cluster-2xa100.json microbatches=2 layers=2 shardings=false lower-transfers=false" %inputs/mlp.mlir -o /dev/null
// Without the inlining, the same step is refused at JAX's call to @relu.
// RUN: not alpa-opt --alpa-inter-op-stage %inputs/mlp.mlir 2>&1 | FileCheck %s --check-prefix=CALL
// CALL: error: call to '@relu' in the entry function: run alpa-inline first
// REMARK: remark: alpa-auto-shard: {{[12]}} stages over 2 layers on two-a100-hosts (2 microbatches)
// The helpers JAX exported are inlined (none is left), then the step is sliced.
// CHECK-NOT: func.func private @relu
// CHECK: func.func private @stage0_forward(
// CHECK: func.func public @main(
// CHECK: call @stage0_forward
// CHECK: call @stage0_apply
// BAD: error: alpa-auto-shard: schedule must be 1f1b or gpipe, got 'zigzag'

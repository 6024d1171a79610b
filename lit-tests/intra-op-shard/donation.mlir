// A step exported without donate_argnums plans like the same step with it: the 37 results that
// update an argument (parameters, Adam's moments, the count) are recognised from data flow and
// treated as donated, so each parameter keeps one layout in and out and the MLP gets Megatron's
// plan with the objective of mlp-megatron.mlir. donation=module plans without them (a cheaper
// objective that hides a resharding of every parameter each step).
// RUN: sed -E 's/(, )?tf\.aliasing_output = [0-9]+ : i32//g' %inputs/mlp.mlir > %t.undonated.mlir
// RUN: not grep -q aliasing_output %t.undonated.mlir
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=4x1 alpha=1 beta=1 report=%t.json" %t.undonated.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=4x1 alpha=1 beta=1 report=%t.module.json donation=module" %t.undonated.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=MODULE < %t.module.json
// The user's own pairs are checked against the step.
// RUN: not alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=4x1 donation=0:1" %t.undonated.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=4x1 donation=params" %t.undonated.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=SYNTAX

// REMARK: remark: alpa-intra-op-shard: the step donates no argument; 37 results update an argument of the same type and are treated as donated (donation=0:0,1:1,2:2,{{.*}},36:36); pass donation=module to plan without them
// REPORT: "objective": 245765.05,
// QUIET-NOT: treated as donated
// MODULE-NOT: "objective": 245765.05,
// MODULE: "objective":
// The export gives the function no position and the argument only its name: the error names it.
// TYPE: error: loc("params['params']['dense_0']['bias']"): alpa-intra-op-shard: donation pair 0:1: argument type tensor<256xf32> differs from result type tensor<256x256xf32>
// SYNTAX: error: alpa-intra-op-shard: donation must be auto, module or ARG:RESULT pairs separated by commas: 'params' is not ARG:RESULT

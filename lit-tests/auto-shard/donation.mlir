// alpa-auto-shard on the MLP train step exported without donation: the state is recognised in
// the first second (a remark names the pairs) and the step is sliced and pipelined as with
// donation. Told to trust only the module (donation=module), it stops at once with an error that
// names donation and the option, instead of planning and failing late.
// RUN: sed -E 's/(, )?tf\.aliasing_output = [0-9]+ : i32//g' %inputs/mlp.mlir > %t.undonated.mlir
// RUN: alpa-opt %t.undonated.mlir --alpa-auto-shard="cluster=%inputs/cluster-2xa100.json microbatches=2 layers=3 time-limit=10 baselines=false" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: not alpa-opt %t.undonated.mlir --alpa-auto-shard="cluster=%inputs/cluster-2xa100.json microbatches=2 layers=3 donation=module" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERROR

// REMARK: remark: alpa-auto-shard: the step donates no argument; 37 results update an argument of the same type and are treated as donated
// REMARK: remark: alpa-auto-shard: 3 stages over 3 layers
// IR: func.func private @stage0_apply(
// IR: func.func public @main(
// ERROR: error: alpa-auto-shard: the step returns a loss but no state that feeds back was found: it donates no argument (jax.jit donate_argnums) and no result updates an argument of the same type; name the state with donation=ARG:RESULT,...

// A loss weighted by the example's position in the batch (jnp.arange(batch)): the iota restarts
// in every microbatch, so the pipelined step differs from the global batch's, and the pass warns
// where it meets the examples. The same iota spread across the features (as many as the examples) numbers no
// example and is not reported, nor is anything with one microbatch.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: sed -e '/loc("spread")/s/array<i64: 0>/array<i64: 1>/' %s > %t.features.mlir
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %t.features.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=1 layers=user time-limit=5 shardings=false" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET
// WARN: warning: loc("weighted"): alpa-inter-op-stage: the examples meet their positions in the microbatch here {{.*}} positions restart in every microbatch
// QUIET-NOT: meet their positions
// QUIET: remark: alpa-inter-op-stage:
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %pos = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xf32> loc("positions")
  %weights = "stablehlo.broadcast_in_dim"(%pos) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x4xf32> loc("spread")
  %weighted = "stablehlo.multiply"(%h, %weights) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("weighted")
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.reduce"(%weighted, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32> loc("alpa_layer_0")
  %dw = "stablehlo.dot_general"(%x, %weights) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}

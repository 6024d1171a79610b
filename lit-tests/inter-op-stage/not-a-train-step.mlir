// A step that carries state but returns no loss is not read as a train step: it is annotated
// with its stages, not sliced, and a warning says why (before, nothing did, and the runtime
// found no stage function to call).
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s < %t.mlir
// WARN: warning: alpa-inter-op-stage: the step carries state but is not read as a train step (no loss found: a train step returns the loss as a floating-point scalar not aliased to an argument): the module is annotated with its stages, not sliced into stage functions
// CHECK-NOT: @stage0_forward
// CHECK: alpa.pipeline
func.func @main(%w0: tensor<8x8xf32> {tf.aliasing_output = 0 : i32}, %w1: tensor<8x8xf32> {tf.aliasing_output = 1 : i32}, %x: tensor<4x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %h0 = "stablehlo.dot_general"(%x, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %h1 = "stablehlo.dot_general"(%h0, %w1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_1")
  %g0 = "stablehlo.dot_general"(%x, %h1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32> loc("alpa_layer_1")
  %g1 = "stablehlo.dot_general"(%h0, %h1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32> loc("alpa_layer_1")
  %w0n = "stablehlo.subtract"(%w0, %g0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32> loc("alpa_layer_1")
  %w1n = "stablehlo.subtract"(%w1, %g1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32> loc("alpa_layer_1")
  return %w0n, %w1n : tensor<8x8xf32>, tensor<8x8xf32>
}

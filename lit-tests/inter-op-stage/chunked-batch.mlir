// Gradient accumulation written inside the step: the batch cut into two chunks by a reshape
// (`x.reshape(2, -1, ...)[i]`, as big_vision's accumulate_gradient does), each chunk's sum taken
// and the two added up. That is the batch's sum: the microbatches' gradients add up, unwarned.
// Each chunk's sum alone is over part of the batch; it was taken for neither a sum nor a mean,
// and the gradients averaged.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=WARN --allow-empty --implicit-check-not=warning < %t.err
// A chunk's sum returned beside the loss has no global-batch value the microbatches give: it is
// refused at its op.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %S/Inputs/chunked-batch-refused.mlir -split-input-file -verify-diagnostics
// CHECK: func.func @main
// CHECK: %[[G:.*]] = "stablehlo.add"({{.*}}) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NOT: divide
// CHECK: call @stage0_apply(%arg0, %[[G]])
// WARN-NOT: warning
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %chunks = "stablehlo.reshape"(%squared) : (tensor<4x4xf32>) -> tensor<2x2x4xf32>
  %first = "stablehlo.slice"(%chunks) <{start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 2, 4>, strides = array<i64: 1, 1, 1>}> : (tensor<2x2x4xf32>) -> tensor<1x2x4xf32>
  %second = "stablehlo.slice"(%chunks) <{start_indices = array<i64: 1, 0, 0>, limit_indices = array<i64: 2, 2, 4>, strides = array<i64: 1, 1, 1>}> : (tensor<2x2x4xf32>) -> tensor<1x2x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %s0 = "stablehlo.reduce"(%first, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<1x2x4xf32>, tensor<f32>) -> tensor<f32>
  %s1 = "stablehlo.reduce"(%second, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<1x2x4xf32>, tensor<f32>) -> tensor<f32>
  %loss = "stablehlo.add"(%s0, %s1) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("loss")
  %dw = "stablehlo.dot_general"(%x, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}

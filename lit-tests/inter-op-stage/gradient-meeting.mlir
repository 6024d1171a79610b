// Examples meeting weights moved along the step's gradient (sharpness-aware minimization's
// perturbation: w + g / |g|^2, g a weight gradient, a contraction over the batch) are warned
// about at the first such op, with the number of those that follow: each microbatch moves the
// weights along its own examples' gradient. The loss computed from them gets no warning of
// its own.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s --implicit-check-not=warning < %t.err
// A weight so updated and returned as its new value is refused at its update instead.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %S/Inputs/gradient-meeting-refused.mlir -split-input-file -verify-diagnostics
// CHECK: warning: loc("perturbed"): alpa-inter-op-stage: the examples meet a value computed from contractions over the batch here (the step's gradients, as weights moved along the gradient by sharpness-aware minimization's perturbation or a lookahead step, or a cross-correlation of the batch's features, as Barlow Twins' loss compares with the identity) (1 more such ops follow): each microbatch computes it from its own examples' contractions, where the global step uses the whole batch's, so the step differs from the global batch's whatever loss it returns; plan with microbatches=1
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %g = "stablehlo.dot_general"(%x, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %squares = "stablehlo.multiply"(%g, %g) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %norm = "stablehlo.reduce"(%squares, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %spread = "stablehlo.broadcast_in_dim"(%norm) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
  %scaled = "stablehlo.divide"(%g, %spread) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %moved = "stablehlo.add"(%w, %scaled) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %perturbed = "stablehlo.dot_general"(%x, %moved) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("perturbed")
  %again = "stablehlo.dot_general"(%x, %moved) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("again")
  %both = "stablehlo.add"(%perturbed, %again) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %loss = "stablehlo.reduce"(%both, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32> loc("loss")
  %w2 = "stablehlo.subtract"(%w, %g) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}

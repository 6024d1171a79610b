// gradient-accumulation=auto (the default): the microbatches' gradients combine as the loss does.
// A loss summed over the batch adds its gradients up; gradient-accumulation=mean forces their mean
// (each update half the global batch's here) and is warned at the loss; a mean loss averages.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o - 2>/dev/null | FileCheck %s --check-prefix=SUM
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false gradient-accumulation=mean" %s -o %t.forced.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=MEAN < %t.forced.mlir
// A mean as JAX writes it, the sum divided by its count (times a constant 1/count would be
// warned about: that factor may be a coefficient of the sum).
// RUN: sed -e '/^  }) .*loc("loss")/a\  %loss_mean = "stablehlo.divide"(%loss, %count) : (tensor<f32>, tensor<f32>) -> tensor<f32>' -e '/^  %zero = /a\  %count = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>' -e 's/^  return %w2, %loss :/  return %w2, %loss_mean :/' %s > %t.mean.mlir
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %t.mean.mlir -o - 2>&1 | FileCheck %s --check-prefix=MEAN --implicit-check-not=warning
// SUM: func.func @main
// SUM: %[[G:.*]] = "stablehlo.add"({{.*}}) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// SUM-NOT: divide
// SUM: call @stage0_apply(%arg0, %[[G]])
// WARN: warning: loc("loss"): alpa-inter-op-stage: the loss is a sum over the batch, but gradient-accumulation=mean averages the microbatches' gradients
// MEAN: func.func @main
// MEAN: %[[G:.*]] = "stablehlo.add"({{.*}}) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// MEAN: %[[M:.*]] = "stablehlo.divide"(%[[G]], {{.*}})
// MEAN: call @stage0_apply(%arg0, %[[M]])
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %weighted = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.reduce"(%weighted, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32> loc("loss")
  %seed = "stablehlo.constant"() <{value = dense<1.250000e-01> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %dh = "stablehlo.multiply"(%h, %seed) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %dh) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}

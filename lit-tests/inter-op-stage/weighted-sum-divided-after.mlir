// The gradient of a masked sum, divided by the mask's sum in the update (Hugging Face's Flax
// scripts: grad(sum) / count), the loss sum / count: the gradient carries no 1/count, so the
// microbatches' gradients and counts add up, and only the loss is weighted by the counts;
// unwarned. With the count guarded, max(sum(mask), 1), the microbatches' guarded counts add
// up to no global one: the update's divisor is warned about at its op.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=WARN --allow-empty --implicit-check-not=warning < %t.err
// RUN: sed -e 's/%count_or_guarded = "stablehlo.multiply"(%count, %one)/%count_or_guarded = "stablehlo.maximum"(%count, %one)/' %s > %t.guarded.mlir
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %t.guarded.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=GUARDED
// CHECK-LABEL: func.func @main
// CHECK: %[[F0:[0-9]+]]:{{[0-9]+}} = call @stage0_forward
// CHECK: %[[B0:[0-9]+]]:{{[0-9]+}} = call @stage0_backward
// CHECK: %[[F1:[0-9]+]]:{{[0-9]+}} = call @stage0_forward
// CHECK: %[[B1:[0-9]+]]:{{[0-9]+}} = call @stage0_backward
// The loss: each microbatch's times its count, summed, divided by the summed counts.
// CHECK: "stablehlo.multiply"(%[[F0]]#
// CHECK: "stablehlo.multiply"(%[[F1]]#
// CHECK: %[[L:[0-9]+]] = "stablehlo.divide"
// The gradient and the count the update divides by: added up as they are.
// CHECK-NOT: "stablehlo.multiply"
// CHECK: %[[G:[0-9]+]] = "stablehlo.add"(%[[B0]]#[[GI:[0-9]]], %[[B1]]#[[GI]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NOT: "stablehlo.multiply"
// CHECK-NOT: "stablehlo.divide"
// CHECK: call @stage0_apply
// WARN-NOT: warning
// GUARDED: warning: loc("count_spread"): alpa-inter-op-stage: under the loss's ratio of sums (a masked or weighted mean), this value the update reads carries neither the loss's 1/denominator
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>, %mask: tensor<4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %spread = "stablehlo.broadcast_in_dim"(%mask) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x4xf32>
  %masked = "stablehlo.multiply"(%squared, %spread) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %one = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %total = "stablehlo.reduce"(%masked, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %count = "stablehlo.reduce"(%mask, %zero) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %count_or_guarded = "stablehlo.multiply"(%count, %one) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %loss = "stablehlo.divide"(%total, %count_or_guarded) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("masked_mean")
  %g = "stablehlo.multiply"(%h, %spread) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %g) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %divisor = "stablehlo.broadcast_in_dim"(%count_or_guarded) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32> loc("count_spread")
  %step = "stablehlo.divide"(%dw, %divisor) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %step) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}

// A loss that is a ratio of sums, sum(l * mask) / max(sum(mask), 1), with the mask a batch
// input, and its gradient (the cotangents divided by the denominator): each microbatch's loss
// and gradient are weighted by its denominator, added up, and
// divided by the denominator @main computes again from the summed masks (the guard replayed),
// which is the global batch's; unwarned. Set to gradient-accumulation=mean, they are averaged
// and the loss is warned about, as before.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=WARN --allow-empty --implicit-check-not=warning < %t.err
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false gradient-accumulation=mean" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MEAN
// CHECK-LABEL: func.func @main
// CHECK: %[[F0:[0-9]+]]:5 = call @stage0_forward
// CHECK: %[[B0:[0-9]+]] = call @stage0_backward
// CHECK: %[[F1:[0-9]+]]:5 = call @stage0_forward
// CHECK: %[[B1:[0-9]+]] = call @stage0_backward
// The summed masks, and the guard again: max(sum, 1).
// CHECK: %[[W:[0-9]+]] = "stablehlo.add"(%[[F0]]#[[WI:[0-9]]], %[[F1]]#[[WI]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: %[[ONE:[0-9]+]] = "stablehlo.constant"() {{.*}}1.000000e+00{{.*}} : () -> tensor<f32>
// CHECK: %[[D:[0-9]+]] = "stablehlo.maximum"(%[[W]], %[[ONE]])
// The loss, then the gradient: each microbatch's times its denominator, summed, divided by
// the global one.
// CHECK: %[[L0:[0-9]+]] = "stablehlo.multiply"(%[[F0]]#[[LI:[0-9]]], %[[F0]]#[[DI:[0-9]]])
// CHECK: %[[L1:[0-9]+]] = "stablehlo.multiply"(%[[F1]]#[[LI]], %[[F1]]#[[DI]])
// CHECK: %[[LS:[0-9]+]] = "stablehlo.add"(%[[L0]], %[[L1]])
// CHECK: %[[L:[0-9]+]] = "stablehlo.divide"(%[[LS]], %[[D]])
// CHECK: %[[D0:[0-9]+]] = "stablehlo.broadcast_in_dim"(%[[F0]]#[[DI]]) {{.*}}broadcast_dimensions = array<i64>{{.*}} -> tensor<4x4xf32>
// CHECK: %[[P0:[0-9]+]] = "stablehlo.multiply"(%[[B0]], %[[D0]])
// CHECK: %[[D1:[0-9]+]] = "stablehlo.broadcast_in_dim"(%[[F1]]#[[DI]])
// CHECK: %[[P1:[0-9]+]] = "stablehlo.multiply"(%[[B1]], %[[D1]])
// CHECK: %[[S:[0-9]+]] = "stablehlo.add"(%[[P0]], %[[P1]])
// CHECK: %[[DG:[0-9]+]] = "stablehlo.broadcast_in_dim"(%[[D]])
// CHECK: %[[G:[0-9]+]] = "stablehlo.divide"(%[[S]], %[[DG]]) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[NEW:[0-9]+]] = call @stage0_apply(%arg0, %[[G]])
// CHECK: return %[[NEW]], %[[L]]
// WARN-NOT: warning
// MEAN: warning: loc("masked_mean"): alpa-inter-op-stage: the loss is neither a sum nor a mean over the batch
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>, %mask: tensor<4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %spread = "stablehlo.broadcast_in_dim"(%mask) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x4xf32>
  %masked = "stablehlo.multiply"(%squared, %spread) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
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
  %one = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %guarded = "stablehlo.maximum"(%count, %one) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %loss = "stablehlo.divide"(%total, %guarded) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("masked_mean")
  %seed = "stablehlo.broadcast_in_dim"(%guarded) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
  %masked_h = "stablehlo.multiply"(%h, %spread) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %g = "stablehlo.divide"(%masked_h, %seed) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %g) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}

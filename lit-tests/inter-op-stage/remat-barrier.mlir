// Rematerialisation (jax.checkpoint, nn.remat): the backward pass recomputes from an
// optimization_barrier of the weight, the saved activation %h and the cotangent %dy. Each result
// of the barrier has its operand's class: %h and %dy are values per example, here of the weight's
// type [4, 4] (an activation [microbatch, seq, hidden] can have a kernel's). The scale's gradient,
// the sum over the examples of %dy * %h, is computed per microbatch in a backward function, and
// only the sum is accumulated; the apply function updates the weight (as the barrier carries it)
// and the scale from the accumulated gradients. Multiplied in the apply function, the scale's
// gradient would be the product of the microbatches' sums instead of the sum of their products.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func private @stage0_backward(
// CHECK: %[[C:.*]]:3 = "stablehlo.optimization_barrier"
// CHECK: %[[PRODUCT:.*]] = "stablehlo.multiply"(%[[C]]#2, %[[C]]#1)
// CHECK: "stablehlo.reduce"(%[[PRODUCT]],
// CHECK: return %[[C]]#0,
// CHECK-LABEL: func.func private @stage0_apply(
// CHECK-NOT: "stablehlo.multiply"
// CHECK-NOT: "stablehlo.reduce"
// CHECK: "stablehlo.subtract"{{.*}} -> tensor<4x4xf32>
// CHECK-NEXT: "stablehlo.subtract"{{.*}} -> tensor<4xf32>
// The barrier's weight is every microbatch's: the apply function takes the last one's, not
// their sum (the loss is a sum, so the gradients add up).
// CHECK-LABEL: func.func @main(
// CHECK: call @stage0_backward(
// CHECK: %[[LAST:.*]]:3 = call @stage0_backward(
// CHECK-NOT: "stablehlo.add"({{.*}}#0, %[[LAST]]#0)
// CHECK: call @stage0_apply(%[[LAST]]#0,
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %s: tensor<4xf32> {tf.aliasing_output = 1 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %sb = "stablehlo.broadcast_in_dim"(%s) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %y = "stablehlo.multiply"(%h, %sb) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %sq = "stablehlo.multiply"(%y, %y) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_1")
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32> loc("alpa_layer_1")
  %loss = "stablehlo.reduce"(%sq, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32> loc("alpa_layer_1")
  %dy = "stablehlo.add"(%y, %y) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %c:3 = "stablehlo.optimization_barrier"(%w, %h, %dy) : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
  %pe = "stablehlo.multiply"(%c#2, %c#1) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %ds = "stablehlo.reduce"(%pe, %zero) <{dimensions = array<i64: 0>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  %dh = "stablehlo.multiply"(%c#2, %sb) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %dh) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %wn = "stablehlo.subtract"(%c#0, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %sn = "stablehlo.subtract"(%s, %ds) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %wn, %sn, %loss : tensor<4x4xf32>, tensor<4xf32>, tensor<f32>
}

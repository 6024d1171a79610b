// DP-SGD's clipping by the norm across layers: each example's gradients are divided by a
// per-example factor that reads every layer's per-example gradient, the first layer's included,
// which the backward computes last. The scaled gradients of layer 1 are therefore computed in
// stage 0's backward function (the stages' backward functions run last stage first), and stage 1's
// apply function reads their accumulated value from there.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func private @stage0_backward(
// CHECK: "stablehlo.dot_general"{{.*}} -> tensor<4x8x8xf32>
// CHECK: "stablehlo.divide"{{.*}} -> tensor<4x8x8xf32>
// CHECK: "stablehlo.divide"{{.*}} -> tensor<4x8x8xf32>
// CHECK-LABEL: func.func private @stage1_backward(
// CHECK: "stablehlo.dot_general"{{.*}} -> tensor<4x8x8xf32>
// CHECK-NOT: "stablehlo.divide"
// CHECK-LABEL: func.func private @stage1_apply(
// CHECK-NOT: "stablehlo.divide"
// CHECK: "stablehlo.subtract"{{.*}} -> tensor<8x8xf32>
// CHECK-LABEL: func.func @main(
func.func @main(%w0: tensor<8x8xf32> {tf.aliasing_output = 0 : i32}, %w1: tensor<8x8xf32> {tf.aliasing_output = 1 : i32}, %x: tensor<4x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<f32>) {
  %h0 = "stablehlo.dot_general"(%x, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %a0 = "stablehlo.tanh"(%h0) : (tensor<4x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %h1 = "stablehlo.dot_general"(%a0, %w1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_1")
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32> loc("alpa_layer_1")
  %loss = "stablehlo.reduce"(%h1, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32> loc("alpa_layer_1")
  %one = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %g_h1 = "stablehlo.broadcast_in_dim"(%one) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
  %pe1 = "stablehlo.dot_general"(%a0, %g_h1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8x8xf32>
  %g_a0 = "stablehlo.dot_general"(%g_h1, %w1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>}> : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %sq = "stablehlo.multiply"(%a0, %a0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ones = "stablehlo.broadcast_in_dim"(%one) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
  %dt = "stablehlo.subtract"(%ones, %sq) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g_h0 = "stablehlo.multiply"(%g_a0, %dt) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %pe0 = "stablehlo.dot_general"(%x, %g_h0) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8x8xf32>
  %zero2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %pe1sq = "stablehlo.multiply"(%pe1, %pe1) : (tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %n1 = "stablehlo.reduce"(%pe1sq, %zero2) <{dimensions = array<i64: 1, 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4xf32>
  %pe0sq = "stablehlo.multiply"(%pe0, %pe0) : (tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %n0 = "stablehlo.reduce"(%pe0sq, %zero2) <{dimensions = array<i64: 1, 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4xf32>
  %n = "stablehlo.add"(%n0, %n1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %ones4 = "stablehlo.broadcast_in_dim"(%one) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
  %den = "stablehlo.add"(%ones4, %n) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %denb = "stablehlo.broadcast_in_dim"(%den) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x8x8xf32>
  %c0 = "stablehlo.divide"(%pe0, %denb) : (tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %c1 = "stablehlo.divide"(%pe1, %denb) : (tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %g0 = "stablehlo.reduce"(%c0, %zero2) <{dimensions = array<i64: 0>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<8x8xf32>
  %g1 = "stablehlo.reduce"(%c1, %zero2) <{dimensions = array<i64: 0>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<8x8xf32>
  %lr = "stablehlo.constant"() <{value = dense<2.500000e-02> : tensor<f32>}> : () -> tensor<f32>
  %lrs = "stablehlo.broadcast_in_dim"(%lr) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
  %s0 = "stablehlo.multiply"(%lrs, %g0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %w0n = "stablehlo.subtract"(%w0, %s0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s1 = "stablehlo.multiply"(%lrs, %g1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %w1n = "stablehlo.subtract"(%w1, %s1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %w0n, %w1n, %loss : tensor<8x8xf32>, tensor<8x8xf32>, tensor<f32>
}

// An optimizer that multiplies gradient-derived matrices (Muon's Newton-Schulz steps, Shampoo):
// the update of w1 is lr * g (g^T g). Its products feed heavy ops, so the step's phases call them
// backward; they read only the weight gradient, an aggregate over the batch, so they run once per
// step in the apply function, on the accumulated gradient, not per microbatch.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func private @stage1_backward(
// CHECK-NOT: func.func
// CHECK: "stablehlo.dot_general"{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
// CHECK-NOT: "stablehlo.dot_general"{{.*}} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-LABEL: func.func private @stage1_apply(
// CHECK: "stablehlo.dot_general"{{.*}} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK: "stablehlo.dot_general"{{.*}} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-LABEL: func.func @main(
func.func @main(%w0: tensor<8x8xf32> {tf.aliasing_output = 0 : i32}, %w1: tensor<8x8xf32> {tf.aliasing_output = 1 : i32}, %count: tensor<i32> {tf.aliasing_output = 2 : i32}, %x: tensor<4x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<f32>) {
  %half = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32> loc("alpa_layer_0")
  %mask = "stablehlo.broadcast_in_dim"(%half) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %h0 = "stablehlo.dot_general"(%x, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %a0 = "stablehlo.multiply"(%h0, %mask) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %t0 = "stablehlo.tanh"(%a0) : (tensor<4x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %h1 = "stablehlo.dot_general"(%t0, %w1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_1")
  %a1 = "stablehlo.multiply"(%h1, %mask) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_1")
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32> loc("alpa_layer_1")
  %loss = "stablehlo.reduce"(%a1, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32> loc("alpa_layer_1")
  %one = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %seed = "stablehlo.broadcast_in_dim"(%one) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
  %g_h1 = "stablehlo.multiply"(%seed, %mask) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g_w1 = "stablehlo.dot_general"(%t0, %g_h1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %g_t0 = "stablehlo.dot_general"(%g_h1, %w1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>}> : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %sq = "stablehlo.multiply"(%t0, %t0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ones = "stablehlo.broadcast_in_dim"(%one) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
  %dt = "stablehlo.subtract"(%ones, %sq) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g_a0 = "stablehlo.multiply"(%g_t0, %dt) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g_h0 = "stablehlo.multiply"(%g_a0, %mask) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g_w0 = "stablehlo.dot_general"(%x, %g_h0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %c1 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %next = "stablehlo.add"(%count, %c1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %steps = "stablehlo.convert"(%next) : (tensor<i32>) -> tensor<f32>
  %base = "stablehlo.constant"() <{value = dense<1.000000e-01> : tensor<f32>}> : () -> tensor<f32>
  %lr = "stablehlo.divide"(%base, %steps) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %lrs = "stablehlo.broadcast_in_dim"(%lr) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
  %s0 = "stablehlo.multiply"(%lrs, %g_w0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %w0n = "stablehlo.subtract"(%w0, %s0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %mtm = "stablehlo.dot_general"(%g_w1, %g_w1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32> loc("gram")
  %prec = "stablehlo.dot_general"(%g_w1, %mtm) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32> loc("preconditioned")
  %s1 = "stablehlo.multiply"(%lrs, %prec) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %w1n = "stablehlo.subtract"(%w1, %s1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %w0n, %w1n, %next, %loss : tensor<8x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<f32>
}

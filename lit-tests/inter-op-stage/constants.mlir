// Values computed from constants only (a mask both layers multiply by, the gradient seed, the
// learning rate) never cross stages: each stage function that reads one recomputes it (an
// unrolled scan's loop-invariant values are of this kind). A backward op reading the shared
// mask goes with the layer whose gradient it carries, not with the first layer that reads the
// mask. The slow link between the two one-device hosts makes two stages the plan.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// REMARK: remark: alpa-inter-op-stage: 2 stages over 2 layers on two-hosts-slow-link (2 microbatches)
// Each function takes only what another stage computes (the activation t0, the gradient of
// t0) and the arguments; the mask is computed in each.
// CHECK-LABEL: func.func private @stage0_forward(%arg0: tensor<4x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK: "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}>
// CHECK-LABEL: func.func private @stage1_forward(%arg0: tensor<4x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<f32>
// CHECK: "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}>
// CHECK: "stablehlo.dot_general"{{.*}}alpa.layer = 1 : i64, alpa.phase = "forward", alpa.stage = 1 : i64
// CHECK-LABEL: func.func private @stage0_backward(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<8x8xf32>
// CHECK: "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}>
// CHECK-LABEL: func.func private @stage1_backward(%arg0: tensor<4x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<4x8xf32>)
// CHECK: "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}>
// CHECK: "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}>
// CHECK-COUNT-2: "stablehlo.dot_general"{{.*}}alpa.layer = 1 : i64, alpa.phase = "backward", alpa.stage = 1 : i64
// CHECK-LABEL: func.func private @stage0_apply(
// CHECK: "stablehlo.constant"() <{value = dense<1.000000e-01> : tensor<f32>}>
// CHECK-LABEL: func.func private @stage1_apply(
// CHECK: "stablehlo.constant"() <{value = dense<1.000000e-01> : tensor<f32>}>
// Per microbatch, one transfer forward (t0) and one backward (its gradient); nothing else.
// CHECK-LABEL: func.func @main(
// CHECK: call @stage0_forward
// CHECK: "alpa.transfer"({{.*}}src_stage = 0 : i64
// CHECK: call @stage1_forward
// CHECK: call @stage1_backward
// CHECK: "alpa.transfer"({{.*}}src_stage = 1 : i64
// CHECK: call @stage0_backward
// CHECK: "alpa.transfer"({{.*}}src_stage = 0 : i64
// CHECK: "alpa.transfer"({{.*}}src_stage = 1 : i64
// CHECK-NOT: "alpa.transfer"
// CHECK: call @stage0_apply
// CHECK-NOT: "alpa.transfer"
// CHECK: return
func.func @main(%w0: tensor<8x8xf32> {tf.aliasing_output = 0 : i32}, %w1: tensor<8x8xf32> {tf.aliasing_output = 1 : i32}, %x: tensor<4x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<f32>) {
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
  %lr = "stablehlo.constant"() <{value = dense<1.000000e-01> : tensor<f32>}> : () -> tensor<f32>
  %lrs = "stablehlo.broadcast_in_dim"(%lr) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
  %s0 = "stablehlo.multiply"(%lrs, %g_w0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %w0n = "stablehlo.subtract"(%w0, %s0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s1 = "stablehlo.multiply"(%lrs, %g_w1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %w1n = "stablehlo.subtract"(%w1, %s1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %w0n, %w1n, %loss : tensor<8x8xf32>, tensor<8x8xf32>, tensor<f32>
}

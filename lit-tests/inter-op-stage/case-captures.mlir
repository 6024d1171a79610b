// lax.cond / lax.switch export as stablehlo.case, whose branches read their operands from
// outside the op. Each such case with effect-free branches becomes its branches' ops and a
// select per result on the index (if-conversion), so the planner sees the data flow and the
// ops move into stage functions: a cond in the forward (around an activation) and one in the
// update (apply-if-finite) both plan; a case whose branch has an effect is refused at the op.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=GONE < %t.mlir
// RUN: sed -e 's/"stablehlo.tanh"(%a0)/"stablehlo.custom_call"(%a0) <{call_target_name = "host_print", has_side_effect = true}>/' %s > %t.effect.mlir
// RUN: not alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %t.effect.mlir 2>&1 | FileCheck %s --check-prefix=EFFECT
// REMARK: remark: alpa-inter-op-stage: 2 stages over 2 layers on two-hosts-slow-link (2 microbatches)
// EFFECT: error: loc("forward_cond"): alpa-inter-op-stage: this op's regions use values from outside the op; it cannot move into a stage function (a stablehlo.case, from lax.cond or lax.switch, is rewritten into selects only when its branches have no effects)
// GONE-NOT: stablehlo.case
// CHECK-LABEL: func.func private @stage0_forward(
// CHECK-DAG: %[[TANH:.*]] = "stablehlo.tanh"(%[[A0:[^)]*]])
// CHECK-DAG: %[[IS0:.*]] = "stablehlo.compare"({{.*}}comparison_direction = #stablehlo<comparison_direction EQ>{{.*}}: (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK: "stablehlo.select"(%[[IS0]], %[[TANH]], %[[A0]]) {{.*}}: (tensor<i1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-LABEL: func.func private @stage1_apply(
// CHECK: %[[UPD:.*]] = "stablehlo.subtract"(%[[W1:[^,]*]], %{{.*}})
// CHECK: "stablehlo.select"(%{{.*}}, %[[W1]], %[[UPD]]) {{.*}}: (tensor<i1>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-LABEL: func.func @main(
func.func @main(%w0: tensor<8x8xf32> {tf.aliasing_output = 0 : i32}, %w1: tensor<8x8xf32> {tf.aliasing_output = 1 : i32}, %count: tensor<i32> {tf.aliasing_output = 2 : i32}, %x: tensor<4x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<f32>) {
  %half = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32> loc("alpa_layer_0")
  %mask = "stablehlo.broadcast_in_dim"(%half) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %h0 = "stablehlo.dot_general"(%x, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %a0 = "stablehlo.multiply"(%h0, %mask) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %branch = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32> loc("alpa_layer_0")
  %t0 = "stablehlo.case"(%branch) ({
    %th = "stablehlo.tanh"(%a0) : (tensor<4x8xf32>) -> tensor<4x8xf32> loc("tanh_branch")
    "stablehlo.return"(%th) : (tensor<4x8xf32>) -> ()
  }, {
    "stablehlo.return"(%a0) : (tensor<4x8xf32>) -> ()
  }) : (tensor<i32>) -> tensor<4x8xf32> loc("forward_cond")
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
  %s1 = "stablehlo.multiply"(%lrs, %g_w1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %finite = "stablehlo.is_finite"(%lr) : (tensor<f32>) -> tensor<i1>
  %which = "stablehlo.convert"(%finite) : (tensor<i1>) -> tensor<i32>
  %w1n = "stablehlo.case"(%which) ({
    "stablehlo.return"(%w1) : (tensor<8x8xf32>) -> ()
  }, {
    %upd = "stablehlo.subtract"(%w1, %s1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    "stablehlo.return"(%upd) : (tensor<8x8xf32>) -> ()
  }) : (tensor<i32>) -> tensor<8x8xf32> loc("apply_if_finite")
  return %w0n, %w1n, %next, %loss : tensor<8x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<f32>
}

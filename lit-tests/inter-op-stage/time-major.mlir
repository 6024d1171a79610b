// A time-major input [T, B, F] beside batch-major ones: the rule (dim 0 is the batch) shares
// it, and the pass warns at the argument that its dim 1 has the batch size. Named with
// alpa.batch_dim = 1 it is split on dim 1: @main takes it microbatches times larger there and
// slices it per microbatch, with no warning.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=SHARED < %t.mlir
// RUN: sed -e 's/loc("batch_time_major")/{alpa.batch_dim = 1 : i64} loc("batch_time_major")/' %s > %t.named.mlir
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %t.named.mlir -o %t.split.mlir 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: FileCheck %s --check-prefix=SPLIT < %t.split.mlir
// WARN: warning: {{.*}}alpa-inter-op-stage: argument #4 is shared by every microbatch (its dim 0 is not the batch size 4), but its dim 1 has the batch size: if that dim is its batch (a time-major input), say so with alpa.batch_dim = 1
// QUIET-NOT: has the batch size
// QUIET: remark: alpa-inter-op-stage: 2 stages
// SHARED-LABEL: func.func @main(
// SHARED-SAME: %arg3: tensor<8x8xf32>, %arg4: tensor<3x4x8xf32>
// SPLIT-LABEL: func.func @main(
// SPLIT-SAME: %arg3: tensor<8x8xf32>, %arg4: tensor<3x8x8xf32>
// SPLIT: "stablehlo.slice"(%arg4) {limit_indices = array<i64: 3, 4, 8>, start_indices = array<i64: 0, 0, 0>
// SPLIT: "stablehlo.slice"(%arg4) {limit_indices = array<i64: 3, 8, 8>, start_indices = array<i64: 0, 4, 0>
func.func @main(%w0: tensor<8x8xf32> {tf.aliasing_output = 0 : i32}, %w1: tensor<8x8xf32> {tf.aliasing_output = 1 : i32}, %count: tensor<i32> {tf.aliasing_output = 2 : i32}, %x: tensor<4x8xf32>, %xt: tensor<3x4x8xf32> loc("batch_time_major")) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<f32>) {
  %half = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32> loc("alpa_layer_0")
  %mask = "stablehlo.broadcast_in_dim"(%half) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %h0 = "stablehlo.dot_general"(%x, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %tz = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32> loc("alpa_layer_0")
  %tsum = "stablehlo.reduce"(%xt, %tz) <{dimensions = array<i64: 0>}> ({
  ^bb0(%u: tensor<f32>, %v: tensor<f32>):
    %uv = "stablehlo.add"(%u, %v) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%uv) : (tensor<f32>) -> ()
  }) : (tensor<3x4x8xf32>, tensor<f32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %h0t = "stablehlo.add"(%h0, %tsum) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %a0 = "stablehlo.multiply"(%h0t, %mask) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_0")
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
  %unused = "stablehlo.convert"(%next) : (tensor<i32>) -> tensor<f32> loc("dead_convert")
  %unused2 = "stablehlo.negate"(%unused) : (tensor<f32>) -> tensor<f32> loc("dead_negate")
  %base = "stablehlo.constant"() <{value = dense<1.000000e-01> : tensor<f32>}> : () -> tensor<f32>
  %lr = "stablehlo.divide"(%base, %steps) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %lrs = "stablehlo.broadcast_in_dim"(%lr) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
  %s0 = "stablehlo.multiply"(%lrs, %g_w0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %w0n = "stablehlo.subtract"(%w0, %s0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s1 = "stablehlo.multiply"(%lrs, %g_w1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %w1n = "stablehlo.subtract"(%w1, %s1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %w0n, %w1n, %next, %loss : tensor<8x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<f32>
}

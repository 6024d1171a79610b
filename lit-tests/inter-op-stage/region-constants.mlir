// Exports that run CSE over the whole function (torch_xla's) leave reducers reading the
// function's constants from outside their region, and write an MHLO op StableHLO lacks (GELU's
// erf) as `custom_call @mhlo.<op>`. Each reducer gets its own copy of the constants it reads, so
// the reduce (here apply-if-finite's, in the update) moves into a stage function, and the call becomes the CHLO op (which the planners
// know as elementwise and XLA partitions). A reducer reading a computed value is still refused.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=GONE < %t.mlir
// RUN: sed -e 's/"stablehlo.select"(%both, %yes, %no)/"stablehlo.select"(%both, %yes, %computed)/' %s > %t.computed.mlir
// RUN: not alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %t.computed.mlir 2>&1 | FileCheck %s --check-prefix=COMPUTED
// COMPUTED: error: loc("all_finite"): alpa-inter-op-stage: this op's regions use values from outside the op
// GONE-NOT: mhlo.erf
// CHECK-LABEL: func.func private @stage0_forward(
// CHECK: "chlo.erf"(%{{.*}}) {{.*}}: (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-LABEL: func.func private @stage0_apply(
// CHECK: "stablehlo.reduce"
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<i1>, %{{.*}}: tensor<i1>):
// CHECK-DAG: "stablehlo.constant"() <{value = dense<true> : tensor<i1>}>
// CHECK-DAG: "stablehlo.constant"() <{value = dense<false> : tensor<i1>}>
// CHECK: "stablehlo.select"
// CHECK-LABEL: func.func @main(
func.func @main(%w0: tensor<8x8xf32> {tf.aliasing_output = 0 : i32}, %w1: tensor<8x8xf32> {tf.aliasing_output = 1 : i32}, %x: tensor<4x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<f32>) {
  %yes = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %no = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
  %h0 = "stablehlo.dot_general"(%x, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %a0 = "stablehlo.custom_call"(%h0) <{call_target_name = "mhlo.erf"}> {mhlo.attributes = {}, mhlo.version = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_0")
  %h1 = "stablehlo.dot_general"(%a0, %w1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("alpa_layer_1")
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32> loc("alpa_layer_1")
  %loss = "stablehlo.reduce"(%h1, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32> loc("alpa_layer_1")
  %one = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %seed = "stablehlo.broadcast_in_dim"(%one) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
  %g_w1 = "stablehlo.dot_general"(%a0, %seed) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %g_a0 = "stablehlo.dot_general"(%seed, %w1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>}> : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %sq = "stablehlo.multiply"(%h0, %h0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %neg = "stablehlo.negate"(%sq) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = "stablehlo.exponential"(%neg) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %g_h0 = "stablehlo.multiply"(%g_a0, %d) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g_w0 = "stablehlo.dot_general"(%x, %g_h0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %lr = "stablehlo.constant"() <{value = dense<1.000000e-01> : tensor<8x8xf32>}> : () -> tensor<8x8xf32>
  %s0 = "stablehlo.multiply"(%lr, %g_w0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %finite = "stablehlo.is_finite"(%g_w0) : (tensor<8x8xf32>) -> tensor<8x8xi1>
  %computed = "stablehlo.is_finite"(%yes) : (tensor<i1>) -> tensor<i1>
  %all = "stablehlo.reduce"(%finite, %yes) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<i1>, %q: tensor<i1>):
    %both = "stablehlo.and"(%p, %q) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %r = "stablehlo.select"(%both, %yes, %no) : (tensor<i1>, tensor<i1>, tensor<i1>) -> tensor<i1>
    "stablehlo.return"(%r) : (tensor<i1>) -> ()
  }) : (tensor<8x8xi1>, tensor<i1>) -> tensor<i1> loc("all_finite")
  %w0s = "stablehlo.subtract"(%w0, %s0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %w0n = "stablehlo.select"(%all, %w0s, %w0) : (tensor<i1>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s1 = "stablehlo.multiply"(%lr, %g_w1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %w1n = "stablehlo.subtract"(%w1, %s1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %w0n, %w1n, %loss : tensor<8x8xf32>, tensor<8x8xf32>, tensor<f32>
}

// A loop kept whole (unroll-loops=false) whose body keeps the examples apart gives each carried
// value its own class: the activations per example, the stacked weights shared, a stack of
// per-example values written row by row per example in its dimension 1. The loss, a mean of the
// activations, is a mean (no warning), and the stack returned from the step is concatenated
// along dimension 1 over the microbatches. Before, every carried value shared the loop's class:
// the loss was warned about and the stack refused as kept in a layout the analysis lost track of.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false unroll-loops=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=WARN --implicit-check-not=warning < %t.err
// CHECK-LABEL: func.func private @stage0_forward
// CHECK: stablehlo.while
// CHECK-LABEL: func.func @main
// CHECK: %[[STACK:.*]] = "stablehlo.concatenate"(%{{.*}}#1, %{{.*}}#1) {dimension = 1 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
// CHECK: return %{{.*}}, %{{.*}}, %[[STACK]], %{{.*}} :
// WARN: remark: alpa-inter-op-stage: 1 stages
func.func @main(%ws: tensor<2x4x4xf32> {tf.aliasing_output = 0 : i32}, %w0: tensor<4x4xf32> {tf.aliasing_output = 3 : i32}, %x: tensor<4x4xf32>) -> (tensor<2x4x4xf32>, tensor<f32>, tensor<2x4xf32>, tensor<4x4xf32>) {
  %h0 = "stablehlo.dot_general"(%x, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %empty = "stablehlo.broadcast_in_dim"(%zero) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4xf32>
  %r:4 = "stablehlo.while"(%c0, %h0, %ws, %empty) ({
  ^bb0(%i: tensor<i32>, %h: tensor<4x4xf32>, %w: tensor<2x4x4xf32>, %s: tensor<2x4xf32>):
    %two = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %p = "stablehlo.compare"(%i, %two) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %h: tensor<4x4xf32>, %w: tensor<2x4x4xf32>, %s: tensor<2x4xf32>):
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %k0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %layer = "stablehlo.dynamic_slice"(%w, %i, %k0, %k0) <{slice_sizes = array<i64: 1, 4, 4>}> : (tensor<2x4x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x4xf32>
    %wi = "stablehlo.reshape"(%layer) : (tensor<1x4x4xf32>) -> tensor<4x4xf32>
    %d = "stablehlo.dot_general"(%h, %wi) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %t = "stablehlo.tanh"(%d) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %z = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %rowsum = "stablehlo.reduce"(%t, %z) <{dimensions = array<i64: 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%c) : (tensor<f32>) -> ()
    }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    %row = "stablehlo.reshape"(%rowsum) : (tensor<4xf32>) -> tensor<1x4xf32>
    %s2 = "stablehlo.dynamic_update_slice"(%s, %row, %i, %k0) : (tensor<2x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
    "stablehlo.return"(%j, %t, %w, %s2) : (tensor<i32>, tensor<4x4xf32>, tensor<2x4x4xf32>, tensor<2x4xf32>) -> ()
  }) : (tensor<i32>, tensor<4x4xf32>, tensor<2x4x4xf32>, tensor<2x4xf32>) -> (tensor<i32>, tensor<4x4xf32>, tensor<2x4x4xf32>, tensor<2x4xf32>) loc("alpa_layer_0")
  %total = "stablehlo.reduce"(%r#1, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %count = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.divide"(%total, %count) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("loss")
  %dw = "stablehlo.dot_general"(%x, %r#1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dws = "stablehlo.broadcast_in_dim"(%dw) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<4x4xf32>) -> tensor<2x4x4xf32>
  %ws2 = "stablehlo.subtract"(%ws, %dws) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %w02 = "stablehlo.subtract"(%w0, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %ws2, %loss, %r#3, %w02 : tensor<2x4x4xf32>, tensor<f32>, tensor<2x4xf32>, tensor<4x4xf32>
}

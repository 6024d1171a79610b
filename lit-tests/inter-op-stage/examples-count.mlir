// A count of the examples the step computes from the batch's shape (x.shape[0], CLU's
// jnp.ones(batch).sum()) is a constant of the microbatch's export: each microbatch returns it
// and @main adds them up, as it does the summed loss, for the global batch's count.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o - 2>/dev/null | FileCheck %s
// CHECK: func.func @main
// CHECK: %[[F0:.*]]:3 = call @stage0_forward
// CHECK: %[[F1:.*]]:3 = call @stage0_forward
// CHECK: %[[N:.*]] = "stablehlo.add"(%[[F0]]#2, %[[F1]]#2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: return %{{.*}}, %[[N]], %{{.*}} : tensor<4x4xf32>, tensor<f32>, tensor<f32>
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %weighted = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.reduce"(%weighted, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32> loc("loss")
  %dw = "stablehlo.dot_general"(%x, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %examples = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  return %w2, %examples, %loss : tensor<4x4xf32>, tensor<f32>, tensor<f32>
}

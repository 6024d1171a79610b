// A weight updated from the step's gradients, returned as its new value, and read again by the
// examples in the same step (a GAN's discriminator updated before its generator's step) is
// refused at its update: each microbatch would update it from its own examples' gradients.
// expected-remark @+1 {{stages over 1 layers}}
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %v: tensor<4x4xf32> {tf.aliasing_output = 1 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %gw = "stablehlo.dot_general"(%x, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-error @+1 {{result 0 of the step is computed from the step's gradients and the examples are run through it again in the same step}}
  %w2 = "stablehlo.subtract"(%w, %gw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %u = "stablehlo.dot_general"(%x, %v) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %d = "stablehlo.dot_general"(%u, %w2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %squares = "stablehlo.multiply"(%d, %d) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.reduce"(%squares, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32> loc("loss")
  %gv = "stablehlo.dot_general"(%x, %d) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %v2 = "stablehlo.subtract"(%v, %gv) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %v2, %loss : tensor<4x4xf32>, tensor<4x4xf32>, tensor<f32>
}

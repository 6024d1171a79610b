// A chunk's sum returned beside the loss over the whole batch, refused at its op.

// expected-remark @+1 {{stages over 1 layers}}
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %chunks = "stablehlo.reshape"(%squared) : (tensor<4x4xf32>) -> tensor<2x2x4xf32>
  %first = "stablehlo.slice"(%chunks) <{start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 2, 4>, strides = array<i64: 1, 1, 1>}> : (tensor<2x2x4xf32>) -> tensor<1x2x4xf32>
  %second = "stablehlo.slice"(%chunks) <{start_indices = array<i64: 1, 0, 0>, limit_indices = array<i64: 2, 2, 4>, strides = array<i64: 1, 1, 1>}> : (tensor<2x2x4xf32>) -> tensor<1x2x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  // expected-error @+1 {{result 1 of the step is computed from part of the microbatch's examples}}
  %s0 = "stablehlo.reduce"(%first, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<1x2x4xf32>, tensor<f32>) -> tensor<f32>
  %s1 = "stablehlo.reduce"(%second, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<1x2x4xf32>, tensor<f32>) -> tensor<f32>
  %loss = "stablehlo.add"(%s0, %s1) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("loss")
  %dw = "stablehlo.dot_general"(%x, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %s0, %loss : tensor<4x4xf32>, tensor<f32>, tensor<f32>
}

// -----

// The loss is the first chunk's sum alone: warned, the gradients combined as a mean.

// expected-remark @+1 {{stages over 1 layers}}
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %chunks = "stablehlo.reshape"(%squared) : (tensor<4x4xf32>) -> tensor<2x2x4xf32>
  %first = "stablehlo.slice"(%chunks) <{start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 2, 4>, strides = array<i64: 1, 1, 1>}> : (tensor<2x2x4xf32>) -> tensor<1x2x4xf32>
  %second = "stablehlo.slice"(%chunks) <{start_indices = array<i64: 1, 0, 0>, limit_indices = array<i64: 2, 2, 4>, strides = array<i64: 1, 1, 1>}> : (tensor<2x2x4xf32>) -> tensor<1x2x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  // expected-warning @+1 {{the loss is computed from part of the microbatch's examples}}
  %s0 = "stablehlo.reduce"(%first, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<1x2x4xf32>, tensor<f32>) -> tensor<f32>
  %s1 = "stablehlo.reduce"(%second, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<1x2x4xf32>, tensor<f32>) -> tensor<f32>
  %dw = "stablehlo.dot_general"(%x, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %s0 : tensor<4x4xf32>, tensor<f32>
}

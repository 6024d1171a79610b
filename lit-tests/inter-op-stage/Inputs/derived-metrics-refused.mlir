// Metrics the microbatches cannot give, refused at the op that computes them.

// The norm divided by the square root of the microbatch's count of squares (4 = sqrt(16)): a
// constant of the microbatch's export, so computed once on the combined sum it would be wrong.
// expected-remark @+1 {{stages over 1 layers}}
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.reduce"(%squared, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %norm = "stablehlo.sqrt"(%loss) : (tensor<f32>) -> tensor<f32>
  %four = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  // expected-error @+1 {{result 1 of the step is neither a sum nor a mean over the batch}}
  %scaled = "stablehlo.divide"(%norm, %four) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %two = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %g = "stablehlo.multiply"(%h, %two) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %g) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %scaled, %loss : tensor<4x4xf32>, tensor<f32>, tensor<f32>
}

// -----

// The product over the batch: no sum, mean or extreme, nor computed from one.
// expected-remark @+1 {{stages over 1 layers}}
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.reduce"(%squared, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %one = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  // expected-error @+1 {{result 1 of the step is neither a sum nor a mean over the batch}}
  %product = "stablehlo.reduce"(%squared, %one) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.multiply"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %two = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %g = "stablehlo.multiply"(%h, %two) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %g) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %product, %loss : tensor<4x4xf32>, tensor<f32>, tensor<f32>
}

// -----

// Each example's one-hot row, flattened (ones added at `iota * 4 + label`): the bins read the
// examples' positions, so the scatter counts nothing over the batch; its rows are the examples'
// in a layout the analysis does not follow. Before, the ones were taken for counts per class.
// expected-remark @+1 {{stages over 1 layers}}
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>, %y: tensor<4x1xi32>) -> (tensor<4x4xf32>, tensor<16xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.reduce"(%squared, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %positions = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x1xi32>
  %classes = "stablehlo.constant"() <{value = dense<4> : tensor<4x1xi32>}> : () -> tensor<4x1xi32>
  %row_starts = "stablehlo.multiply"(%positions, %classes) : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi32>
  %cells = "stablehlo.add"(%row_starts, %y) : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi32>
  %flat = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<16xf32>}> : () -> tensor<16xf32>
  %ones = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<4xf32>}> : () -> tensor<4xf32>
  // expected-error @+1 {{result 1 of the step}}
  %one_hot = "stablehlo.scatter"(%flat, %cells, %ones) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<16xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<16xf32>
  %two = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %g = "stablehlo.multiply"(%h, %two) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %g) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %one_hot, %loss : tensor<4x4xf32>, tensor<16xf32>, tensor<f32>
}

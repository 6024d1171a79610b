// What is present in an attribute is still checked when defaults are left out.
// RUN: alpa-opt --alpa-annotate-costs="summary=false" -split-input-file -verify-diagnostics %s

func.func @main(%v: tensor<8x4xf32>, %i: tensor<1xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{dimension 0 named twice in collapsed_slice_dims and operand_batching_dims}}
  %0 = "stablehlo.gather"(%v, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0], operand_batching_dims = [0], start_index_map = [0]>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<1xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @main(%v: tensor<8x4xf32>, %i: tensor<1xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{`index_vector_dim` must be an integer}}
  %0 = "stablehlo.gather"(%v, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = [0]>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<1xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @main(%v: tensor<8x4xf32>, %i: tensor<1xi32>, %u: tensor<4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{unknown field `offset_dims`}}
  %1 = "stablehlo.scatter"(%v, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<offset_dims = [0]>, unique_indices = false}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<8x4xf32>, tensor<1xi32>, tensor<4xf32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

func.func @main(%x0: tensor<2x4xf32>, %k0: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // raw form with every field left out: batch and feature both dimension 0
  // expected-error @+1 {{dimension 0 named twice in the input dimensions}}
  %0 = "stablehlo.convolution"(%x0, %k0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw>, feature_group_count = 1 : i64}> : (tensor<2x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @main(%x1: tensor<2x8x4xf32>, %k1: tensor<3x4x5xf32>) -> tensor<2x6x5xf32> {
  // expected-error @+1 {{the kernel layout lacks spatial dimension 0}}
  %0 = "stablehlo.convolution"(%x1, %k1) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[1, i, o]->[b, 0, f]>, feature_group_count = 1 : i64}> : (tensor<2x8x4xf32>, tensor<3x4x5xf32>) -> tensor<2x6x5xf32>
  return %0 : tensor<2x6x5xf32>
}

// -----

func.func @main(%a: tensor<8xf32>, %b: tensor<3xf32>) -> tensor<8x3xf32> {
  // expected-error @+1 {{lhs and rhs contracting dimensions differ in number}}
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0]>}> : (tensor<8xf32>, tensor<3xf32>) -> tensor<8x3xf32>
  return %0 : tensor<8x3xf32>
}

// -----

func.func @main(%a: tensor<8xf32>) -> tensor<8xi1> {
  // expected-error @+1 {{malformed #stablehlo.comparison_direction attribute}}
  %0 = "stablehlo.compare"(%a, %a) <{comparison_direction = #stablehlo.comparison_direction<LT GT>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  return %0 : tensor<8xi1>
}

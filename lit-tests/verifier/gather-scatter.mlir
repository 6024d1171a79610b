// gather and scatter are checked against StableHLO's shape rules, not only their ranks.
// RUN: alpa-opt --alpa-annotate-costs="summary=false" -split-input-file -verify-diagnostics %s

// An embedding lookup: batch dims [3] from the indices, offset dims [16] from slice_sizes.
func.func @main(%v: tensor<100x16xf32>, %i: tensor<3x1xi32>) -> tensor<3x8xf32> {
  // expected-error @+1 {{the result has shape [3, 8], the gather gives [3, 16]}}
  %0 = "stablehlo.gather"(%v, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>}> : (tensor<100x16xf32>, tensor<3x1xi32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

func.func @main(%v: tensor<100x16xf32>, %i: tensor<3x1xi32>) -> tensor<5x16xf32> {
  // expected-error @+1 {{the result has shape [5, 16], the gather gives [3, 16]}}
  %0 = "stablehlo.gather"(%v, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>}> : (tensor<100x16xf32>, tensor<3x1xi32>) -> tensor<5x16xf32>
  return %0 : tensor<5x16xf32>
}

// -----

// The index vector has 2 entries but start_index_map names 1 dim.
func.func @main(%v: tensor<100x16xf32>, %i: tensor<3x2xi32>) -> tensor<3x16xf32> {
  // expected-error @+1 {{start_index_map has 1 entries, the index vector 2}}
  %0 = "stablehlo.gather"(%v, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>}> : (tensor<100x16xf32>, tensor<3x2xi32>) -> tensor<3x16xf32>
  return %0 : tensor<3x16xf32>
}

// -----

// take_along_axis: the operand's batching dim (4) must match the indices' (5).
func.func @main(%v: tensor<4x10xf32>, %i: tensor<5x3x1xi32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{batching dim 0 has size 4, the indices' batching dim 0 5}}
  %0 = "stablehlo.gather"(%v, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}> : (tensor<4x10xf32>, tensor<5x3x1xi32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @main(%v: tensor<100x16xf32>, %i: tensor<3x1xi32>) -> tensor<3x16xf16> {
  // expected-error @+1 {{the result's element type f16 is not the operand's f32}}
  %0 = "stablehlo.gather"(%v, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>}> : (tensor<100x16xf32>, tensor<3x1xi32>) -> tensor<3x16xf16>
  return %0 : tensor<3x16xf16>
}

// -----

// A scatter's result has its input's type.
func.func @main(%v: tensor<100x16xf32>, %i: tensor<3x1xi32>, %u: tensor<3x16xf32>) -> tensor<50x16xf32> {
  // expected-error @+1 {{result #0 is tensor<50x16xf32>, its input is tensor<100x16xf32>}}
  %0 = "stablehlo.scatter"(%v, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<100x16xf32>, tensor<3x1xi32>, tensor<3x16xf32>) -> tensor<50x16xf32>
  return %0 : tensor<50x16xf32>
}

// -----

// The updates' scatter dims are the indices' batch dims (3, not 4).
func.func @main(%v: tensor<100x16xf32>, %i: tensor<3x1xi32>, %u: tensor<4x16xf32>) -> tensor<100x16xf32> {
  // expected-error @+1 {{update #0 has shape [4, 16], the indices' batch dims give [3, 16]}}
  %0 = "stablehlo.scatter"(%v, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<100x16xf32>, tensor<3x1xi32>, tensor<4x16xf32>) -> tensor<100x16xf32>
  return %0 : tensor<100x16xf32>
}

// -----

// update_window_dims must be sorted.
func.func @main(%v: tensor<8x16x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4x16xf32>) -> tensor<8x16x4xf32> {
  // expected-error @+1 {{update_window_dims [2, 1] must be sorted}}
  %0 = "stablehlo.scatter"(%v, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%b) : (tensor<f32>) -> ()
  }) : (tensor<8x16x4xf32>, tensor<3x1xi32>, tensor<3x4x16xf32>) -> tensor<8x16x4xf32>
  return %0 : tensor<8x16x4xf32>
}

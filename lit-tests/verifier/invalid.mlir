// RUN: alpa-opt --alpa-annotate-costs="summary=false" -split-input-file -verify-diagnostics %s

// A convolution whose result is not what its window gives is an error, never costed as given.
func.func @main(%x: tensor<8x32x32x3xf32>, %k: tensor<7x7x3x16xf32>) -> tensor<8x32x32x16xf32> {
  // expected-error @+1 {{spatial dim 0: the window gives 16 outputs, the result has 32}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = array<i64: 2, 2>, padding = dense<3> : tensor<2x2xi64>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<8x32x32x3xf32>, tensor<7x7x3x16xf32>) -> tensor<8x32x32x16xf32>
  return %0 : tensor<8x32x32x16xf32>
}

// -----

func.func @main(%x: tensor<8x32x32x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<8x32x32x16xf32> {
  // expected-error @+1 {{attribute `padding`: 6 values, expected 2 (low, high) pairs}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, padding = dense<1> : tensor<3x2xi64>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x32x32x16xf32>
  return %0 : tensor<8x32x32x16xf32>
}

// -----

func.func @main(%x: tensor<8x32x32x3xf32>, %k: tensor<1x1x3x16xf32>) -> tensor<8x32x32x16xf32> {
  // expected-error @+1 {{attribute `window_strides`: 0 is below 1}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = array<i64: 0, 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<8x32x32x3xf32>, tensor<1x1x3x16xf32>) -> tensor<8x32x32x16xf32>
  return %0 : tensor<8x32x32x16xf32>
}

// -----

func.func @main(%x: tensor<8x32x32x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<8x28x28x16xf32> {
  // expected-error @+1 {{attribute `rhs_dilation`: 0 is below 1}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, rhs_dilation = array<i64: 0, 2>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x28x28x16xf32>
  return %0 : tensor<8x28x28x16xf32>
}

// -----

func.func @main(%x: tensor<8x32x32x4xf32>, %k: tensor<1x1x4x16xf32>) -> tensor<8x32x32x16xf32> {
  // expected-error @+1 {{attribute `feature_group_count`: 0 is not positive}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 0 : i64, batch_group_count = 1 : i64} : (tensor<8x32x32x4xf32>, tensor<1x1x4x16xf32>) -> tensor<8x32x32x16xf32>
  return %0 : tensor<8x32x32x16xf32>
}

// -----

func.func @main(%x: tensor<8x32x32x4xf32>, %k: tensor<1x1x4x15xf32>) -> tensor<8x32x32x15xf32> {
  // expected-error @+1 {{batch 8 not divisible by batch_group_count 3}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 3 : i64} : (tensor<8x32x32x4xf32>, tensor<1x1x4x15xf32>) -> tensor<8x32x32x15xf32>
  return %0 : tensor<8x32x32x15xf32>
}

// -----

func.func @main(%x: tensor<8x4xf32>) -> tensor<7x4xf32> {
  // expected-error @+1 {{attribute `limit_indices`: dim 0: limit 9 exceeds the size 8}}
  %0 = "stablehlo.slice"(%x) {start_indices = array<i64: 2, 0>, limit_indices = array<i64: 9, 4>, strides = array<i64: 1, 1>} : (tensor<8x4xf32>) -> tensor<7x4xf32>
  return %0 : tensor<7x4xf32>
}

// -----

func.func @main(%x: tensor<8x4xf32>) -> tensor<6x4xf32> {
  // expected-error @+1 {{attribute `strides`: 0 is below 1}}
  %0 = "stablehlo.slice"(%x) {start_indices = array<i64: 2, 0>, limit_indices = array<i64: 8, 4>, strides = array<i64: 0, 1>} : (tensor<8x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

func.func @main() -> tensor<4x8xi32> {
  // expected-error @+1 {{attribute `iota_dimension`: 2 is out of range for rank 2}}
  %0 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<4x8xi32>
  return %0 : tensor<4x8xi32>
}

// -----

func.func @main(%x: tensor<8x32xf32>, %init: tensor<f32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{result 0 has shape [8, 32], the window gives [8, 16]}}
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>} : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

func.func @main(%x: tensor<8x4xf32>, %i: tensor<i32>) -> tensor<9x4xf32> {
  // expected-error @+1 {{attribute `slice_sizes`: dim 0: 9 exceeds the size 8}}
  %0 = "stablehlo.dynamic_slice"(%x, %i, %i) {slice_sizes = array<i64: 9, 4>} : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<9x4xf32>
  return %0 : tensor<9x4xf32>
}

// -----

func.func @main(%x: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{missing attribute `comparison_direction`}}
  %0 = "stablehlo.compare"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @main(%x: tensor<100x16xf32>, %i: tensor<3x1xi32>) -> tensor<3x16xf32> {
  // expected-error @+1 {{missing attribute `slice_sizes`}}
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>} : (tensor<100x16xf32>, tensor<3x1xi32>) -> tensor<3x16xf32>
  return %0 : tensor<3x16xf32>
}

// -----

func.func @main(%n: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{expects 2 regions, has 1}}
  %0 = "stablehlo.while"(%n) ({
  ^bb0(%a: tensor<i32>):
    "stablehlo.return"(%a) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @main(%n: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{the branch 1 region must yield (tensor<4xf32>)}}
  %0 = "stablehlo.case"(%n) ({
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }, {
    %y = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<5xf32>
    "stablehlo.return"(%y) : (tensor<5xf32>) -> ()
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Ops nested in a while body are verified too.
func.func @main(%n: tensor<i32>, %x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0:2 = "stablehlo.while"(%n, %x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<8x4xf32>):
    %c = "stablehlo.compare"(%a, %a) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<8x4xf32>):
    // expected-error @+1 {{attribute `limit_indices`: dim 1: limit 5 exceeds the size 4}}
    %s = "stablehlo.slice"(%b) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 8, 5>, strides = array<i64: 1, 1>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    "stablehlo.return"(%a, %s) : (tensor<i32>, tensor<8x4xf32>) -> ()
  }) : (tensor<i32>, tensor<8x4xf32>) -> (tensor<i32>, tensor<8x4xf32>)
  return %0#1 : tensor<8x4xf32>
}

// -----

// ... and so are ops in the regions of ops the table does not know.
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "test.wrapper"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{missing attribute `comparison_direction`}}
    %c = "stablehlo.compare"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    "test.yield"(%a) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

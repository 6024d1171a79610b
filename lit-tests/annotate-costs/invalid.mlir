// RUN: alpa-opt --alpa-annotate-costs="summary=false" -split-input-file -verify-diagnostics %s

// expected-error @+1 {{argument #0 has dynamic shape tensor<?x4xf32>: only static shapes can be planned (export the step at the microbatch's shapes, not with jax.export's symbolic dimensions)}}
func.func @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %arg0 : tensor<?x4xf32>
}

// -----

func.func @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{result #0 has dynamic shape tensor<?x4xf32>: only static shapes can be planned}}
  %0 = "stablehlo.abs"(%arg0) : (tensor<8x4xf32>) -> tensor<?x4xf32>
  %1 = "stablehlo.reshape"(%0) : (tensor<?x4xf32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

func.func @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{call to '@f' in the entry function: run alpa-inline first}}
  %0 = call @f(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
func.func private @f(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  return %arg0 : tensor<8x4xf32>
}

// -----

func.func @main(%a: tensor<8x4xf32>, %b: tensor<4x2xf32>) -> tensor<8x2xf32> {
  // expected-error @+1 {{malformed #stablehlo.dot attribute}}
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [one], rhs_contracting_dimensions = [0]>}> : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

func.func @main(%a: tensor<8x4xf32>, %b: tensor<4x2xf32>) -> tensor<8x2xf32> {
  // expected-error @+1 {{missing attribute `dot_dimension_numbers`}}
  %0 = "stablehlo.dot_general"(%a, %b) : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

func.func @main(%img: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> {
  // expected-error @+1 {{malformed #stablehlo.conv attribute}}
  %0 = "stablehlo.convolution"(%img, %k) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i]->[b, 0, 1, f]>, feature_group_count = 1 : i64}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// -----

func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xi1> {
  // expected-error @+1 {{stablehlo.compare: attribute `comparison_direction`: malformed}}
  %0 = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction SIDEWAYS>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  return %0 : tensor<8xi1>
}

// -----

// An op the table does not know is kept, costed conservatively and reported; the pass succeeds.
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-remark @+1 {{'mydialect.mystery' is not in the op table: costed conservatively}}
  %0 = "mydialect.mystery"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A convolution over 2^40 positions (a shape, never data) is counted in bounded time; its
// FLOPs pass u64, which is an error at the op, not a hang.
func.func @main(%x: tensor<1x2199023255552x1xf32>, %k: tensor<1099511627776x1x1xf32>) -> tensor<1x1099511627777x1xf32> {
  // expected-error @+1 {{stablehlo.convolution: its FLOPs pass 2^64: sizes past u64 cannot be costed}}
  %0 = "stablehlo.convolution"(%x, %k) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 2>, padding = dense<[[1099511627776, 0]]> : tensor<1x2xi64>}> : (tensor<1x2199023255552x1xf32>, tensor<1099511627776x1x1xf32>) -> tensor<1x1099511627777x1xf32>
  return %0 : tensor<1x1099511627777x1xf32>
}

// -----

// expected-error @+1 {{entry function '@main' not found (public functions: none); pass entry=<name>}}
module {
  func.func private @f(%arg0: tensor<f32>) -> tensor<f32> {
    return %arg0 : tensor<f32>
  }
}

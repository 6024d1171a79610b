// RUN: alpa-opt --alpa-intra-op-shard="mesh=2x4" -split-input-file -verify-diagnostics %s

func.func @main(%a: tensor<8x4xf32>, %b: tensor<4x2xf32>) -> tensor<8x2xf32> {
  // expected-error @+1 {{missing attribute `dot_dimension_numbers`}}
  %0 = "stablehlo.dot_general"(%a, %b) : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

// expected-error @+1 {{argument #0 has dynamic shape tensor<?x4xf32>}}
func.func @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %arg0 : tensor<?x4xf32>
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

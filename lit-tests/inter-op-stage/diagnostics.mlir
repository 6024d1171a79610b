// Bad input gets a diagnostic at the op (or argument) it is about.
// RUN: alpa-opt --alpa-inter-op-stage="layers=1" %s -split-input-file -verify-diagnostics

func.func @main(%x: tensor<8x64xf32>, %w: tensor<64x64xf32>) -> tensor<8x64xf32> {
  // expected-error @+1 {{missing attribute `dot_dimension_numbers`}}
  %0 = "stablehlo.dot_general"(%x, %w) : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// -----

// expected-error @+1 {{argument #0 has dynamic shape tensor<?x64xf32>}}
func.func @main(%x: tensor<?x64xf32>, %w: tensor<64x64xf32>) -> tensor<?x64xf32> {
  %0 = "stablehlo.tanh"(%x) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// -----

func.func private @f(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  return %x : tensor<8x64xf32>
}
func.func @main(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  // expected-error @+1 {{call to '@f' in the entry function: run alpa-inline first}}
  %0 = func.call @f(%x) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

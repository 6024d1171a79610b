// An out-of-range alpa.batch_dim stops the planners before they plan, at the argument.
// RUN: alpa-opt --alpa-inter-op-stage -split-input-file -verify-diagnostics %s
// RUN: alpa-opt --alpa-intra-op-shard="mesh=2x4" -split-input-file -verify-diagnostics %s

func.func @main(%w: tensor<8x8xf32>,
    // expected-error @+1 {{argument #1: alpa.batch_dim = -2 is not a dim of a rank-2 argument (nor -1)}}
    %x: tensor<32x8xf32> {alpa.batch_dim = -2 : i64}) -> tensor<32x8xf32> {
  %0 = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x8xf32>, tensor<8x8xf32>) -> tensor<32x8xf32>
  return %0 : tensor<32x8xf32>
}

// -----

// An argument named the way jax.jit names them, with no position of its own: the diagnostic
// keeps the name and is placed at the function.
// expected-error @+1 {{argument #1: alpa.batch_dim = 2 is not a dim of a rank-2 argument (nor -1)}}
func.func @main(%w: tensor<8x8xf32> loc("params['w']"),
    %x: tensor<32x8xf32> {alpa.batch_dim = 2 : i64} loc("batch['x']")) -> tensor<32x8xf32> {
  %0 = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x8xf32>, tensor<8x8xf32>) -> tensor<32x8xf32>
  return %0 : tensor<32x8xf32>
}

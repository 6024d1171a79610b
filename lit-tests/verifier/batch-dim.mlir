// An out-of-range alpa.batch_dim stops the planners before they plan, at the argument.
// RUN: alpa-opt --alpa-inter-op-stage -verify-diagnostics %s
// RUN: alpa-opt --alpa-intra-op-shard="mesh=2x4" -verify-diagnostics %s

func.func @main(%w: tensor<8x8xf32>,
    // expected-error @+1 {{argument #1: alpa.batch_dim = -2 is not a dim of a rank-2 argument (nor -1)}}
    %x: tensor<32x8xf32> {alpa.batch_dim = -2 : i64}) -> tensor<32x8xf32> {
  %0 = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x8xf32>, tensor<8x8xf32>) -> tensor<32x8xf32>
  return %0 : tensor<32x8xf32>
}

// Donation pairs the step cannot take are errors at the argument they name.
// RUN: alpa-opt --alpa-intra-op-shard="mesh=2x1 donation=1:0" -verify-diagnostics %s

func.func @main(%w: tensor<8x8xf32>,
    // expected-error @+1 {{alpa-intra-op-shard: donation pair 1:0: argument type tensor<32x8xf32> differs from result type tensor<8x8xf32>}}
    %x: tensor<32x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = "stablehlo.add"(%w, %w) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0, %0 : tensor<8x8xf32>, tensor<8x8xf32>
}

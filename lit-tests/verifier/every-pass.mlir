// Every pass reads the graph through the verifier: a malformed op stops each of them at the op.
// RUN: alpa-opt --alpa-annotate-costs -verify-diagnostics %s
// RUN: alpa-opt --alpa-intra-op-shard="mesh=2x4" -verify-diagnostics %s
// RUN: alpa-opt --alpa-cluster-layers -verify-diagnostics %s
// RUN: alpa-opt --alpa-inter-op-stage -verify-diagnostics %s

func.func @main(%x: tensor<8x32x32x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<8x32x32x16xf32> {
  // expected-error @+1 {{spatial dim 0: the window gives 30 outputs, the result has 32}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x32x32x16xf32>
  return %0 : tensor<8x32x32x16xf32>
}

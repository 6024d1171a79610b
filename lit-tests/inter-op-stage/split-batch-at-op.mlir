// What keeps the exported batch from splitting into microbatches (split-batch, or
// microbatches=auto) is an error at the op: here a reshape that merges the batch below the
// sequence ([L, N] -> [L*N], a sequence-major layout), which the cost model's split cannot
// divide.
// RUN: alpa-opt --alpa-inter-op-stage="microbatches=auto time-limit=5" %s -verify-diagnostics -o /dev/null
func.func @main(%x: tensor<8x4xf32>, %w: tensor<4x4xf32>) -> tensor<32x1xf32> {
  %t = "stablehlo.transpose"(%x) <{permutation = array<i64: 1, 0>}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
  // expected-error @+1 {{alpa-inter-op-stage: cannot split the batch into microbatches: the batch is merged into a dimension below another factor}}
  %m = "stablehlo.reshape"(%t) : (tensor<4x8xf32>) -> tensor<32x1xf32>
  return %m : tensor<32x1xf32>
}

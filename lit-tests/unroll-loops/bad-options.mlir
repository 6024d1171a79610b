// RUN: not alpa-opt %s --alpa-unroll-loops="max-ops=0" 2>&1 | FileCheck %s
// RUN: not alpa-opt %s --alpa-intra-op-shard="mesh=2x4 unroll-loops=maybe" 2>&1 | FileCheck %s --check-prefix=FLAG

// CHECK: error: alpa-unroll-loops: max-ops must be a positive integer, got '0'
// FLAG: for the --unroll-loops option: 'maybe' is invalid value for boolean argument
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// Programs with no compute have stage latencies of exactly zero, and every float the pass
// writes must parse back: the output is read again by alpa-opt.
// RUN: alpa-opt --split-input-file --alpa-inter-op-stage="cluster=p3.16xlarge-x2" %s -o %t.mlir 2>/dev/null
// RUN: alpa-opt --split-input-file %t.mlir | FileCheck %s
// CHECK-LABEL: func.func @main(%arg0: tensor<4x8xf32>)
// CHECK-SAME: latency = 0.000000e+00 : f64
func.func @main(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.transpose"(%a) {permutation = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @main(%arg0: tensor<0x4xf32>)
// CHECK-SAME: latency = 0.000000e+00 : f64
func.func @main(%a: tensor<0x4xf32>) -> tensor<0x4xf32> {
  %0 = "stablehlo.add"(%a, %a) : (tensor<0x4xf32>, tensor<0x4xf32>) -> tensor<0x4xf32>
  return %0 : tensor<0x4xf32>
}

// -----

// CHECK-LABEL: func.func @main(%arg0: tensor<5x3xf32>, %arg1: tensor<2x1xi32>)
// CHECK-SAME: latency = {{[0-9.]+[eE][-+]?[0-9]+}} : f64
func.func @main(%v: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.gather"(%v, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// RUN: alpa-opt --alpa-cluster-layers="layers=2 delta=0.5" %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.err

// Two matmuls of 8192 FLOPs each: the cut goes between them, where only the 8x8 activation
// (256 bytes) crosses; after the first tanh rather than before it, which balances the FLOPs
// better (the tie-break on FLOP variance).
// CHECK: "stablehlo.dot_general"(%arg0, %arg1) {{.*}}alpa.layer = 0 : i64
// CHECK: "stablehlo.tanh"{{.*}}alpa.layer = 0 : i64
// CHECK: "stablehlo.dot_general"{{.*}}alpa.layer = 1 : i64
// CHECK: "stablehlo.tanh"{{.*}}alpa.layer = 1 : i64
// SUMMARY: remark: alpa-cluster-layers: 2 layers (delta 0.5); ops per layer [2, 2]; FLOPs per layer [8.256e3, 8.704e3]; the most any layer receives from earlier layers: 256 B
func.func @main(%x: tensor<8x64xf32>, %w1: tensor<64x8xf32>, %w2: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = "stablehlo.dot_general"(%x, %w1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x64xf32>, tensor<64x8xf32>) -> tensor<8x8xf32>
  %1 = "stablehlo.tanh"(%0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = "stablehlo.dot_general"(%1, %w2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x8xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %3 = "stablehlo.tanh"(%2) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  return %3 : tensor<8x64xf32>
}

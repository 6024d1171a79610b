// alpa.fused_bytes is what each op's kernel reads and writes once elementwise chains are fused:
// exp runs inside tanh's kernel (0), tanh is written for the contraction (reads x, writes its
// 16 KiB result), the dot reads both operands and writes, the returned add reads the dot's
// result and x and writes. With a cluster that has a memory bandwidth the summary adds the
// roofline time: each op the longer of its FLOPs and its fused bytes.
// RUN: alpa-opt --alpa-annotate-costs %s 2>/dev/null | FileCheck %s
// RUN: alpa-opt --alpa-annotate-costs="cluster=h200-x1" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=SUMMARY
// RUN: alpa-opt --alpa-annotate-costs="cluster=%inputs/cluster-2xa100.json" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=NO-BANDWIDTH
// CHECK: stablehlo.exponential{{.*}}alpa.fused_bytes = 0
// CHECK: stablehlo.tanh{{.*}}alpa.fused_bytes = 32768
// CHECK: stablehlo.dot_general{{.*}}alpa.fused_bytes = 49152
// CHECK: stablehlo.add{{.*}}alpa.fused_bytes = 49152
// 49152 + 32768 + 49152 bytes at 4.8 TB/s: 27.3 ns; the FLOPs take less.
// SUMMARY: at peak, 0.027 us with its device-memory traffic (128.00 KiB after fusion at 4.800 TB/s)
// NO-BANDWIDTH: at peak{{$}}
func.func @main(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "stablehlo.exponential"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = "stablehlo.tanh"(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = "stablehlo.dot_general"(%1, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = "stablehlo.add"(%2, %x) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %3 : tensor<64x64xf32>
}

// RUN: alpa-opt --alpa-annotate-costs="cluster=p3.16xlarge-x8" %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.err

// Exact FLOPs for contractions, per-element counts for the rest, bytes read and written.
// CHECK-LABEL: func.func @main
// dot [32,256] x [256,512]: 2*32*256*512
// CHECK: "stablehlo.dot_general"{{.*}}alpa.bytes_read = 557056 : i64, alpa.bytes_written = 65536 : i64, alpa.flops = 8388608 : i64
// batch dot [4,8,16] x [4,16,32]: 2*4*8*16*32
// CHECK: "stablehlo.dot_general"{{.*}}alpa.flops = 32768 : i64
// conv NHWC 8x32x32x3, kernel 3x3x3x16, stride 1, SAME: per spatial dim 32*3 - 2 taps read
// the image (2 read padding): 2*(8*16)*3*(94*94)
// CHECK: "stablehlo.convolution"{{.*}}alpa.flops = 6786048 : i64
// CHECK: "stablehlo.add"{{.*}}alpa.bytes_read = 131072 : i64, alpa.bytes_written = 65536 : i64, alpa.flops = 16384 : i64
// CHECK: "stablehlo.reshape"{{.*}}alpa.flops = 0 : i64
// CHECK: "stablehlo.constant"{{.*}}alpa.bytes_read = 0 : i64, alpa.bytes_written = 4 : i64, alpa.flops = 0 : i64

// SUMMARY: remark: alpa-annotate-costs: @main: 7 ops (stablehlo.constant 2, stablehlo.dot_general 2, stablehlo.add 1, stablehlo.convolution 1, stablehlo.reshape 1); 15223808 FLOPs; arguments: 5 (650.00 KiB), donated: 0 (0 B)
// SUMMARY-SAME: compute on one NVIDIA V100-SXM2-16GB of p3.16xlarge-x8
func.func @main(%a: tensor<32x256xf32>, %b: tensor<256x512xf32>, %x: tensor<4x8x16xf32>, %y: tensor<4x16x32xf32>,
                %img: tensor<8x32x32x3xf32>) -> (tensor<32x512xf32>, tensor<4x8x32xf32>, tensor<8x32x32x16xf32>, tensor<16384xf32>, tensor<f32>) {
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x256xf32>, tensor<256x512xf32>) -> tensor<32x512xf32>
  %1 = "stablehlo.dot_general"(%x, %y) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<4x8x16xf32>, tensor<4x16x32xf32>) -> tensor<4x8x32xf32>
  %k = "stablehlo.constant"() <{value = dense<1.0> : tensor<3x3x3x16xf32>}> : () -> tensor<3x3x3x16xf32>
  %2 = "stablehlo.convolution"(%img, %k) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, padding = dense<1> : tensor<2x2xi64>, window_strides = array<i64: 1, 1>}> : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x32x32x16xf32>
  %3 = "stablehlo.add"(%0, %0) : (tensor<32x512xf32>, tensor<32x512xf32>) -> tensor<32x512xf32>
  %4 = "stablehlo.reshape"(%3) : (tensor<32x512xf32>) -> tensor<16384xf32>
  %k0 = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  return %0, %1, %2, %4, %k0 : tensor<32x512xf32>, tensor<4x8x32xf32>, tensor<8x32x32x16xf32>, tensor<16384xf32>, tensor<f32>
}

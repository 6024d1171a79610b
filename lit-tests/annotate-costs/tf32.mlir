// The compute type of a contraction (src/ir/compute_type.rs): f32 dots at default precision
// run as TF32 where the device has a TF32 rate (494.7 TFLOP/s on an H100) and at the f32 rate
// where it has none (15.7 on a V100); HIGHEST keeps full f32 (67 on an H100); a bf16 dot runs
// at bf16 (989 on an H100; 15.7 on a V100, which has no bf16 units).
// 4194304 FLOPs each.
// RUN: alpa-opt --alpa-annotate-costs="cluster=h100-x8" -split-input-file %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=H100
// RUN: alpa-opt --alpa-annotate-costs="cluster=p3.16xlarge-x1" -split-input-file %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=V100

// H100: 4194304 FLOPs{{.*}}: 0.008 us at peak
// V100: 4194304 FLOPs{{.*}}: 0.267 us at peak
func.func @main(%a: tensor<64x128xf32>, %b: tensor<128x256xf32>) -> tensor<64x256xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}

// -----

// H100: 4194304 FLOPs{{.*}}: 0.063 us at peak
// V100: 4194304 FLOPs{{.*}}: 0.267 us at peak
func.func @main(%a: tensor<64x128xf32>, %b: tensor<128x256xf32>) -> tensor<64x256xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]}> : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}

// -----

// H100: 4194304 FLOPs{{.*}}: 0.004 us at peak
// V100: 4194304 FLOPs{{.*}}: 0.267 us at peak
func.func @main(%a: tensor<64x128xbf16>, %b: tensor<128x256xbf16>) -> tensor<64x256xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<64x128xbf16>, tensor<128x256xbf16>) -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}

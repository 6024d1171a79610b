// A cluster file with measured rates by GEMM shape prices each dot at its shape's rate, not at
// the plateau. The product contracts over 64 only: 34.4 GFLOP that the tf32 plateau would run
// in about 83 us; h200-measured's grid ran this shape (16384 x 16384, k = 64) at 85.0 TFLOP/s,
// 404 us, which is longer than its 1 GiB result takes to write (250 us at 4.31 TB/s). The
// datasheet preset takes the bytes' 225 us (4.8 TB/s) since its peak is 494.7 TFLOP/s.
// RUN: alpa-opt --alpa-annotate-costs="cluster=h200-measured-x1" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=MEASURED
// RUN: alpa-opt --alpa-annotate-costs="cluster=h200-x1" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PRESET
// MEASURED: at peak, 404.{{[0-9]+}} us with its device-memory traffic ({{.*}} at 4.307 TB/s) and its dots at their GEMM shapes' measured rates
// PRESET: 2{{[0-9][0-9]}}.{{[0-9]+}} us with its device-memory traffic ({{.*}} at 4.800 TB/s){{$}}
func.func @main(%q: tensor<16384x64xf32>, %k: tensor<64x16384xf32>) -> tensor<16384x16384xf32> {
  %0 = "stablehlo.dot_general"(%q, %k) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<16384x64xf32>, tensor<64x16384xf32>) -> tensor<16384x16384xf32>
  return %0 : tensor<16384x16384xf32>
}

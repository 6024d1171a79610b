// A cluster file with measured rates by GEMM shape prices each dot at its shape's rate, not at
// the plateau. The product contracts over 64 only: 34.4 GFLOP that the tf32 plateau would run
// in about 83 us; h200-measured's grid ran this shape (16384 x 16384, k = 64) at 85.0 TFLOP/s,
// 404 us, which is longer than its 1 GiB result takes to write (250 us at 4.31 TB/s). The
// datasheet preset takes the bytes' 225 us (4.8 TB/s) since its peak is 494.7 TFLOP/s.
// RUN: alpa-opt --alpa-annotate-costs="cluster=h200-measured-x1" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=MEASURED
// RUN: alpa-opt --alpa-annotate-costs="cluster=h200-x1" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PRESET
// A shape table that is not a full grid is refused with the cluster file, before any costing.
// RUN: echo '{"name": "bad", "hosts": 1, "devices_per_host": 1, "device": {"name": "g", "memory_bytes": 1, "peak_flops": {"f32": 1e12}}, "intra_host": {"bandwidth_bytes_per_s": 1e9, "latency_s": 0}, "measured": {"gpu_name": "g", "driver_version": "1", "matmul_shapes": {"tf32": [{"m": 64, "n": 64, "k": 64, "flops": 1e12}, {"m": 256, "n": 64, "k": 64, "flops": 2e12}, {"m": 64, "n": 256, "k": 64, "flops": 2e12}]}}}' > %t.json
// RUN: not alpa-opt --alpa-annotate-costs="cluster=%t.json" %s 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: {{.*}}measured.matmul_shapes["tf32"]: 3 points do not make a full grid
// MEASURED: at peak, 404.{{[0-9]+}} us with its device-memory traffic ({{.*}} at 4.307 TB/s) and its contractions at their GEMM shapes' measured rates
// PRESET: 2{{[0-9][0-9]}}.{{[0-9]+}} us with its device-memory traffic ({{.*}} at 4.800 TB/s){{$}}
func.func @main(%q: tensor<16384x64xf32>, %k: tensor<64x16384xf32>) -> tensor<16384x16384xf32> {
  %0 = "stablehlo.dot_general"(%q, %k) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<16384x64xf32>, tensor<64x16384xf32>) -> tensor<16384x16384xf32>
  return %0 : tensor<16384x16384xf32>
}

// A cluster file with measured XLA overheads (`measured.xla`, python -m alpa_mlir.xla_overheads)
// prices the function as one program: each kernel at least a launch (2 us here), plus the
// program's dispatch (100 us). Four ops, three kernels: negate and tanh (fused, written for the
// dot to read), the dot, and the returned exponential; each is shorter than 2 us at 1 TFLOP/s
// and 1 TB/s, so 3 x 2 + 100, plus the fused negate's own 4 ns.
// RUN: echo '{"name": "c", "hosts": 1, "devices_per_host": 1, "device": {"name": "g", "memory_bytes": 1000000000, "peak_flops": {"f32": 1e12}, "hbm_bytes_per_s": 1e12}, "intra_host": {"bandwidth_bytes_per_s": 1e9, "latency_s": 0}, "measured": {"gpu_name": "g", "driver_version": "1", "xla": {"program_dispatch_s": 1e-4, "kernel_launch_s": 2e-6, "runtime": "jax 0, gpu (g)"}}}' > %t.json
// RUN: alpa-opt --alpa-annotate-costs="cluster=%t.json" %s 2>&1 >/dev/null | FileCheck %s
// CHECK: 0.594 us with its device-memory traffic ({{.*}}); as one XLA program of 3 kernels: 106.004 us (a kernel at least 2.000 us, the program's dispatch 100.000 us)
// Without the measurement the summary stops at the roofline.
// RUN: sed 's/, "xla": {[^}]*}//' %t.json > %t.none.json
// RUN: alpa-opt --alpa-annotate-costs="cluster=%t.none.json" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE
// NONE: 0.594 us with its device-memory traffic ({{[^)]*}}){{$}}
// A negative or missing number is refused with the cluster file.
// RUN: sed 's/"kernel_launch_s": 2e-6/"kernel_launch_s": -2e-6/' %t.json > %t.bad.json
// RUN: not alpa-opt --alpa-annotate-costs="cluster=%t.bad.json" %s 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: {{.*}}measured.xla.kernel_launch_s must be a non-negative number, got -0.000002
// RUN: sed 's/"kernel_launch_s": 2e-6, //' %t.json > %t.missing.json
// RUN: not alpa-opt --alpa-annotate-costs="cluster=%t.missing.json" %s 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: {{.*}}missing field `kernel_launch_s`
func.func @main(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %n = "stablehlo.negate"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = "stablehlo.tanh"(%n) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = "stablehlo.dot_general"(%0, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = "stablehlo.exponential"(%1) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %2 : tensor<64x64xf32>
}

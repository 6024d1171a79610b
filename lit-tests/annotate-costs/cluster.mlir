// A user cluster file works wherever a preset does; an unknown cluster is an error.
// RUN: alpa-opt --alpa-annotate-costs="cluster=%inputs/cluster-2xa100.json" %s 2>&1 >/dev/null | FileCheck %s
// RUN: alpa-opt --alpa-annotate-costs="cluster=h100-x8" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=H100
// RUN: not alpa-opt --alpa-annotate-costs="cluster=tpu-v9" %s 2>&1 | FileCheck %s --check-prefix=BAD
// 2*64*128*256 FLOPs at 19.5 TFLOP/s = 0.215 us
// CHECK: remark: alpa-annotate-costs: @main: 1 ops (stablehlo.dot_general 1); 4194304 FLOPs
// CHECK-SAME: compute on one A100-SXM4-40GB of two-a100-hosts: 0.215 us at peak
// H100: compute on one {{.*}}H100{{.*}} of h100-x8
// BAD: error: alpa-annotate-costs: {{.*}}tpu-v9
func.func @main(%a: tensor<64x128xf32>, %b: tensor<128x256xf32>) -> tensor<64x256xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}

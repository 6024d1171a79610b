// A memory budget no plan fits in is an error saying what the plans need; one that fits
// forces a sharding that uses less memory than the cheapest plan.
// RUN: not alpa-opt --alpa-intra-op-shard="mesh=4x1 memory-budget=1KiB" %s 2>&1 | FileCheck %s --check-prefix=OOM
// RUN: alpa-opt --alpa-intra-op-shard="mesh=4x1 report=-" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=FREE
// RUN: alpa-opt --alpa-intra-op-shard="mesh=4x1 memory-budget=40KiB report=-" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=TIGHT

// OOM: error: alpa-intra-op-shard: no plan fits in memory-budget=1.00 KiB per device: the least-memory plan needs {{[0-9.]+}} KiB per device; the cheapest plan needs {{[0-9.]+}} KiB per device
// Unconstrained, replicating the weight and the activations costs nothing.
// FREE: "objective": 0.0
// FREE: "memory_per_device_bytes": 131072.0
// TIGHT: "memory_per_device_bytes": {{[1-3][0-9]{4}\.0}}
// TIGHT: "memory_budget_bytes": 40960
func.func @main(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = "stablehlo.tanh"(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}

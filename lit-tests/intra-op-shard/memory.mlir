// A memory budget no plan fits in is an error saying what the plans need; one that fits
// forces a sharding that uses less memory than the cheapest plan.
// RUN: not alpa-opt --alpa-intra-op-shard="mesh=4x1 memory-budget=1KiB" %s 2>&1 | FileCheck %s --check-prefix=OOM
// RUN: alpa-opt --alpa-intra-op-shard="mesh=4x1 report=-" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=FREE
// RUN: alpa-opt --alpa-intra-op-shard="mesh=4x1 memory-budget=20KiB report=-" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=TIGHT

// OOM: error: alpa-intra-op-shard: no plan fits in memory-budget=1.00 KiB per device: the least-memory plan needs 16.00 KiB per device; the cheapest plan needs {{[0-9.]+}} KiB per device
// Unconstrained, splitting the rows of x over the devices costs nothing but keeps w whole.
// FREE: "objective": 0.0
// FREE-NEXT: "communication": 0.0
// FREE-NEXT: "resharding": 0.0
// FREE-NEXT: "ilp_objective": 0.0
// FREE-NEXT: "memory_per_device_bytes": {{[2-4][0-9][0-9][0-9][0-9]}}.0
// Within 20 KiB, w must be split too, and the dot pays an all-reduce.
// TIGHT: "objective": 12289.0
// TIGHT: "memory_per_device_bytes": 16384.0
// TIGHT-NEXT: "memory_budget_bytes": 20480
func.func @main(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = "stablehlo.tanh"(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}

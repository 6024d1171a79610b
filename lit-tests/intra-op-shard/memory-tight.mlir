// A budget a few percent above the least-memory plan always yields a plan (feasibility first:
// the solver builds a plan within the budget before it searches for a cheap one).
// On GPT the least-memory plan needs 2.85 MiB; 2.94 MiB is about 3% above it.
// RUN: not alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=2x4 memory-budget=1KiB" %inputs/gpt_tiny.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPT-LEAST
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=2x4 memory-budget=2.94MiB report=-" %inputs/gpt_tiny.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=GPT
// GPT-LEAST: the least-memory plan needs 2.85 MiB per device
// GPT: "memory_per_device_bytes": {{30[0-9][0-9][0-9][0-9][0-9]}}.0
// GPT-NEXT: "memory_budget_bytes": 3082813
// On Wide-ResNet the least-memory plan needs 2.22 MiB; 2.29 MiB is about 3% above it.
// RUN: not alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=2x4 memory-budget=1KiB" %inputs/wresnet_tiny.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRN-LEAST
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=2x4 memory-budget=2.29MiB report=-" %inputs/wresnet_tiny.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=WRN
// WRN-LEAST: the least-memory plan needs 2.22 MiB per device
// WRN: "memory_per_device_bytes": {{23[0-9][0-9][0-9][0-9][0-9]|240[01][0-9][0-9][0-9]}}.0
// WRN-NEXT: "memory_budget_bytes": 2401239

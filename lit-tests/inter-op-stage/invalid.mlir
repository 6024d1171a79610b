// RUN: not alpa-opt --alpa-inter-op-stage="microbatches=0" %s 2>&1 | FileCheck %s --check-prefix=MICRO
// Sizes that would build an unbounded program or spawn unbounded threads are refused.
// RUN: not alpa-opt --alpa-inter-op-stage="microbatches=9223372036854775807" %s 2>&1 | FileCheck %s --check-prefix=HUGEMICRO
// RUN: not alpa-opt --alpa-inter-op-stage="threads=100000000" %s 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-million-hosts.json" %s 2>&1 | FileCheck %s --check-prefix=HUGECLUSTER
// HUGECLUSTER: error: alpa-inter-op-stage: cluster '{{.*}}cluster-million-hosts.json' has 1000000 x 8 devices, more than the 65536 a plan supports
// HUGEMICRO: error: alpa-inter-op-stage: microbatches must be auto or an integer from 1 to 4096, got '9223372036854775807'
// THREADS: error: alpa-inter-op-stage: threads must be an integer from 0 (all cores) to 256, got '100000000'
// RUN: not alpa-opt --alpa-inter-op-stage="schedule=zigzag" %s 2>&1 | FileCheck %s --check-prefix=SCHED
// RUN: not alpa-opt --alpa-inter-op-stage="submesh-shapes=odd" %s 2>&1 | FileCheck %s --check-prefix=SHAPES
// RUN: not alpa-opt --alpa-inter-op-stage="cluster=no-such-cluster" %s 2>&1 | FileCheck %s --check-prefix=CLUSTER
// RUN: not alpa-opt --alpa-inter-op-stage="imbalance-tolerance=0.5" %s 2>&1 | FileCheck %s --check-prefix=IMBALANCE
// RUN: not alpa-opt --alpa-inter-op-stage="layers=5" %s 2>&1 | FileCheck %s --check-prefix=LAYERS
// RUN: not alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-tiny-memory.json microbatches=2" %inputs/mlp.mlir 2>&1 | FileCheck %s --check-prefix=MEMORY
// RUN: not alpa-opt --alpa-inter-op-stage %S/Inputs/partitioned-for-4.mlir 2>&1 | FileCheck %s --check-prefix=PARTITIONED
// RUN: alpa-opt %s --alpa-intra-op-shard="mesh=2x4" -o %t.sharded.mlir
// RUN: not alpa-opt --alpa-inter-op-stage %t.sharded.mlir 2>&1 | FileCheck %s --check-prefix=SHARDED
// PARTITIONED: error: alpa-inter-op-stage: the module is partitioned for 4 devices (mhlo.num_partitions) but cluster p3.16xlarge-x1 has 8 (1 x 8); plan the unpartitioned step
// SHARDED: sharded.mlir:{{[0-9]+}}:{{[0-9]+}}: error: alpa-inter-op-stage: the module already carries a Shardy mesh (sdy.mesh @mesh)
// RUN: not alpa-opt --alpa-inter-op-stage="cross-stage-cost=maybe" %s 2>&1 | FileCheck %s --check-prefix=CROSS
// RUN: not alpa-opt --alpa-inter-op-stage="microbatches=auto max-microbatches=0" %s 2>&1 | FileCheck %s --check-prefix=MAXMICRO
// RUN: not alpa-opt --alpa-inter-op-stage="microbatches=3 split-batch=true" %s 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not alpa-opt --alpa-inter-op-stage="baseline-time-limit=-1" %s 2>&1 | FileCheck %s --check-prefix=BASELIMIT
// MICRO: error: alpa-inter-op-stage: microbatches must be auto or an integer from 1 to 4096, got '0'
// SCHED: error: alpa-inter-op-stage: schedule must be 1f1b or gpipe, got 'zigzag'
// SHAPES: error: alpa-inter-op-stage: submesh-shapes must be power-of-two or all, got 'odd'
// CLUSTER: error: alpa-inter-op-stage: cluster 'no-such-cluster':
// IMBALANCE: error: alpa-inter-op-stage: imbalance-tolerance must be 0 (off) or a number >= 1
// LAYERS: error: alpa-inter-op-stage: layers must be auto, user or a number from 1 to 4 (the ops clustered), got '5'
// CROSS: error: alpa-inter-op-stage: cross-stage-cost must be on or off, got 'maybe'
// MAXMICRO: error: alpa-inter-op-stage: max-microbatches must be an integer from 1 to 4096, got '0'
// BASELIMIT: error: alpa-inter-op-stage: baseline-time-limit must be a non-negative number, got '-1'
// The batch of 64 (the leading dim of the arguments, none donated) does not split in 3.
// SPLIT: error: alpa-inter-op-stage: cannot split the batch into 3 microbatches: the global batch 64 is not divisible by 3 microbatches
// No stage fits in 4 KiB per device: the error says what the smallest stage needs.
// MEMORY: error: alpa-inter-op-stage: no pipeline plan for cluster tiny-memory (2 x 4 devices, 4.00 KiB per device) with 2 microbatches: no stage plan: layer {{[0-9]+}} needs at least {{.*}} bytes per device in any stage
func.func @main(%x: tensor<64x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "stablehlo.dot_general"(%x, %w1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = "stablehlo.tanh"(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = "stablehlo.dot_general"(%1, %w2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = "stablehlo.tanh"(%2) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %3 : tensor<64x64xf32>
}

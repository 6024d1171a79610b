// Every bad option is an error that names it, and a non-zero exit.
// RUN: not alpa-opt --alpa-intra-op-shard %s 2>&1 | FileCheck %s --check-prefix=NOMESH
// RUN: not alpa-opt --alpa-intra-op-shard="mesh=0x4" %s 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not alpa-opt --alpa-intra-op-shard="mesh=2by4" %s 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not alpa-opt --alpa-intra-op-shard="mesh=100000x100000" %s 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not alpa-opt --alpa-intra-op-shard="mesh=2x4 format=xml" %s 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not alpa-opt --alpa-intra-op-shard="mesh=2x4 memory-budget=lots" %s 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not alpa-opt --alpa-intra-op-shard="mesh=2x4 time-limit=-1" %s 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: not alpa-opt --alpa-intra-op-shard="mesh=2x4 force-batch-dim-to-mesh-dim=3" %s 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not alpa-opt --alpa-intra-op-shard="mesh=2x4 logical-mesh=sometimes" %s 2>&1 | FileCheck %s --check-prefix=LOGICAL
// RUN: not alpa-opt --alpa-intra-op-shard="mesh=2x4 alpha=1,x" %s 2>&1 | FileCheck %s --check-prefix=ALPHA
// RUN: not alpa-opt --alpa-intra-op-shard="mesh=2x4 cluster=tpu-v9" %s 2>&1 | FileCheck %s --check-prefix=CLUSTER
// RUN: not alpa-opt --alpa-intra-op-shard="mesh=16x2 cluster=p3.16xlarge-x8" %s 2>&1 | FileCheck %s --check-prefix=NOFIT
// RUN: not alpa-opt --alpa-intra-op-shard="mesh=2x4 entry=nope" %s 2>&1 | FileCheck %s --check-prefix=ENTRY

// NOMESH: error: alpa-intra-op-shard: the mesh option is required, e.g. mesh=2x4
// ZERO: error: alpa-intra-op-shard: invalid device mesh: cannot parse mesh shape `0x4`: axis sizes must be at least 1
// SHAPE: error: alpa-intra-op-shard: {{.*}}2by4
// HUGE: error: alpa-intra-op-shard: mesh 100000x100000 has more than 65536 devices
// FORMAT: error: alpa-intra-op-shard: format must be sdy or gspmd, got 'xml'
// BUDGET: error: alpa-intra-op-shard: memory-budget: {{.*}}'lots'
// TIME: error: alpa-intra-op-shard: time-limit must be a positive number of seconds
// BATCH: error: alpa-intra-op-shard: force-batch-dim-to-mesh-dim must be -1, 0 or 1, got 3
// LOGICAL: error: alpa-intra-op-shard: logical-mesh must be auto or empty, got 'sometimes'
// ALPHA: error: alpa-intra-op-shard: alpha expects one or two non-negative numbers
// CLUSTER: error: alpa-intra-op-shard: {{.*}}tpu-v9
// NOFIT: error: alpa-intra-op-shard: mesh 16x2 needs 16 hosts of 2 devices: the cluster 'p3.16xlarge-x8' has 8 hosts of 8
// ENTRY: error: entry function '@nope' not found
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

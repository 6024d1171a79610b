// logical-mesh=auto plans on every logical shape of the mesh's devices (paper §5.2) and keeps
// the cheapest; the report lists them all.
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=4x1 alpha=1 beta=1 logical-mesh=auto report=%t.json" %inputs/mlp.mlir -o %t.mlir
// RUN: FileCheck %s < %t.json
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// With equal links on both axes, the 2x2 view wins over the 1-D ones: Megatron on one axis
// and data parallelism on the other, each all-reduce spanning 2 devices instead of 4.
// CHECK:      "mesh": {
// CHECK-NEXT:   "shape": [
// CHECK-NEXT:     2,
// CHECK-NEXT:     2
// CHECK:      "objective": 180240.12,
// CHECK:      "logical_meshes": [
// CHECK:        "shape": [
// CHECK-NEXT:     1,
// CHECK-NEXT:     4
// CHECK-NEXT:   ],
// CHECK-NEXT:   "objective": 245765.05,
// CHECK:        "shape": [
// CHECK-NEXT:     2,
// CHECK-NEXT:     2
// CHECK-NEXT:   ],
// CHECK-NEXT:   "objective": 180240.12,
// CHECK:        "shape": [
// CHECK-NEXT:     4,
// CHECK-NEXT:     1
// CHECK-NEXT:   ],
// CHECK-NEXT:   "objective": 245765.05,
// IR: mhlo.num_partitions = 4
// IR: "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>

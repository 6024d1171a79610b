// Alpa's known answer: the MLP of Alpa's tests (6 Dense layers, hidden 256, batch 32, ReLU,
// Adam) on a 4x1 mesh with alpha = beta = 1 gets Megatron's plan, weights alternating column
// and row partition, with objective 5 x AR(32*256*4) + 5 x 0.01 (the all-reduce tie-break):
// AR(x) = alpha + beta * 2(n-1)/n * x = 1 + 1.5 * 32768 = 49153.
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=4x1 alpha=1 beta=1 report=%t.json" %inputs/mlp.mlir | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=4x1 alpha=1 beta=1 format=gspmd" %inputs/mlp.mlir | FileCheck %s --check-prefix=GSPMD
// Without merging trivial ops the ILP is larger and finds the same optimum.
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=4x1 alpha=1 beta=1 merge-trivial-ops=false report=-" %inputs/mlp.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT

// CHECK: module @jit_train_step attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32}
// CHECK: "sdy.mesh"() <{mesh = #sdy.mesh<["x"=4, "y"=1]>, sym_name = "mesh"}>
// Layer 1's weight is column-partitioned, layer 2's row-partitioned, and so on.
// CHECK: %arg1: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>, tf.aliasing_output = 1 : i32}
// CHECK-SAME: %arg3: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>, tf.aliasing_output = 3 : i32}
// CHECK-SAME: %arg5: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>, tf.aliasing_output = 5 : i32}
// CHECK-SAME: %arg7: tensor<256x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>, tf.aliasing_output = 7 : i32}
// The batch stays replicated.
// CHECK-SAME: %arg37: tensor<32x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}
// Column-parallel: the hidden activation is sharded, no communication.
// CHECK: "stablehlo.dot_general"(%arg37, %arg1) {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
// Row-parallel: the all-reduced result is replicated.
// CHECK: "stablehlo.dot_general"({{.*}}, %arg3) {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}

// REPORT: "objective": 245765.05
// REPORT: "resharding": 0.0
// REPORT: "status": "Optimal"
// REPORT-COUNT-5: "kind": "all-reduce",{{[[:space:]]*}}"bytes": 32768,
// REPORT-NOT: "kind":

// GSPMD: %arg1: tensor<256x256xf32> {mhlo.sharding = "{devices=[1,4]<=[4]}", tf.aliasing_output = 1 : i32}
// GSPMD-SAME: %arg3: tensor<256x256xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}", tf.aliasing_output = 3 : i32}
// GSPMD: %[[DOT:.*]] = "stablehlo.dot_general"(%arg37, %arg1) {{.*}} {mhlo.sharding = "{devices=[1,4]<=[4]}"}
// Every result is pinned as well: GSPMD takes an op's attribute as a hint it may override.
// GSPMD-NEXT: "stablehlo.custom_call"(%[[DOT]]) {call_target_name = "Sharding", mhlo.sharding = "{devices=[1,4]<=[4]}"}
// GSPMD: "stablehlo.dot_general"({{.*}}, %arg3) {{.*}} {mhlo.sharding = "{replicated}"}
// GSPMD-NOT: sdy.
// In GSPMD form a resharding the plan needs is an explicit custom_call @Sharding.
// GSPMD: "stablehlo.custom_call"({{.*}}) {call_target_name = "Sharding", mhlo.sharding = "{{.*}}"}

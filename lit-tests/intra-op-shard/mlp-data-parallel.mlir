// With a large batch and a small hidden size (batch 1024, hidden 32) the same MLP is data
// parallel: weights replicated, activations split over the batch, and only the gradients are
// all-reduced: 6 x AR(32*32*4) for the weights, 6 x AR(32*4) for the biases, AR(4) for the
// loss, plus 13 x 0.01: 6 x 6145 + 6 x 193 + 7 + 0.13 = 38035.13.
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=4x1 alpha=1 beta=1 report=%t.json" %inputs/mlp_dp.mlir | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK: %arg1: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>, tf.aliasing_output = 1 : i32}
// The replicated input batch is split before the first matmul by an explicit constraint (a
// free slice), so that XLA runs exactly the plan; every op result is constrained as well.
// CHECK: %[[X:.*]] = "sdy.sharding_constraint"(%arg37) {sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
// CHECK-NEXT: %[[H:.*]] = "stablehlo.dot_general"(%[[X]], %arg1) {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT: "sdy.sharding_constraint"(%[[H]]) {sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}

// REPORT: "objective": 38035.13
// REPORT-NOT: "kind": "all-gather"
// REPORT-NOT: "kind": "all-to-all"

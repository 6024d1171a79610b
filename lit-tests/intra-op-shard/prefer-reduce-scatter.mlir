// Weight-update sharding (paper §4.2, ZeRO-like) on the data-parallel MLP of
// mlp-data-parallel.mlir: after the ILP, each of the 12 gradient all-reduces becomes a
// reduce-scatter, Adam's math and its states (mu, nu) are sharded over the batch axis, and each
// new parameter is all-gathered back to its replicated layout. Same bytes, one more latency
// per gradient and no all-reduce tie-break: 38035.13 + 12 x 0.99 = 38047.01.
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=4x1 alpha=1 beta=1 prefer-reduce-scatter=true report=%t.json" %inputs/mlp_dp.mlir | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: grep -o '"kind": "[a-z-]*"' %t.json | sort | uniq -c | FileCheck %s --check-prefix=KINDS
// The ops just before the first kernel's new value:
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=4x1 alpha=1 beta=1 prefer-reduce-scatter=true" %inputs/mlp_dp.mlir | grep -B3 '"stablehlo.subtract"(%arg1,' | FileCheck %s --check-prefix=UPDATE
// Off (the default), the plan is the ILP's.
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=4x1 alpha=1 beta=1 prefer-reduce-scatter=false report=%t.plain.json" %inputs/mlp_dp.mlir -o /dev/null
// RUN: FileCheck %s --check-prefix=PLAIN < %t.plain.json

// Parameters stay replicated; the optimizer states are split like their gradients (a bias'
// over its only dim, a kernel's over dim 1: its gradient is the transpose of a matmul result
// scattered on dim 0), and stay donated.
// CHECK-LABEL: func.func public @main
// CHECK-SAME: %arg1: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>, tf.aliasing_output = 1 : i32}
// CHECK-SAME: %arg12: tensor<i32> {alpa.input_int_bound = 1000 : i64, sdy.sharding = #sdy.sharding<@mesh, []>, tf.aliasing_output = 12 : i32}
// CHECK-SAME: %arg13: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>, tf.aliasing_output = 13 : i32}
// CHECK-SAME: %arg14: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>, tf.aliasing_output = 14 : i32}
// CHECK-SAME: %arg26: tensor<32x32xf32> {alpa.input_nonnegative, sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>, tf.aliasing_output = 26 : i32}
// The new values agree with their aliased arguments.
// CHECK-SAME: -> (tensor<32xf32> {jax.result_info = "result[0]['params']['dense_0']['bias']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}
// CHECK-SAME: {jax.result_info = "result[1]['mu']['params']['dense_0']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}

// A weight gradient leaves its matmul scattered (the partial sums are reduce-scattered).
// CHECK: %[[G:.*]] = "stablehlo.dot_general"({{.*}}lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT: "sdy.sharding_constraint"(%[[G]]) {sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
// The first kernel's update is computed split, then all-gathered into the new parameter.
// UPDATE: %[[D:.*]] = "stablehlo.divide"({{.*}}) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
// UPDATE-NEXT: %[[U:.*]] = "sdy.sharding_constraint"(%[[D]]) {sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}
// UPDATE-NEXT: %[[R:.*]] = "sdy.sharding_constraint"(%[[U]]) {sharding = #sdy.sharding<@mesh, [{}, {}]>}
// UPDATE-NEXT: "stablehlo.subtract"(%arg1, %[[R]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}

// Only the loss' all-reduce is left.
// KINDS: 12 "kind": "all-gather"
// KINDS-NEXT: 1 "kind": "all-reduce"
// KINDS-NEXT: 12 "kind": "reduce-scatter"
// KINDS-NOT: all-to-all

// REPORT: "objective": 38047.01
// REPORT: "arguments": [
// REPORT-NEXT: "R",
// REPORT-NEXT: "RR",
// REPORT: "argument_axes": [
// REPORT-NEXT: [
// REPORT-NEXT: []
// REPORT-NEXT: ],
// REPORT-NEXT: [
// REPORT-NEXT: [],
// REPORT-NEXT: []
// REPORT-NEXT: ],
// an optimizer state split like its RS0 parameter: dimension 1 over mesh axis 0
// REPORT: [{{[[:space:]]*}}[],{{[[:space:]]*}}[{{[[:space:]]*}}0{{[[:space:]]*}}]{{[[:space:]]*}}]
// REPORT: "ops": [
// REPORT: "kind": "reduce-scatter",
// REPORT-NEXT: "bytes": 128,
// REPORT: "kind": "reduce-scatter",
// REPORT-NEXT: "bytes": 4096,
// REPORT: "kind": "all-gather",
// REPORT-NEXT: "bytes": 128,
// REPORT: "reason": "resharding",
// REPORT-NEXT: "resharding": {
// REPORT-NEXT: "value": "op {{[0-9]+}}",
// REPORT-NEXT: "result": 0,
// REPORT-NEXT: "from": "S0",
// REPORT-NEXT: "to": "R",
// REPORT-NEXT: "consumers": [
// REPORT-NEXT: {
// REPORT-NEXT: "op": {{[0-9]+}},
// REPORT-NEXT: "operand": 1
// REPORT: "kind": "all-gather",
// REPORT-NEXT: "bytes": 4096,
// REPORT: "reason": "resharding",
// REPORT-NEXT: "resharding": {
// REPORT-NEXT: "value": "op {{[0-9]+}}",
// REPORT-NEXT: "result": 0,
// REPORT-NEXT: "from": "RS0",
// REPORT-NEXT: "to": "RR",
// REPORT: "weight_update": {
// REPORT-NEXT: "gradients": [
// REPORT: "spec": "S0R"
// REPORT: "optimizer_states": [
// REPORT-NEXT: 13,
// REPORT-NOT: "kind": "all-to-all"

// PLAIN: "objective": 38035.13
// PLAIN-NOT: reduce-scatter
// PLAIN-NOT: "weight_update"

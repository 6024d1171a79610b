// The exact path's cost table plans the whole model on the whole cluster first (its first plan
// is that one stage). With epsilon 0 (the default) it then skips the pairs no plan faster than
// the best found can use at the floors of the pairs not planned yet; with epsilon > 0 only the
// latency cutoff applies. The plan is the same.
// RUN: alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=p3.16xlarge-x1 microbatches=8 layers=4 report=%t.exact.json" %inputs/mlp.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: FileCheck %s --check-prefix=EXACT-JSON < %t.exact.json
// RUN: alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=p3.16xlarge-x1 microbatches=8 layers=4 epsilon=1e-6 report=%t.eps.json" %inputs/mlp.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,EPS
// RUN: FileCheck %s --check-prefix=EPS-JSON < %t.eps.json

// CHECK: cost table: 40 (range, submesh) pairs, 28 distinct to plan; skipped: 12 unusable
// EXACT: cost table: a plan of [[WHOLE:[0-9.e+-]+]] s: pairs that no faster plan can use at the floors are not planned
// EPS: cost table: a plan of [[WHOLE:[0-9.e+-]+]] s: stages above {{[0-9.e+-]+}} s are not planned
// CHECK: stage DP: T = 8.6128{{[0-9]+}}e-5 s with 4 stages
// The equal-operator baseline's whole model is the plan's ops: answered, not solved again.
// CHECK: equal-operator baseline: planning its own cost table
// CHECK-NEXT: cost table: 40 (range, submesh) pairs
// CHECK-NEXT: stage oracle: layers 0..4 on 1x8: the answer planned for the same ops under other layers
// CHECK: stage DP: T = [[WHOLE]] s with 1 stages
// CHECK: remark: alpa-inter-op-stage: 4 stages over 4 layers on p3.16xlarge-x1 (8 microbatches): iteration 0.086 ms modeled; layers 0..1 on 1x4 (logical 1x4, devices 0..=3) 0.007 ms; layers 1..2 on 1x1 (logical 1x1, devices 6..=6) 0.005 ms; layers 2..3 on 1x1 (logical 1x1, devices 7..=7) 0.008 ms; layers 3..4 on 1x2 (logical 1x2, devices 4..=5) 0.008 ms;
// EXACT-SAME: 21 oracle queries
// EPS-SAME: 28 oracle queries

// EXACT-JSON: "skipped_plan_floor": 7
// EPS-JSON: "skipped_latency": 0,
// EPS-JSON-NEXT: "skipped_plan_floor": 0

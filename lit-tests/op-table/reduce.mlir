// reduce: kept dims pass through, reduced dims are reduction factors (a sharded one leaves the
// result partial: all-reduce). reduce_window: a window wider than one element combines its
// elements, a strided one of one element moves them; both need the whole dim.
// RUN: alpa-opt --alpa-test-print-op-rules="mesh=2x2" %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark

// reduce over dim 1: the kept dim passes through, the reduced one is a reduction factor (a split
// of it all-reduces the result); the init value is a scalar.
// CHECK: remark: stablehlo.reduce: ([i,j], []) -> [i] {i=4, j=8}, reduction {j};
// CHECK-SAME: 11 strategies on 2x2:
// CHECK-SAME: R = RR x [] | S1 = S1R x [] | R = RS1 x [] @ allreduce{1} | S0 = S0R x [] |
// CHECK-SAME: S01 = S01R x [] | S10 = S10R x [] | S0 = S0S1 x [] @ allreduce{1} | R = RS0 x [] @ allreduce{0} |
// CHECK-SAME: S1 = S1S0 x [] @ allreduce{0} | R = RS01 x [] @ allreduce{0,1} | R = RS10 x [] @ allreduce{0,1}{{$}}

// reduce_window with a window of 2 along dim 1: that dim changes size (separate operand and
// result factors, combined); dim 0 (window 1) passes through.
// CHECK: remark: stablehlo.reduce_window: ([i,j], []) -> [i,k] {i=4, j=8, k=4}, combined {j,k};
// CHECK-SAME: 5 strategies on 2x2:
// CHECK-SAME: RR = RR x [] | S1R = S1R x [] | S0R = S0R x [] | S01R = S01R x [] |
// CHECK-SAME: S10R = S10R x []{{$}}

// A window of one element strided by 2 along dim 1 takes every other element: need-replication,
// not combined, and sharded the same way.
// CHECK: remark: stablehlo.reduce_window: ([i,j], []) -> [i,k] {i=4, j=8, k=4}, need-replication {j,k};
// CHECK-SAME: 5 strategies on 2x2:
// CHECK-SAME: RR = RR x [] | S1R = S1R x [] | S0R = S0R x [] | S01R = S01R x [] |
// CHECK-SAME: S10R = S10R x []{{$}}

func.func @main(%x: tensor<4x8xf32>, %init: tensor<f32>) -> (tensor<4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = "stablehlo.reduce"(%x, %init) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%m) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x4xf32>
  %2 = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%m) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

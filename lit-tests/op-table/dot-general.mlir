// dot_general: batch and free dims are pass-through, contracting dims reduction. A heavy op:
// only the strategies that split it over every device of the mesh are kept.
// RUN: alpa-opt --alpa-test-print-op-rules="mesh=2x2" %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark
// RUN: alpa-opt --alpa-test-print-op-rules="mesh=4x1" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE-D --implicit-check-not=remark

// matmul [i,k] x [k,j] -> [i,j]: k is a reduction factor; splitting it leaves partial sums
// that the strategy all-reduces over k's mesh axes. A heavy op: every strategy uses all 4 devices.
// CHECK: remark: stablehlo.dot_general: ([i,k], [k,j]) -> [i,j] {i=8, j=4, k=16}, reduction {k};
// CHECK-SAME: 12 strategies on 2x2 (heavy: those using every device):
// CHECK-SAME: S01R = S01R x RR | S10R = S10R x RR | S0S1 = S0R x RS1 | S0R = S0S1 x S1R @ allreduce{1} |
// CHECK-SAME: S1S0 = S1R x RS0 | RS01 = RR x RS01 | RS10 = RR x RS10 | RS0 = RS1 x S1S0 @ allreduce{1} |
// CHECK-SAME: S1R = S1S0 x S0R @ allreduce{0} | RS1 = RS0 x S0S1 @ allreduce{0} | RR = RS01 x S01R @ allreduce{0,1} | RR = RS10 x S10R @ allreduce{0,1}{{$}}

// batched matmul: the batch factor i is shared by both operands and the result.
// CHECK: remark: stablehlo.dot_general: ([i,j,l], [i,l,k]) -> [i,j,k] {i=2, j=8, k=4, l=16}, reduction {l};
// CHECK-SAME: 18 strategies on 2x2 (heavy: those using every device):
// CHECK-SAME: S0S1R = S0S1R x S0RR | S0RS1 = S0RR x S0RS1 | S0RR = S0RS1 x S0S1R @ allreduce{1} | S1S0R = S1S0R x S1RR |
// CHECK-SAME: RS01R = RS01R x RRR | RS10R = RS10R x RRR | RS0S1 = RS0R x RRS1 | RS0R = RS0S1 x RS1R @ allreduce{1} |
// CHECK-SAME: S1RS0 = S1RR x S1RS0 | RS1S0 = RS1R x RRS0 | RRS01 = RRR x RRS01 | RRS10 = RRR x RRS10 |
// CHECK-SAME: RRS0 = RRS1 x RS1S0 @ allreduce{1} | S1RR = S1RS0 x S1S0R @ allreduce{0} | RS1R = RS1S0 x RS0R @ allreduce{0} | RRS1 = RRS0 x RS0S1 @ allreduce{0} |
// CHECK-SAME: RRR = RRS01 x RS01R @ allreduce{0,1} | RRR = RRS10 x RS10R @ allreduce{0,1}{{$}}

// The legacy dot, matrix x vector.
// CHECK: remark: stablehlo.dot: ([i,j], [j]) -> [i] {i=8, j=16}, reduction {j};
// CHECK-SAME: 6 strategies on 2x2 (heavy: those using every device):
// CHECK-SAME: S01 = S01R x R | S10 = S10R x R | S0 = S0S1 x S1 @ allreduce{1} | S1 = S1S0 x S0 @ allreduce{0} |
// CHECK-SAME: R = RS01 x S01 @ allreduce{0,1} | R = RS10 x S10 @ allreduce{0,1}{{$}}

// On a 1-D mesh of 4 devices: one axis, fewer strategies.
// ONE-D: remark: stablehlo.dot_general: ([i,k], [k,j]) -> [i,j] {i=8, j=4, k=16}, reduction {k};
// ONE-D-SAME: 3 strategies on 4x1 (heavy: those using every device):
// ONE-D-SAME: S0R = S0R x RR | RS0 = RR x RS0 | RR = RS0 x S0R @ allreduce{0}{{$}}

// ONE-D: remark: stablehlo.dot_general: ([i,j,l], [i,l,k]) -> [i,j,k] {i=2, j=8, k=4, l=16}, reduction {l};
// ONE-D-SAME: 3 strategies on 4x1 (heavy: those using every device):
// ONE-D-SAME: RS0R = RS0R x RRR | RRS0 = RRR x RRS0 | RRR = RRS0 x RS0R @ allreduce{0}{{$}}

// ONE-D: remark: stablehlo.dot: ([i,j], [j]) -> [i] {i=8, j=16}, reduction {j};
// ONE-D-SAME: 2 strategies on 4x1 (heavy: those using every device):
// ONE-D-SAME: S0 = S0R x R | R = RS0 x S0 @ allreduce{0}{{$}}

func.func @main(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %x: tensor<2x8x16xf32>, %y: tensor<2x16x4xf32>, %v: tensor<16xf32>) -> (tensor<8x4xf32>, tensor<2x8x4xf32>, tensor<8xf32>) {
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = "stablehlo.dot_general"(%x, %y) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<2x8x16xf32>, tensor<2x16x4xf32>) -> tensor<2x8x4xf32>
  %2 = "stablehlo.dot"(%a, %v) : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8xf32>
  return %0, %1, %2 : tensor<8x4xf32>, tensor<2x8x4xf32>, tensor<8xf32>
}

// Broadcast, reshape, transpose, reverse, iota: how dimensions map between operand and result.
// RUN: alpa-opt --alpa-test-print-op-rules="mesh=2x2" %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark

// broadcast_in_dim: the operand's dim keeps its factor; the new dim is a factor only the
// result has, so each device makes its own slice of it (no communication).
// CHECK: remark: stablehlo.broadcast_in_dim: ([i]) -> [j,i] {i=8, j=4};
// CHECK-SAME: 11 strategies on 2x2:
// CHECK-SAME: RR = R | RS1 = S1 | S1R = R | RS0 = S0 |
// CHECK-SAME: RS01 = S01 | RS10 = S10 | S1S0 = S0 | S0R = R |
// CHECK-SAME: S0S1 = S1 | S01R = R | S10R = R{{$}}

// reshape merging two dims: one result dim made of both factors, major first; it can be split
// only where the split of the major factor leaves the minor one whole.
// CHECK: remark: stablehlo.reshape: ([i,j]) -> [i*j] {i=4, j=8};
// CHECK-SAME: 5 strategies on 2x2:
// CHECK-SAME: R = RR | S1 = S1R | S0 = S0R | S01 = S01R |
// CHECK-SAME: S10 = S10R{{$}}

// reshape splitting a dim: the operand dim is both factors.
// CHECK: remark: stablehlo.reshape: ([i*j,k]) -> [i,j,k] {i=2, j=2, k=8};
// CHECK-SAME: 11 strategies on 2x2:
// CHECK-SAME: RRR = RR | S1RR = S1R | RRS1 = RS1 | S0RR = S0R |
// CHECK-SAME: S0S1R = S01R | S0RS1 = S0S1 | S1S0R = S10R | RRS0 = RS0 |
// CHECK-SAME: S1RS0 = S1S0 | RRS01 = RS01 | RRS10 = RS10{{$}}

// transpose: the factors follow the permutation.
// CHECK: remark: stablehlo.transpose: ([j,i]) -> [i,j] {i=8, j=4};
// CHECK-SAME: 11 strategies on 2x2:
// CHECK-SAME: RR = RR | S1R = RS1 | RS1 = S1R | S0R = RS0 |
// CHECK-SAME: S01R = RS01 | S10R = RS10 | S0S1 = S1S0 | RS0 = S0R |
// CHECK-SAME: S1S0 = S0S1 | RS01 = S01R | RS10 = S10R{{$}}

// reverse: the reversed dim is a permutation factor; splitting it needs a collective permute.
// CHECK: remark: stablehlo.reverse: ([i,j]) -> [i,j] {i=4, j=8}, permutation {j};
// CHECK-SAME: 11 strategies on 2x2:
// CHECK-SAME: RR = RR | S1R = S1R | RS1 = RS1 @ permute{1} | S0R = S0R |
// CHECK-SAME: S01R = S01R | S10R = S10R | S0S1 = S0S1 @ permute{1} | RS0 = RS0 @ permute{0} |
// CHECK-SAME: S1S0 = S1S0 @ permute{0} | RS01 = RS01 @ permute{0,1} | RS10 = RS10 @ permute{0,1}{{$}}

// reshape of 2x3 into 6: the minor factor (3) divides by no mesh axis, so it stays whole.
// CHECK: remark: stablehlo.reshape: ([i,j,k]) -> [i*j,k] {i=2, j=3, k=8};
// CHECK-SAME: 9 strategies on 2x2:
// CHECK-SAME: RR = RRR | S1R = S1RR | RS1 = RRS1 | S0R = S0RR |
// CHECK-SAME: S0S1 = S0RS1 | RS0 = RRS0 | S1S0 = S1RS0 | RS01 = RRS01 |
// CHECK-SAME: RS10 = RRS10{{$}}

// iota: no operands, every result dim is a result-only factor.
// CHECK: remark: stablehlo.iota: () -> [i,j] {i=4, j=8};
// CHECK-SAME: 11 strategies on 2x2:
// CHECK-SAME: RR | S1R | RS1 | S0R |
// CHECK-SAME: S01R | S10R | S0S1 | RS0 |
// CHECK-SAME: S1S0 | RS01 | RS10{{$}}

func.func @main(%v: tensor<8xf32>, %m: tensor<4x8xf32>, %t: tensor<2x3x8xf32>) -> (tensor<4x8xf32>, tensor<32xf32>, tensor<2x2x8xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<6x8xf32>, tensor<4x8xi32>) {
  %0 = "stablehlo.broadcast_in_dim"(%v) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xf32>) -> tensor<4x8xf32>
  %1 = "stablehlo.reshape"(%m) : (tensor<4x8xf32>) -> tensor<32xf32>
  %2 = "stablehlo.reshape"(%m) : (tensor<4x8xf32>) -> tensor<2x2x8xf32>
  %3 = "stablehlo.transpose"(%m) <{permutation = array<i64: 1, 0>}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %4 = "stablehlo.reverse"(%m) <{dimensions = array<i64: 1>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = "stablehlo.reshape"(%t) : (tensor<2x3x8xf32>) -> tensor<6x8xf32>
  %6 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x8xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4x8xf32>, tensor<32xf32>, tensor<2x2x8xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<6x8xf32>, tensor<4x8xi32>
}

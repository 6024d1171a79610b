// Elementwise ops: one pass-through factor per dimension, shared by every operand and the
// result; a size-1 dimension has no factor; a scalar operand of select/clamp has no dims.
// RUN: alpa-opt --alpa-test-print-op-rules="mesh=2x2" %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark

// A binary op: one pass-through factor per dim, shared by both operands and the result; every
// layout of the result is a strategy, and none communicates.
// CHECK: remark: stablehlo.add: ([i,j], [i,j]) -> [i,j] {i=4, j=8};
// CHECK-SAME: 11 strategies on 2x2:
// CHECK-SAME: RR = RR x RR | S1R = S1R x S1R | RS1 = RS1 x RS1 | S0R = S0R x S0R |
// CHECK-SAME: S01R = S01R x S01R | S10R = S10R x S10R | S0S1 = S0S1 x S0S1 | RS0 = RS0 x RS0 |
// CHECK-SAME: S1S0 = S1S0 x S1S0 | RS01 = RS01 x RS01 | RS10 = RS10 x RS10{{$}}

// select with a scalar predicate: the scalar has no dims.
// CHECK: remark: stablehlo.select: ([], [i,j], [i,j]) -> [i,j] {i=4, j=8};
// CHECK-SAME: 11 strategies on 2x2:
// CHECK-SAME: RR = [] x RR x RR | S1R = [] x S1R x S1R | RS1 = [] x RS1 x RS1 | S0R = [] x S0R x S0R |
// CHECK-SAME: S01R = [] x S01R x S01R | S10R = [] x S10R x S10R | S0S1 = [] x S0S1 x S0S1 | RS0 = [] x RS0 x RS0 |
// CHECK-SAME: S1S0 = [] x S1S0 x S1S0 | RS01 = [] x RS01 x RS01 | RS10 = [] x RS10 x RS10{{$}}

// clamp with scalar bounds.
// CHECK: remark: stablehlo.clamp: ([], [i,j], []) -> [i,j] {i=4, j=8};
// CHECK-SAME: 11 strategies on 2x2:
// CHECK-SAME: RR = [] x RR x [] | S1R = [] x S1R x [] | RS1 = [] x RS1 x [] | S0R = [] x S0R x [] |
// CHECK-SAME: S01R = [] x S01R x [] | S10R = [] x S10R x [] | S0S1 = [] x S0S1 x [] | RS0 = [] x RS0 x [] |
// CHECK-SAME: S1S0 = [] x S1S0 x [] | RS01 = [] x RS01 x [] | RS10 = [] x RS10 x []{{$}}

// convert keeps the dims (a new element type).
// CHECK: remark: stablehlo.convert: ([i,j]) -> [i,j] {i=4, j=8};
// CHECK-SAME: 11 strategies on 2x2:
// CHECK-SAME: RR = RR | S1R = S1R | RS1 = RS1 | S0R = S0R |
// CHECK-SAME: S01R = S01R | S10R = S10R | S0S1 = S0S1 | RS0 = RS0 |
// CHECK-SAME: S1S0 = S1S0 | RS01 = RS01 | RS10 = RS10{{$}}

// A size-1 dim has no factor (printed 1): only the other dim can be split.
// CHECK: remark: stablehlo.exponential: ([1,i]) -> [1,i] {i=8};
// CHECK-SAME: 5 strategies on 2x2:
// CHECK-SAME: RR = RR | RS1 = RS1 | RS0 = RS0 | RS01 = RS01 |
// CHECK-SAME: RS10 = RS10{{$}}

func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %p: tensor<i1>, %lo: tensor<f32>, %row: tensor<1x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xbf16>, tensor<1x8xf32>) {
  %0 = "stablehlo.add"(%x, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "stablehlo.select"(%p, %x, %y) : (tensor<i1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "stablehlo.clamp"(%lo, %x, %lo) : (tensor<f32>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %3 = "stablehlo.convert"(%x) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  %4 = "stablehlo.exponential"(%row) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  return %0, %1, %2, %3, %4 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xbf16>, tensor<1x8xf32>
}

// sort: the sorted dim is combined (its elements are compared with each other; it needs the whole
// dim), the others pass through (shared by every operand and result).
// RUN: alpa-opt --alpa-test-print-op-rules="mesh=2x2" %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark

// sort along dim 1 with a value operand: dim 1 is combined, dim 0 passes through all
// operands and results; every result takes the same layout.
// CHECK: remark: stablehlo.sort: ([i,j], [i,j]) -> ([i,j], [i,j]) {i=4, j=8}, combined {j};
// CHECK-SAME: 5 strategies on 2x2:
// CHECK-SAME: RR, RR = RR x RR | S1R, S1R = S1R x S1R | S0R, S0R = S0R x S0R | S01R, S01R = S01R x S01R |
// CHECK-SAME: S10R, S10R = S10R x S10R{{$}}

func.func @main(%k: tensor<4x8xf32>, %v: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  %0:2 = "stablehlo.sort"(%k, %v) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%lt) : (tensor<i1>) -> ()
  }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
  return %0#0, %0#1 : tensor<4x8xf32>, tensor<4x8xi32>
}

// slice, dynamic_slice, pad, concatenate, dynamic_update_slice: a dim whose size the op
// changes needs replication (operand and result get separate factors); untouched dims pass
// through.
// RUN: alpa-opt --alpa-test-print-op-rules="mesh=2x2" %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark

// slice of dim 1: operand and result dims of different sizes, each need-replication.
// CHECK: remark: stablehlo.slice: ([i,j]) -> [i,k] {i=4, j=8, k=4}, need-replication {j,k};
// CHECK-SAME: 5 strategies on 2x2:
// CHECK-SAME: RR = RR | S1R = S1R | S0R = S0R | S01R = S01R |
// CHECK-SAME: S10R = S10R{{$}}

// dynamic_slice: the same, with scalar start indices.
// CHECK: remark: stablehlo.dynamic_slice: ([i,j], [], []) -> [i,k] {i=4, j=8, k=2}, need-replication {j,k};
// CHECK-SAME: 5 strategies on 2x2:
// CHECK-SAME: RR = RR x [] x [] | S1R = S1R x [] x [] | S0R = S0R x [] x [] | S01R = S01R x [] x [] |
// CHECK-SAME: S10R = S10R x [] x []{{$}}

// pad of dim 1.
// CHECK: remark: stablehlo.pad: ([i,j], []) -> [i,k] {i=4, j=8, k=12}, need-replication {j,k};
// CHECK-SAME: 5 strategies on 2x2:
// CHECK-SAME: RR = RR x [] | S1R = S1R x [] | S0R = S0R x [] | S01R = S01R x [] |
// CHECK-SAME: S10R = S10R x []{{$}}

// concatenate along dim 0: each input's dim 0 and the result's are need-replication, dim 1
// passes through all three.
// CHECK: remark: stablehlo.concatenate: ([i,l], [j,l]) -> [k,l] {i=4, j=4, k=8, l=8}, need-replication {i,j,k};
// CHECK-SAME: 5 strategies on 2x2:
// CHECK-SAME: RR = RR x RR | RS1 = RS1 x RS1 | RS0 = RS0 x RS0 | RS01 = RS01 x RS01 |
// CHECK-SAME: RS10 = RS10 x RS10{{$}}

// dynamic_update_slice: the update's dim 1 is smaller than the operand's; dim 0 is shared.
// CHECK: remark: stablehlo.dynamic_update_slice: ([i,j], [i,k], [], []) -> [i,j] {i=4, j=8, k=2}, need-replication {j,k};
// CHECK-SAME: 5 strategies on 2x2:
// CHECK-SAME: RR = RR x RR x [] x [] | S1R = S1R x S1R x [] x [] | S0R = S0R x S0R x [] x [] | S01R = S01R x S01R x [] x [] |
// CHECK-SAME: S10R = S10R x S10R x [] x []{{$}}

func.func @main(%x: tensor<4x8xf32>, %i: tensor<i32>, %z: tensor<f32>, %u: tensor<4x2xf32>) -> (tensor<4x4xf32>, tensor<4x2xf32>, tensor<4x12xf32>, tensor<8x8xf32>, tensor<4x8xf32>) {
  %0 = "stablehlo.slice"(%x) <{start_indices = array<i64: 0, 2>, limit_indices = array<i64: 4, 6>, strides = array<i64: 1, 1>}> : (tensor<4x8xf32>) -> tensor<4x4xf32>
  %1 = "stablehlo.dynamic_slice"(%x, %i, %i) <{slice_sizes = array<i64: 4, 2>}> : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
  %2 = "stablehlo.pad"(%x, %z) <{edge_padding_low = array<i64: 0, 2>, edge_padding_high = array<i64: 0, 2>, interior_padding = array<i64: 0, 0>}> : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x12xf32>
  %3 = "stablehlo.concatenate"(%x, %x) <{dimension = 0 : i64}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %4 = "stablehlo.dynamic_update_slice"(%x, %u, %i, %i) : (tensor<4x8xf32>, tensor<4x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  return %0, %1, %2, %3, %4 : tensor<4x4xf32>, tensor<4x2xf32>, tensor<4x12xf32>, tensor<8x8xf32>, tensor<4x8xf32>
}

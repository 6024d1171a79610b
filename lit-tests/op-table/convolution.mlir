// convolution: batch and output features pass through, input features are a reduction; a
// spatial dim with a window wider than one element combines neighbours and needs the whole dim
// (a split would need a halo), a 1x1 one passes through.
// RUN: alpa-opt --alpa-test-print-op-rules="mesh=2x2" %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark

// 3x3 window, padded: batch i and output features k pass through, input features j are the
// reduction; the spatial dims are combined (a split would need a halo), so only batch and
// features are split.
// CHECK: remark: stablehlo.convolution: ([i,l,o,j], [m,p,j,k]) -> [i,n,q,k] {i=4, j=6, k=4, l=8, m=3, n=8, o=8, p=3, q=8}, reduction {j}, combined {l,m,n,o,p,q};
// CHECK-SAME: 10 strategies on 2x2 (heavy: those using every device):
// CHECK-SAME: S01RRR = S01RRR x RRRR | S10RRR = S10RRR x RRRR | S0RRR = S0RRS1 x RRS1R @ allreduce{1} | S0RRS1 = S0RRR x RRRS1 |
// CHECK-SAME: S1RRR = S1RRS0 x RRS0R @ allreduce{0} | RRRS1 = RRRS0 x RRS0S1 @ allreduce{0} | S1RRS0 = S1RRR x RRRS0 | RRRS0 = RRRS1 x RRS1S0 @ allreduce{1} |
// CHECK-SAME: RRRS01 = RRRR x RRRS01 | RRRS10 = RRRR x RRRS10{{$}}

// 1x1 window, stride 1: the spatial dims pass through as well (the kernel's are size 1).
// CHECK: remark: stablehlo.convolution: ([i,l,m,j], [1,1,j,k]) -> [i,l,m,k] {i=4, j=6, k=4, l=8, m=8}, reduction {j};
// CHECK-SAME: 28 strategies on 2x2 (heavy: those using every device):
// CHECK-SAME: S01RRR = S01RRR x RRRR | S10RRR = S10RRR x RRRR | S0RRR = S0RRS1 x RRS1R @ allreduce{1} | S0RRS1 = S0RRR x RRRS1 |
// CHECK-SAME: S0S1RR = S0S1RR x RRRR | S0RS1R = S0RS1R x RRRR | S1RRR = S1RRS0 x RRS0R @ allreduce{0} | RRRS1 = RRRS0 x RRS0S1 @ allreduce{0} |
// CHECK-SAME: RS1RR = RS1RS0 x RRS0R @ allreduce{0} | RRS1R = RRS1S0 x RRS0R @ allreduce{0} | S1RRS0 = S1RRR x RRRS0 | RRRS0 = RRRS1 x RRS1S0 @ allreduce{1} |
// CHECK-SAME: RRRS01 = RRRR x RRRS01 | RRRS10 = RRRR x RRRS10 | RS1RS0 = RS1RR x RRRS0 | RRS1S0 = RRS1R x RRRS0 |
// CHECK-SAME: S1S0RR = S1S0RR x RRRR | RS0RR = RS0RS1 x RRS1R @ allreduce{1} | RS0RS1 = RS0RR x RRRS1 | RS01RR = RS01RR x RRRR |
// CHECK-SAME: RS10RR = RS10RR x RRRR | RS0S1R = RS0S1R x RRRR | S1RS0R = S1RS0R x RRRR | RRS0R = RRS0S1 x RRS1R @ allreduce{1} |
// CHECK-SAME: RRS0S1 = RRS0R x RRRS1 | RS1S0R = RS1S0R x RRRR | RRS01R = RRS01R x RRRR | RRS10R = RRS10R x RRRR{{$}}

func.func @main(%img: tensor<4x8x8x6xf32>, %k3: tensor<3x3x6x4xf32>, %k1: tensor<1x1x6x4xf32>) -> (tensor<4x8x8x4xf32>, tensor<4x8x8x4xf32>) {
  %0 = "stablehlo.convolution"(%img, %k3) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, padding = dense<1> : tensor<2x2xi64>, window_strides = array<i64: 1, 1>}> : (tensor<4x8x8x6xf32>, tensor<3x3x6x4xf32>) -> tensor<4x8x8x4xf32>
  %1 = "stablehlo.convolution"(%img, %k1) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 1, 1>}> : (tensor<4x8x8x6xf32>, tensor<1x1x6x4xf32>) -> tensor<4x8x8x4xf32>
  return %0, %1 : tensor<4x8x8x4xf32>, tensor<4x8x8x4xf32>
}

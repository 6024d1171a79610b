// while and case: a while's carried values keep one sharding through the loop; their dims are
// need-replication factors shared by operand and result, so the loop itself runs replicated.
// case chooses a branch at run time: everything replicated.
// RUN: alpa-opt --alpa-test-print-op-rules="mesh=2x2" %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark

// while: the carried values' dims are need-replication factors shared by operand and result.
// CHECK: remark: stablehlo.while: ([], [i,j]) -> ([], [i,j]) {i=4, j=8}, need-replication {i,j};
// CHECK-SAME: 1 strategy on 2x2:
// CHECK-SAME: [], RR = [] x RR{{$}}

// case: the branch index is a scalar; the results are need-replication.
// CHECK: remark: stablehlo.case: ([]) -> [i,j] {i=4, j=8}, need-replication {i,j};
// CHECK-SAME: 1 strategy on 2x2:
// CHECK-SAME: RR = []{{$}}

func.func @main(%x: tensor<4x8xf32>, %n: tensor<i32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %r:2 = "stablehlo.while"(%n, %x) ({
  ^bb0(%i: tensor<i32>, %h: tensor<4x8xf32>):
    %p = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %h: tensor<4x8xf32>):
    %t = "stablehlo.tanh"(%h) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    "stablehlo.return"(%i, %t) : (tensor<i32>, tensor<4x8xf32>) -> ()
  }) : (tensor<i32>, tensor<4x8xf32>) -> (tensor<i32>, tensor<4x8xf32>)
  %c = "stablehlo.case"(%n) ({
    "stablehlo.return"(%x) : (tensor<4x8xf32>) -> ()
  }, {
    %e = "stablehlo.exponential"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    "stablehlo.return"(%e) : (tensor<4x8xf32>) -> ()
  }) : (tensor<i32>) -> tensor<4x8xf32>
  return %r#1, %c : tensor<4x8xf32>, tensor<4x8xf32>
}

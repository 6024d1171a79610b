// A stablehlo.while carries no sharding annotation of its own (XLA's translation drops the
// loop-invariant carried values from the loop tuple but not from the op's sharding, and fails);
// with Shardy its results are pinned by constraints right after it. That is the loop planned as
// one op (unroll-loops=false); by default its three trips are unrolled and planned op by op.
// RUN: alpa-opt %s --alpa-inline --alpa-intra-op-shard="mesh=2x4 format=sdy unroll-loops=false" | FileCheck %s
// RUN: alpa-opt %s --alpa-inline --alpa-intra-op-shard="mesh=2x4 format=gspmd unroll-loops=false" | FileCheck %s --check-prefix=GSPMD
// RUN: alpa-opt %s --alpa-inline --alpa-intra-op-shard="mesh=2x4 format=sdy" | FileCheck %s --check-prefix=UNROLLED

// UNROLLED-NOT: stablehlo.while
// UNROLLED-COUNT-3: "stablehlo.dot_general"{{.*}}sdy.sharding
// UNROLLED-NOT: stablehlo.while

// CHECK: "stablehlo.while"
// CHECK-NOT: }) {sdy.sharding
// CHECK: }) : (tensor<i32>, tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<i32>, tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-DAG: "sdy.sharding_constraint"(%{{.*}}#0)
// CHECK-DAG: "sdy.sharding_constraint"(%{{.*}}#1)
// CHECK-DAG: "sdy.sharding_constraint"(%{{.*}}#2)
// GSPMD: "stablehlo.while"
// GSPMD-NOT: }) {mhlo.sharding
// GSPMD: }) : (tensor<i32>, tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<i32>, tensor<8x8xf32>, tensor<8x8xf32>)
func.func @main(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:3 = "stablehlo.while"(%c0, %x, %w) ({
  ^bb0(%i: tensor<i32>, %h: tensor<8x8xf32>, %k: tensor<8x8xf32>):
    %n = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %p = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %h: tensor<8x8xf32>, %k: tensor<8x8xf32>):
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %d = "stablehlo.dot_general"(%h, %k) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %t = "stablehlo.tanh"(%d) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    "stablehlo.return"(%j, %t, %k) : (tensor<i32>, tensor<8x8xf32>, tensor<8x8xf32>) -> ()
  }) : (tensor<i32>, tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<i32>, tensor<8x8xf32>, tensor<8x8xf32>)
  return %r#1 : tensor<8x8xf32>
}

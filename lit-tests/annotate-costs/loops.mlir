// A while loop costs its body times its static trip count, and its condition once more; one
// whose trip count is not static costs its body once, and a remark says so.
// RUN: alpa-opt --alpa-annotate-costs="summary=false" %s -split-input-file 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// 5 trips of (dot 2*8*8*8 = 1024, tanh 64, counter add 1) + 6 compares: 5 * 1089 + 6
// CHECK-LABEL: func.func @counted
// CHECK: "stablehlo.while"
// CHECK: }) {{.*}}alpa.flops = 5451 : i64
// REMARK-NOT: costed once
func.func @counted(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:3 = "stablehlo.while"(%c0, %x, %w) ({
  ^bb0(%i: tensor<i32>, %h: tensor<8x8xf32>, %k: tensor<8x8xf32>):
    %n = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
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

// -----

// The bound is an argument: one trip's cost (1089) and the condition once (1).
// CHECK-LABEL: func.func @dynamic
// CHECK: "stablehlo.while"
// CHECK: }) {{.*}}alpa.flops = 1090 : i64
// REMARK: remark: the loop's trip count is not static: the bound the counter is compared against is not a constant: its condition and body are costed once
func.func @dynamic(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>, %n: tensor<i32>) -> tensor<8x8xf32> {
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:3 = "stablehlo.while"(%c0, %x, %w) ({
  ^bb0(%i: tensor<i32>, %h: tensor<8x8xf32>, %k: tensor<8x8xf32>):
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

// A loop without a static trip count (a bound read from an argument, a loop until its value
// converges, as a rejection sampler's) stays a loop, with a warning at it, while the counted
// loop beside it is unrolled; a counted loop inside a kept one stays with it.
// RUN: alpa-opt %s --alpa-unroll-loops | FileCheck %s
// RUN: alpa-opt %s --alpa-unroll-loops 2>&1 >/dev/null | FileCheck %s --check-prefix=DIAG
// RUN: alpa-opt %s --alpa-intra-op-shard="mesh=2x4" 2>&1 >/dev/null | FileCheck %s --check-prefix=SHARD

// DIAG: 21:10: warning: alpa-unroll-loops: the loop's trip count is not static (the bound the counter is compared against is not a constant): it stays a loop, planned as one op with its condition and body costed once
// DIAG: 44:8: warning: alpa-unroll-loops: the loop's trip count is not static (no compared value is a counter the body moves by a constant step): it stays a loop
// DIAG: remark: alpa-unroll-loops: unrolled 1 loops into 2 copies of their bodies
// DIAG-NOT: error
// SHARD: warning: alpa-intra-op-shard: the loop's trip count is not static
// SHARD-NOT: error

// CHECK-LABEL: func.func @main
// CHECK-COUNT-3: stablehlo.while
// CHECK-NOT: stablehlo.while
// CHECK-COUNT-2: stablehlo.sine
func.func @main(%n: tensor<i32>, %x: tensor<4xf32>, %e: tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:2 = "stablehlo.while"(%c0, %x) ({
  ^bb0(%i: tensor<i32>, %h: tensor<4xf32>):
    %p = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %h: tensor<4xf32>):
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %k0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %w:2 = "stablehlo.while"(%k0, %h) ({
    ^bb0(%k: tensor<i32>, %g: tensor<4xf32>):
      %two = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
      %q = "stablehlo.compare"(%k, %two) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%q) : (tensor<i1>) -> ()
    }, {
    ^bb0(%k: tensor<i32>, %g: tensor<4xf32>):
      %once = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %l = "stablehlo.add"(%k, %once) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %t = "stablehlo.tanh"(%g) : (tensor<4xf32>) -> tensor<4xf32>
      "stablehlo.return"(%l, %t) : (tensor<i32>, tensor<4xf32>) -> ()
    }) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
    "stablehlo.return"(%j, %w#1) : (tensor<i32>, tensor<4xf32>) -> ()
  }) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
  %s = "stablehlo.while"(%e) ({
  ^bb0(%v: tensor<f32>):
    %eps = "stablehlo.constant"() <{value = dense<1.0e-3> : tensor<f32>}> : () -> tensor<f32>
    %p = "stablehlo.compare"(%v, %eps) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%v: tensor<f32>):
    %y = "stablehlo.multiply"(%v, %v) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%y) : (tensor<f32>) -> ()
  }) : (tensor<f32>) -> tensor<f32>
  %c00 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %u:2 = "stablehlo.while"(%c00, %r#1) ({
  ^bb0(%i: tensor<i32>, %h: tensor<4xf32>):
    %two = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %p = "stablehlo.compare"(%i, %two) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %h: tensor<4xf32>):
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %t = "stablehlo.sine"(%h) : (tensor<4xf32>) -> tensor<4xf32>
    "stablehlo.return"(%j, %t) : (tensor<i32>, tensor<4xf32>) -> ()
  }) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
  return %u#1, %s : tensor<4xf32>, tensor<f32>
}

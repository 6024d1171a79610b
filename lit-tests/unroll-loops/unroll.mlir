// A lax.scan over stacked weights (JAX's pattern: counter from 0, `i < 3`, `i + 1`, rows read by
// dynamic_slice at `i < 0 ? i + 3 : i`) becomes three copies of its body reading static rows.
// RUN: alpa-opt %s --alpa-unroll-loops -split-input-file | FileCheck %s
// RUN: alpa-opt %s --alpa-unroll-loops -split-input-file 2>&1 | FileCheck %s --check-prefix=REMARK

// REMARK: remark: alpa-unroll-loops: unrolled 1 loops into 3 copies of their bodies

// CHECK-LABEL: func.func @main
// CHECK-NOT: stablehlo.while
// CHECK-NOT: stablehlo.dynamic_slice
// CHECK: %[[R0:.*]] = "stablehlo.slice"(%arg1) {{.*}}limit_indices = array<i64: 1, 4>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>{{.*}} : (tensor<3x4xf32>) -> tensor<1x4xf32>
// CHECK: %[[W0:.*]] = "stablehlo.reshape"(%[[R0]])
// CHECK: %[[H1:.*]] = "stablehlo.add"(%arg0, %[[W0]])
// CHECK: %[[R1:.*]] = "stablehlo.slice"(%arg1) {{.*}}limit_indices = array<i64: 2, 4>, start_indices = array<i64: 1, 0>
// CHECK: %[[W1:.*]] = "stablehlo.reshape"(%[[R1]])
// CHECK: %[[H2:.*]] = "stablehlo.add"(%[[H1]], %[[W1]])
// CHECK: %[[R2:.*]] = "stablehlo.slice"(%arg1) {{.*}}limit_indices = array<i64: 3, 4>, start_indices = array<i64: 2, 0>
// CHECK: %[[W2:.*]] = "stablehlo.reshape"(%[[R2]])
// CHECK: %[[H3:.*]] = "stablehlo.add"(%[[H2]], %[[W2]])
// The counter's final value (3) replaces the loop's counter result.
// CHECK: %[[N:.*]] = "stablehlo.constant"() {{.*}}value = dense<3> : tensor<i32>
// CHECK: return %[[H3]], %[[N]] : tensor<4xf32>, tensor<i32>
func.func @main(%h: tensor<4xf32>, %w: tensor<3x4xf32>) -> (tensor<4xf32>, tensor<i32>) {
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:3 = "stablehlo.while"(%c0, %h, %w) ({
  ^bb0(%i: tensor<i32>, %x: tensor<4xf32>, %ws: tensor<3x4xf32>):
    %n = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %p = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %x: tensor<4xf32>, %ws: tensor<3x4xf32>):
    %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %neg = "stablehlo.compare"(%i, %zero) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %three = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %wrapped = "stablehlo.add"(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %idx = "stablehlo.select"(%neg, %wrapped, %i) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %row = "stablehlo.dynamic_slice"(%ws, %idx, %zero) <{slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %v = "stablehlo.reshape"(%row) : (tensor<1x4xf32>) -> tensor<4xf32>
    %y = "stablehlo.add"(%x, %v) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%j, %y, %ws) : (tensor<i32>, tensor<4xf32>, tensor<3x4xf32>) -> ()
  }) : (tensor<i32>, tensor<4xf32>, tensor<3x4xf32>) -> (tensor<i32>, tensor<4xf32>, tensor<3x4xf32>)
  return %r#1, %r#0 : tensor<4xf32>, tensor<i32>
}

// -----

// A fori_loop whose bound is carried unchanged, counting down by 2 from 6 while `i > 0`
// (3 trips), with a loop nested in its body (2 trips each): 6 copies of the inner body, its
// captured outer counter folded in each.
// REMARK: remark: alpa-unroll-loops: unrolled 4 loops into 9 copies of their bodies
// CHECK-LABEL: func.func @nested
// CHECK-NOT: stablehlo.while
// CHECK-COUNT-6: "stablehlo.multiply"
// CHECK-NOT: "stablehlo.multiply"
// CHECK: return
func.func @nested(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c6 = "stablehlo.constant"() <{value = dense<6> : tensor<i64>}> : () -> tensor<i64>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  %r:3 = "stablehlo.while"(%c6, %c0, %x) ({
  ^bb0(%i: tensor<i64>, %lo: tensor<i64>, %h: tensor<4xf32>):
    %p = "stablehlo.compare"(%i, %lo) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<i64>, tensor<i64>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i64>, %lo: tensor<i64>, %h: tensor<4xf32>):
    %k0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %s:2 = "stablehlo.while"(%k0, %h) ({
    ^bb0(%k: tensor<i32>, %g: tensor<4xf32>):
      %two = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
      %q = "stablehlo.compare"(%k, %two) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%q) : (tensor<i1>) -> ()
    }, {
    ^bb0(%k: tensor<i32>, %g: tensor<4xf32>):
      %m = "stablehlo.multiply"(%g, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %k1 = "stablehlo.add"(%k, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%k1, %m) : (tensor<i32>, tensor<4xf32>) -> ()
    }) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
    %step = "stablehlo.constant"() <{value = dense<2> : tensor<i64>}> : () -> tensor<i64>
    %j = "stablehlo.subtract"(%i, %step) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    "stablehlo.return"(%j, %lo, %s#1) : (tensor<i64>, tensor<i64>, tensor<4xf32>) -> ()
  }) : (tensor<i64>, tensor<i64>, tensor<4xf32>) -> (tensor<i64>, tensor<i64>, tensor<4xf32>)
  return %r#2 : tensor<4xf32>
}

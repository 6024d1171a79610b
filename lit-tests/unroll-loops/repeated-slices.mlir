// Two scans over the same stacked weight (a forward and a backward scan, the second walking the
// rows in reverse): once unrolled, each row is one slice that both copies read, so the backward
// copy of a layer meets the forward row of that layer, not the whole stack.
// RUN: alpa-opt %s --alpa-unroll-loops 2>&1 -o %t.mlir | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// REMARK: remark: alpa-unroll-loops: unrolled 2 loops into 4 copies of their bodies; 0 stacks written row by row are concatenations of their rows; 2 repeated slices read the first equal one
// CHECK-LABEL: func.func @main
// CHECK: %[[R0:.*]] = "stablehlo.slice"(%arg1) {{.*}}start_indices = array<i64: 0, 0>
// CHECK: "stablehlo.add"(%arg0, %[[R0]])
// CHECK: %[[R1:.*]] = "stablehlo.slice"(%arg1) {{.*}}start_indices = array<i64: 1, 0>
// CHECK: %[[F:.*]] = "stablehlo.add"({{.*}}, %[[R1]])
// CHECK-NOT: "stablehlo.slice"
// CHECK: %[[B1:.*]] = "stablehlo.multiply"(%[[F]], %[[R1]])
// CHECK: "stablehlo.multiply"(%[[B1]], %[[R0]])
// CHECK: return
func.func @main(%h: tensor<1x4xf32>, %w: tensor<2x4xf32>) -> tensor<1x4xf32> {
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %f:3 = "stablehlo.while"(%c0, %h, %w) ({
  ^bb0(%i: tensor<i32>, %x: tensor<1x4xf32>, %ws: tensor<2x4xf32>):
    %n = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %p = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %x: tensor<1x4xf32>, %ws: tensor<2x4xf32>):
    %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %row = "stablehlo.dynamic_slice"(%ws, %i, %zero) <{slice_sizes = array<i64: 1, 4>}> : (tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %y = "stablehlo.add"(%x, %row) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%j, %y, %ws) : (tensor<i32>, tensor<1x4xf32>, tensor<2x4xf32>) -> ()
  }) : (tensor<i32>, tensor<1x4xf32>, tensor<2x4xf32>) -> (tensor<i32>, tensor<1x4xf32>, tensor<2x4xf32>)
  %b:3 = "stablehlo.while"(%c0, %f#1, %w) ({
  ^bb0(%i: tensor<i32>, %x: tensor<1x4xf32>, %ws: tensor<2x4xf32>):
    %n = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %p = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %x: tensor<1x4xf32>, %ws: tensor<2x4xf32>):
    %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %last = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %k = "stablehlo.subtract"(%last, %i) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %row = "stablehlo.dynamic_slice"(%ws, %k, %zero) <{slice_sizes = array<i64: 1, 4>}> : (tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %y = "stablehlo.multiply"(%x, %row) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%j, %y, %ws) : (tensor<i32>, tensor<1x4xf32>, tensor<2x4xf32>) -> ()
  }) : (tensor<i32>, tensor<1x4xf32>, tensor<2x4xf32>) -> (tensor<i32>, tensor<1x4xf32>, tensor<2x4xf32>)
  return %b#1 : tensor<1x4xf32>
}

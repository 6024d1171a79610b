// RUN: alpa-opt --alpa-inline %s | FileCheck %s
// RUN: alpa-opt --pass-pipeline='builtin.module(alpa-inline{entry=main})' %s | FileCheck %s

// Calls are inlined transitively, the entry keeps its signature, private
// callees that become dead are erased, and a public function that is not the entry stays.

// CHECK-LABEL: func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<f32>)
// CHECK-NOT:     func.call
// CHECK:         %[[DOT:.*]] = "stablehlo.dot_general"(%arg0, %arg1)
// CHECK:         %[[ZERO:.*]] = "stablehlo.constant"()
// CHECK:         %[[RELU:.*]] = "stablehlo.maximum"(%[[DOT]], %[[ZERO]])
// CHECK:         "stablehlo.reduce"
// CHECK:           "stablehlo.add"
// CHECK-NOT:     func.call
// CHECK:         return %[[RELU]],
// CHECK-NOT:   func.func private
// CHECK-LABEL: func.func public @other
// CHECK-NOT:   func.func private
module {
  func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<f32>) {
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    %1 = func.call @relu(%0) : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %2 = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.reduce"(%1, %2) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<f32>
    return %1, %3 : tensor<4x16xf32>, tensor<f32>
  }
  func.func private @relu(%arg0: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %0 = "stablehlo.constant"() <{value = dense<0.0> : tensor<4x16xf32>}> : () -> tensor<4x16xf32>
    %1 = call @max(%arg0, %0) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    return %1 : tensor<4x16xf32>
  }
  func.func private @max(%arg0: tensor<4x16xf32>, %arg1: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %0 = "stablehlo.maximum"(%arg0, %arg1) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
  func.func private @unused(%arg0: tensor<f32>) -> tensor<f32> {
    return %arg0 : tensor<f32>
  }
  func.func public @other(%arg0: tensor<f32>) -> tensor<f32> {
    return %arg0 : tensor<f32>
  }
}

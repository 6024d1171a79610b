// RUN: alpa-opt --alpa-inline %s | FileCheck %s
// A private @main is still the program: it is inlined into, never erased as dead.
// CHECK-LABEL: func.func private @main
// CHECK:         "stablehlo.negate"
// CHECK-NOT:     func.func
func.func private @main(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = func.call @f(%arg0) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func private @f(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.negate"(%arg0) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

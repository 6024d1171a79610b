// Inlined ops keep their own location called from the call's, as MLIR's inliner writes them:
// an op of a helper JAX exports with a name but no source position (jnp's jitted helpers)
// then has the call's position, where diagnostics point. Nested calls stack up; a call of
// unknown location leaves the ops' own.
// RUN: alpa-opt --alpa-inline -mlir-print-debuginfo %s | FileCheck %s
// CHECK-LABEL: func.func @main
// CHECK: "stablehlo.negate"(%arg0) : (tensor<f32>) -> tensor<f32> loc(#[[NEG:loc[0-9]*]])
// CHECK: "stablehlo.reduce"
// CHECK: "stablehlo.add"{{.*}} loc(#[[ADD:loc[0-9]*]])
// CHECK: "stablehlo.abs"(%{{.*}}) : (tensor<f32>) -> tensor<f32> loc(#[[ABS:loc[0-9]*]])
// CHECK: "stablehlo.sqrt"(%{{.*}}) : (tensor<f32>) -> tensor<f32> loc(#[[SQRT:loc[0-9]*]])
// CHECK: #[[STEP:loc[0-9]+]] = loc("step.py":3:7)
// CHECK: #[[INNER_CALL:loc[0-9]+]] = loc("helper.py":9:2)
// CHECK: #[[SQRT]] = loc("sqrt")
// CHECK: #[[NEG]] = loc(callsite(#{{loc[0-9]+}} at #[[STEP]]))
// CHECK: #[[ADD]] = loc(callsite(#{{loc[0-9]+}} at #[[STEP]]))
// CHECK: #[[NESTED:loc[0-9]+]] = loc(callsite(#[[INNER_CALL]] at #[[STEP]]))
// CHECK: #[[ABS]] = loc(callsite(#{{loc[0-9]+}} at #[[NESTED]]))
module {
  func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @helper(%arg0) : (tensor<f32>) -> tensor<f32> loc("step.py":3:7)
    %1 = func.call @plain(%0) : (tensor<f32>) -> tensor<f32> loc(unknown)
    return %1 : tensor<f32>
  }
  func.func private @helper(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "stablehlo.negate"(%arg0) : (tensor<f32>) -> tensor<f32> loc("negate")
    %1 = "stablehlo.reshape"(%0) : (tensor<f32>) -> tensor<1xf32>
    %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.reduce"(%1, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("add")
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<1xf32>, tensor<f32>) -> tensor<f32>
    %3 = func.call @inner(%2) : (tensor<f32>) -> tensor<f32> loc("helper.py":9:2)
    return %3 : tensor<f32>
  }
  func.func private @inner(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "stablehlo.abs"(%arg0) : (tensor<f32>) -> tensor<f32> loc("abs")
    return %0 : tensor<f32>
  }
  func.func private @plain(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "stablehlo.sqrt"(%arg0) : (tensor<f32>) -> tensor<f32> loc("sqrt")
    return %0 : tensor<f32>
  }
}

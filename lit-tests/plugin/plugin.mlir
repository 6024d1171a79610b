// The stock mlir-opt loads our passes from the plugin and runs them with options.
// RUN: mlir-opt --load-pass-plugin=%alpa_plugin --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(alpa-inline{entry=main})' %s | FileCheck %s
// RUN: mlir-opt --load-pass-plugin=%alpa_plugin --allow-unregistered-dialect \
// RUN:   -p 'builtin.module(alpa-inline)' %s | FileCheck %s
// RUN: not mlir-opt --load-pass-plugin=%alpa_plugin --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(alpa-inline{entry=nope})' %s 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK-LABEL: func.func public @main
// CHECK-NOT:     call
// CHECK:         "stablehlo.abs"
// CHECK-NOT:   func.func private
// ERR: error: entry function '@nope' not found (public functions: @main)
module {
  func.func public @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0 = func.call @f(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
  func.func private @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.abs"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

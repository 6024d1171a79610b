// alpa-opt accepts StableHLO/CHLO/Shardy ops without --allow-unregistered-dialect, and still
// takes the flag when given; the stock mlir-opt rejects them without it.
// RUN: alpa-opt %s | FileCheck %s
// RUN: alpa-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: not mlir-opt %s 2>&1 | FileCheck %s --check-prefix=STOCK

// CHECK: "chlo.square"
// CHECK: "sdy.sharding_constraint"
// STOCK: unregistered
func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "chlo.square"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "sdy.sharding_constraint"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

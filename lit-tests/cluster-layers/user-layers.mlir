// Layers the user marked with jax.named_scope("alpa_layer_<k>") (alpa_mlir.layers.layer(k))
// are kept: with layers=auto or layers=user the ops follow their scopes, unmarked ops the op
// before them; layers=N still runs Eq. 6. A marked layer that comes back after another is an
// error at the op where it does.
// RUN: alpa-opt --alpa-cluster-layers %s -o - 2>/dev/null | FileCheck %s
// RUN: alpa-opt --alpa-cluster-layers="layers=user" %s -o - 2>&1 | FileCheck %s --check-prefixes=CHECK,REMARK
// RUN: alpa-opt --alpa-cluster-layers="layers=1" %s -o - 2>/dev/null | FileCheck %s --check-prefix=EQ6
// RUN: not alpa-opt --alpa-cluster-layers %S/Inputs/user-layers-out-of-order.mlir 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not alpa-opt --alpa-cluster-layers="layers=user" %S/../inter-op-stage/invalid.mlir 2>&1 | FileCheck %s --check-prefix=NONE
// REMARK: remark: alpa-cluster-layers: 3 layers
// ORDER: user-layers-out-of-order.mlir{{.*}}error: user layer 0 (alpa_layer_0) appears again after layer 1: marked layers must be contiguous and in program order
// NONE: error: alpa-cluster-layers: layers=user needs ops traced under jax.named_scope("alpa_layer_<k>")
// CHECK-LABEL: func.func @main
// CHECK: "stablehlo.dot_general"{{.*}}alpa.layer = 0 : i64
// CHECK: "stablehlo.tanh"{{.*}}alpa.layer = 0 : i64
// CHECK: "stablehlo.dot_general"{{.*}}alpa.layer = 1 : i64
// CHECK: "stablehlo.tanh"{{.*}}alpa.layer = 1 : i64
// CHECK: "stablehlo.dot_general"{{.*}}alpa.layer = 2 : i64
// EQ6-COUNT-3: "stablehlo.dot_general"{{.*}}alpa.layer = 0 : i64
func.func @main(%x: tensor<8x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x64xf32>, %w3: tensor<64x64xf32>) -> tensor<8x64xf32> {
  %0 = "stablehlo.dot_general"(%x, %w1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32> loc("jit(f)/alpa_layer_4/dot_general")
  %1 = "stablehlo.tanh"(%0) : (tensor<8x64xf32>) -> tensor<8x64xf32> loc("jit(f)/tanh")
  %2 = "stablehlo.dot_general"(%1, %w2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32> loc("jit(f)/alpa_layer_5/dot_general")
  %3 = "stablehlo.tanh"(%2) : (tensor<8x64xf32>) -> tensor<8x64xf32> loc("jit(f)/alpa_layer_5/tanh")
  %4 = "stablehlo.dot_general"(%3, %w3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32> loc("jit(f)/alpa_layer_6/dot_general")
  return %4 : tensor<8x64xf32>
}

// An op whose attributes or shapes contradict it is an error at the op, not a panic; a bad
// mesh is an error of the pass. The test pass is alpa-opt's only: the plugin does not register it.
// RUN: alpa-opt --alpa-test-print-op-rules --verify-diagnostics %s -o /dev/null
// RUN: not alpa-opt --alpa-test-print-op-rules="mesh=2y4" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MESH
// RUN: not mlir-opt --load-pass-plugin=%alpa_plugin --allow-unregistered-dialect \
// RUN:   -p 'builtin.module(alpa-test-print-op-rules)' %s 2>&1 | FileCheck %s --check-prefix=PLUGIN

// MESH: error: alpa-test-print-op-rules: invalid device mesh: cannot parse mesh shape `2y4`
// PLUGIN: 'alpa-test-print-op-rules' does not refer to a registered pass

func.func @main(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{stablehlo.transpose: attribute `permutation`: dimension 5 out of range for rank 2}}
  %0 = "stablehlo.transpose"(%x) <{permutation = array<i64: 1, 5>}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
  // expected-error @+1 {{stablehlo.abs: operand 0 has rank 2, the result rank 1}}
  %1 = "stablehlo.abs"(%x) : (tensor<4x8xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

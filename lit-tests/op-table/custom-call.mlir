// custom_call: the Sharding marker passes its operand through; an unknown target, like an op
// the table does not know, gets the conservative rule (every dim its own need-replication
// factor, "not in the op table") and only the replicated strategy.
// RUN: alpa-opt --alpa-test-print-op-rules="mesh=2x2" %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark

// The Sharding custom call is an identity: its dims pass through.
// CHECK: remark: stablehlo.custom_call: ([i,j]) -> [i,j] {i=4, j=8};
// CHECK-SAME: 11 strategies on 2x2:
// CHECK-SAME: RR = RR | S1R = S1R | RS1 = RS1 | S0R = S0R |
// CHECK-SAME: S01R = S01R | S10R = S10R | S0S1 = S0S1 | RS0 = RS0 |
// CHECK-SAME: S1S0 = S1S0 | RS01 = RS01 | RS10 = RS10{{$}}

// An unknown custom call target: every dim its own need-replication factor.
// CHECK: remark: stablehlo.custom_call: ([i,j]) -> [k,l] {i=4, j=8, k=4, l=8}, need-replication {i,j,k,l}, not in the op table;
// CHECK-SAME: 1 strategy on 2x2:
// CHECK-SAME: RR = RR{{$}}

// An op of a dialect the table does not know: the same conservative rule.
// CHECK: remark: mydialect.frobnicate: ([i,j]) -> [k,l] {i=4, j=8, k=4, l=8}, need-replication {i,j,k,l}, not in the op table;
// CHECK-SAME: 1 strategy on 2x2:
// CHECK-SAME: RR = RR{{$}}

func.func @main(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = "stablehlo.custom_call"(%x) {call_target_name = "Sharding", mhlo.sharding = "{replicated}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "stablehlo.custom_call"(%x) {call_target_name = "my_kernel"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "mydialect.frobnicate"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

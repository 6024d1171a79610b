// Ops of fixed arity with more or fewer operands or results than StableHLO gives them are
// errors at the op, for every planning pass: the op rules read only the operands and results
// they need, so these were costed and planned as if well formed.
// RUN: alpa-opt --alpa-annotate-costs="summary=false" -split-input-file -verify-diagnostics %s
// RUN: alpa-opt --alpa-intra-op-shard="mesh=2x1" -split-input-file -verify-diagnostics %s

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{stablehlo.add: expects 2 operands, has 3}}
  %0 = "stablehlo.add"(%x, %x, %x) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{stablehlo.negate: expects 1 operand, has 2}}
  %0 = "stablehlo.negate"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{stablehlo.select: expects 3 operands, has 2}}
  %0 = "stablehlo.select"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A constant of two results, the second read by a reducer (it is copied into the region
// only by the inter-op pass; every pass reads the constant first).
func.func @main(%x: tensor<8xi1>) -> tensor<i1> {
  // expected-error @+1 {{stablehlo.constant: expects 1 result, has 2}}
  %c:2 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> (tensor<i1>, tensor<i1>)
  %0 = "stablehlo.reduce"(%x, %c#1) <{dimensions = array<i64: 0>}> ({
  ^bb0(%p: tensor<i1>, %q: tensor<i1>):
    %both = "stablehlo.and"(%p, %q) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    "stablehlo.return"(%both) : (tensor<i1>) -> ()
  }) : (tensor<8xi1>, tensor<i1>) -> tensor<i1>
  return %0 : tensor<i1>
}

// -----

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{stablehlo.iota: expects 1 result, has 2}}
  %0:2 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> (tensor<4xf32>, tensor<4xf32>)
  return %0#1 : tensor<4xf32>
}

// -----

func.func @main(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{stablehlo.batch_norm_training: expects 3 results, has 1}}
  %0 = "stablehlo.batch_norm_training"(%x, %x, %x) <{epsilon = 1.0e-5 : f32, feature_index = 1 : i64}> : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

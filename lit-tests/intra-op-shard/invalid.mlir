// RUN: alpa-opt --alpa-intra-op-shard="mesh=2x4" -split-input-file -verify-diagnostics %s

func.func @main(%a: tensor<8x4xf32>, %b: tensor<4x2xf32>) -> tensor<8x2xf32> {
  // expected-error @+1 {{missing attribute `dot_dimension_numbers`}}
  %0 = "stablehlo.dot_general"(%a, %b) : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

// expected-error @+1 {{argument #0 has dynamic shape tensor<?x4xf32>}}
func.func @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %arg0 : tensor<?x4xf32>
}

// -----

func.func @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{call to '@f' in the entry function: run alpa-inline first}}
  %0 = call @f(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
func.func private @f(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  return %arg0 : tensor<8x4xf32>
}

// -----

// An already sharded module would get a second mesh and a plan XLA does not run.
// expected-error @+1 {{alpa-intra-op-shard: the module is already partitioned for 8 devices (mhlo.num_partitions): shard the unpartitioned export}}
module attributes {mhlo.num_partitions = 8 : i32} {
  func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %0 = "stablehlo.add"(%a, %a) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}

// -----

module {
  // expected-error @+1 {{alpa-intra-op-shard: the module is already sharded (sdy.mesh @mesh): shard the unpartitioned export}}
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> : () -> ()
  func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %0 = "stablehlo.add"(%a, %a) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}

// -----

// Blocks after the first are not ignored: the entry must be a single block.
// expected-error @+1 {{function '@main' has 2 blocks: only a single-block body (StableHLO's structured control flow) can be planned}}
func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  "cf.br"()[^bb1] : () -> ()
^bb1:
  %0 = "stablehlo.add"(%a, %a) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

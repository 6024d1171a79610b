// A mesh without axes partitions nothing: JAX's export pins a typed PRNG key with a replicated
// sharding_constraint on `@empty_mesh`. The passes drop the mesh and every sharding naming it,
// then plan the step as unpartitioned.
// RUN: alpa-opt --alpa-intra-op-shard="mesh=2x4" %s | FileCheck %s
// RUN: alpa-opt --alpa-intra-op-shard="mesh=2x4" %s | FileCheck %s --check-prefix=GONE

// GONE-NOT: empty_mesh
// CHECK: "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}>
// CHECK-LABEL: func.func @main
// CHECK-SAME: %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh
// CHECK-SAME: %arg1: tensor<2xui32> {jax.buffer_donor = true, sdy.sharding = #sdy.sharding<@mesh, [{}]>}
// CHECK: "stablehlo.convert"(%arg1)
// CHECK-NOT: sdy.sharding_constraint{{.*}}ui32
module {
  "sdy.mesh"() <{mesh = #sdy.mesh<[]>, sym_name = "empty_mesh"}> : () -> ()
  func.func @main(%a: tensor<8x4xf32>, %key: tensor<2xui32> {jax.buffer_donor = true, sdy.sharding = #sdy.sharding<@empty_mesh, [{}]>}) -> (tensor<8x4xf32>, tensor<2xf32>) {
    %k = "sdy.sharding_constraint"(%key) <{sharding = #sdy.sharding<@empty_mesh, [{}]>}> : (tensor<2xui32>) -> tensor<2xui32>
    %f = "stablehlo.convert"(%k) : (tensor<2xui32>) -> tensor<2xf32>
    %0 = "stablehlo.add"(%a, %a) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0, %f : tensor<8x4xf32>, tensor<2xf32>
  }
}

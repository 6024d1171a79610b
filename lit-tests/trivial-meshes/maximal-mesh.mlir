// An op on a maximal mesh (JAX's form for host callbacks such as jax.debug.print) cannot run in
// a compiled plan: its Python function stays in the exporting process. Refused at the op; a mesh
// with axes is refused at its declaration.
// RUN: alpa-opt --alpa-intra-op-shard="mesh=2x4" -split-input-file -verify-diagnostics %s
// RUN: alpa-opt --alpa-inter-op-stage -split-input-file -verify-diagnostics %s

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<[], device_ids=[0]>, sym_name = "maximal_mesh_0"}> : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<[]>, sym_name = "empty_mesh"}> : () -> ()
  func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %0 = "stablehlo.add"(%a, %a) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    %s = "stablehlo.constant"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
    // expected-error @+1 {{this op is pinned to one device by a maximal Shardy mesh, as JAX exports host callbacks}}
    "stablehlo.custom_call"(%s) <{call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true}> {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<f32>) -> ()
    return %0 : tensor<8x4xf32>
  }
}

// -----

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<[]>, sym_name = "empty_mesh"}> : () -> ()
  // expected-error @+1 {{already}}
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=8]>, sym_name = "data"}> : () -> ()
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@data, [{"x"}, {}]>}) -> tensor<8x4xf32> {
    %0 = "stablehlo.add"(%a, %a) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}

// Hand-sharded with Shardy on a 2x4 mesh: data-parallel over "x" and the
// weight's output dim over "y"; the result is forced replicated, so XLA must
// all-gather it (the full result is f32[16,32], 2048 bytes).
"builtin.module"() <{sym_name = "sdy_dp_mp"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}], function_type = (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x64xf32>, %arg1: tensor<64x32xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %1 = "sdy.sharding_constraint"(%0) <{sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}> : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %2 = "stablehlo.tanh"(%1) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    "func.return"(%2) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

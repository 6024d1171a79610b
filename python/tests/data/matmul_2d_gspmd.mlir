// Hand-sharded on a 2x4 mesh (GSPMD strings): lhs [16,64] split rows over the
// mesh's first axis (2) and the contracting dim over its second axis (4); rhs
// [64,32] split on the contracting dim over the second axis, replicated over
// the first; result rows split over the first axis. XLA must all-reduce the
// f32[8,32] partial sums (1024 bytes) within each row of the mesh:
// groups {0,1,2,3} and {4,5,6,7}. A custom_call @Sharding pins the result.
"builtin.module"() <{sym_name = "mesh_2x4"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,4]<=[8]}"}, {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}], function_type = (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>, res_attrs = [{mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x64xf32>, %arg1: tensor<64x32xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %1 = "stablehlo.custom_call"(%0) <{call_target_name = "Sharding"}> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %2 = "stablehlo.tanh"(%1) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    "func.return"(%2) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

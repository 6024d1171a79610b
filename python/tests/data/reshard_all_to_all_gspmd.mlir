// Hand-sharded for 8 devices (GSPMD strings): the contracting dim of a matmul
// is split over all devices, the result is then pinned row-sharded
// ({devices=[8,1]}) and, after a tanh, column-sharded ({devices=[1,8]}).
// XLA on CPU finishes the dot with an all-reduce of f32[16,32] (2048 bytes;
// CPU has no reduce-scatter rewrite) and moves from row- to column-sharding
// with all-to-all.
"builtin.module"() <{sym_name = "reshard"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[1,8]<=[8]}"}, {mhlo.sharding = "{devices=[8,1]<=[8]}"}], function_type = (tensor<16x64xf32>, tensor<64x32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>), res_attrs = [{mhlo.sharding = "{devices=[8,1]<=[8]}"}, {mhlo.sharding = "{devices=[1,8]<=[8]}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x64xf32>, %arg1: tensor<64x32xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %1 = "stablehlo.custom_call"(%0) <{call_target_name = "Sharding"}> {mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %2 = "stablehlo.tanh"(%1) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %3 = "stablehlo.custom_call"(%2) <{call_target_name = "Sharding"}> {mhlo.sharding = "{devices=[1,8]<=[8]}"} : (tensor<16x32xf32>) -> tensor<16x32xf32>
    "func.return"(%2, %3) : (tensor<16x32xf32>, tensor<16x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

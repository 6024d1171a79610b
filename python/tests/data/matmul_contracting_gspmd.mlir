// Hand-sharded for 8 devices (GSPMD strings): a [16,64] x [64,32] matmul whose
// contracting dimension (64) is split over all 8 devices on both operands, and
// whose result is replicated. XLA must finish the dot with one all-reduce of
// the f32[16,32] partial sums (2048 bytes) over the group {0..7}.
"builtin.module"() <{sym_name = "contracting_sharded"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[1,8]<=[8]}"}, {mhlo.sharding = "{devices=[8,1]<=[8]}"}], function_type = (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>, res_attrs = [{mhlo.sharding = "{replicated}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x64xf32>, %arg1: tensor<64x32xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    "func.return"(%0) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

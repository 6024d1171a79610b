"builtin.module"() <{sym_name = "IrToHlo.264"}> ({
  "func.func"() <{function_type = (tensor<f32>, tensor<128xf32>, tensor<128x64xf32>, tensor<4x64xf32>, tensor<128x128xf32>, tensor<128xf32>, tensor<10x128xf32>, tensor<10xf32>, tensor<4xi64>) -> (tensor<128x64xf32>, tensor<128xf32>, tensor<128x128xf32>, tensor<128xf32>, tensor<10x128xf32>, tensor<10xf32>, tensor<f32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<f32>, %arg1: tensor<128xf32>, %arg2: tensor<128x64xf32>, %arg3: tensor<4x64xf32>, %arg4: tensor<128x128xf32>, %arg5: tensor<128xf32>, %arg6: tensor<10x128xf32>, %arg7: tensor<10xf32>, %arg8: tensor<4xi64>):
    %0 = "stablehlo.constant"() <{value = dense<0.398942292> : tensor<4x128xf32>}> : () -> tensor<4x128xf32>
    %1 = "stablehlo.constant"() <{value = dense<-5.000000e-01> : tensor<4x128xf32>}> : () -> tensor<4x128xf32>
    %2 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<4x128xf32>}> : () -> tensor<4x128xf32>
    %3 = "stablehlo.constant"() <{value = dense<0.707106769> : tensor<4x128xf32>}> : () -> tensor<4x128xf32>
    %4 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<4x128xf32>}> : () -> tensor<4x128xf32>
    %5 = "stablehlo.constant"() <{value = dense<-100> : tensor<4xi64>}> : () -> tensor<4xi64>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<4x10xf32>}> : () -> tensor<4x10xf32>
    %7 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<4x10xf32>}> : () -> tensor<4x10xf32>
    %8 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.transpose"(%arg3) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[64,4]{0,1}"} : (tensor<4x64xf32>) -> tensor<64x4xf32>
    %12 = "stablehlo.broadcast_in_dim"(%arg8) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xi64>) -> tensor<4x10xi64>
    %13 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<10xi64>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64: 1>}> : (tensor<10xi64>) -> tensor<4x10xi64>
    %15 = "stablehlo.compare"(%12, %14) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x10xi64>, tensor<4x10xi64>) -> tensor<4x10xi1>
    %16 = "stablehlo.select"(%15, %7, %6) : (tensor<4x10xi1>, tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %17 = "stablehlo.negate"(%16) : (tensor<4x10xf32>) -> tensor<4x10xf32>
    %18 = "stablehlo.compare"(%arg8, %5) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xi1>) -> tensor<4x10xi1>
    %20 = "stablehlo.select"(%19, %7, %6) : (tensor<4x10xi1>, tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %21 = "stablehlo.multiply"(%20, %16) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %22 = "stablehlo.multiply"(%17, %21) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %23 = "stablehlo.reduce"(%21, %9) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg23: tensor<f32>, %arg24: tensor<f32>):
      %122 = "stablehlo.add"(%arg23, %arg24) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%122) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<f32>
    %24 = "stablehlo.compare"(%23, %9) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %25 = "stablehlo.select"(%24, %23, %10) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x10xf32>
    %27 = "stablehlo.divide"(%22, %26) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %28 = "stablehlo.transpose"(%arg2) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[64,128]{0,1}"} : (tensor<128x64xf32>) -> tensor<64x128xf32>
    %29 = "stablehlo.dot_general"(%arg3, %28) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x64xf32>, tensor<64x128xf32>) -> tensor<4x128xf32>
    %30 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<128xf32>) -> tensor<4x128xf32>
    %31 = "stablehlo.add"(%29, %30) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %32 = "stablehlo.multiply"(%31, %4) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %33 = "stablehlo.multiply"(%31, %3) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %34 = "stablehlo.custom_call"(%33) <{call_target_name = "mhlo.erf"}> {mhlo.attributes = {}, mhlo.version = 1 : i64} : (tensor<4x128xf32>) -> tensor<4x128xf32>
    %35 = "stablehlo.add"(%34, %2) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %36 = "stablehlo.multiply"(%32, %35) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %37 = "stablehlo.transpose"(%arg4) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,128]{0,1}"} : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %38 = "stablehlo.dot_general"(%36, %37) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x128xf32>, tensor<128x128xf32>) -> tensor<4x128xf32>
    %39 = "stablehlo.broadcast_in_dim"(%arg5) <{broadcast_dimensions = array<i64: 1>}> : (tensor<128xf32>) -> tensor<4x128xf32>
    %40 = "stablehlo.add"(%38, %39) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %41 = "stablehlo.multiply"(%40, %4) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %42 = "stablehlo.multiply"(%40, %3) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %43 = "stablehlo.custom_call"(%42) <{call_target_name = "mhlo.erf"}> {mhlo.attributes = {}, mhlo.version = 1 : i64} : (tensor<4x128xf32>) -> tensor<4x128xf32>
    %44 = "stablehlo.add"(%43, %2) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %45 = "stablehlo.multiply"(%41, %44) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %46 = "stablehlo.transpose"(%arg6) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,10]{0,1}"} : (tensor<10x128xf32>) -> tensor<128x10xf32>
    %47 = "stablehlo.dot_general"(%45, %46) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x128xf32>, tensor<128x10xf32>) -> tensor<4x10xf32>
    %48 = "stablehlo.broadcast_in_dim"(%arg7) <{broadcast_dimensions = array<i64: 1>}> : (tensor<10xf32>) -> tensor<4x10xf32>
    %49 = "stablehlo.add"(%47, %48) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %50 = "stablehlo.reduce"(%49, %8) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg21: tensor<f32>, %arg22: tensor<f32>):
      %121 = "stablehlo.maximum"(%arg21, %arg22) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%121) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %51 = "stablehlo.broadcast_in_dim"(%50) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x10xf32>
    %52 = "stablehlo.subtract"(%49, %51) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %53 = "stablehlo.exponential"(%52) : (tensor<4x10xf32>) -> tensor<4x10xf32>
    %54 = "stablehlo.reduce"(%53, %9) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg19: tensor<f32>, %arg20: tensor<f32>):
      %120 = "stablehlo.add"(%arg19, %arg20) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%120) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %55 = "stablehlo.log"(%54) : (tensor<4xf32>) -> tensor<4xf32>
    %56 = "stablehlo.broadcast_in_dim"(%55) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x10xf32>
    %57 = "stablehlo.subtract"(%52, %56) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %58 = "stablehlo.exponential"(%57) : (tensor<4x10xf32>) -> tensor<4x10xf32>
    %59 = "stablehlo.reduce"(%27, %9) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg17: tensor<f32>, %arg18: tensor<f32>):
      %119 = "stablehlo.add"(%arg17, %arg18) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%119) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %60 = "stablehlo.broadcast_in_dim"(%59) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x10xf32>
    %61 = "stablehlo.multiply"(%58, %60) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %62 = "stablehlo.subtract"(%27, %61) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %63 = "stablehlo.dot_general"(%62, %arg6) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x10xf32>, tensor<10x128xf32>) -> tensor<4x128xf32>
    %64 = "stablehlo.multiply"(%44, %4) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %65 = "stablehlo.multiply"(%40, %40) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %66 = "stablehlo.multiply"(%65, %1) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %67 = "stablehlo.exponential"(%66) : (tensor<4x128xf32>) -> tensor<4x128xf32>
    %68 = "stablehlo.multiply"(%40, %67) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %69 = "stablehlo.multiply"(%68, %0) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %70 = "stablehlo.add"(%64, %69) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %71 = "stablehlo.multiply"(%63, %70) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %72 = "stablehlo.dot_general"(%71, %arg4) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x128xf32>, tensor<128x128xf32>) -> tensor<4x128xf32>
    %73 = "stablehlo.multiply"(%35, %4) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %74 = "stablehlo.multiply"(%31, %31) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %75 = "stablehlo.multiply"(%74, %1) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %76 = "stablehlo.exponential"(%75) : (tensor<4x128xf32>) -> tensor<4x128xf32>
    %77 = "stablehlo.multiply"(%31, %76) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %78 = "stablehlo.multiply"(%77, %0) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %79 = "stablehlo.add"(%73, %78) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %80 = "stablehlo.multiply"(%72, %79) : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    %81 = "stablehlo.dot_general"(%11, %80) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x4xf32>, tensor<4x128xf32>) -> tensor<64x128xf32>
    %82 = "stablehlo.transpose"(%81) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,64]{0,1}"} : (tensor<64x128xf32>) -> tensor<128x64xf32>
    %83 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x64xf32>
    %84 = "stablehlo.multiply"(%82, %83) : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x64xf32>
    %85 = "stablehlo.add"(%arg2, %84) : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x64xf32>
    %86 = "stablehlo.reduce"(%80, %9) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg15: tensor<f32>, %arg16: tensor<f32>):
      %118 = "stablehlo.add"(%arg15, %arg16) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%118) : (tensor<f32>) -> ()
    }) : (tensor<4x128xf32>, tensor<f32>) -> tensor<128xf32>
    %87 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128xf32>
    %88 = "stablehlo.multiply"(%86, %87) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %89 = "stablehlo.add"(%arg1, %88) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %90 = "stablehlo.transpose"(%36) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,4]{0,1}"} : (tensor<4x128xf32>) -> tensor<128x4xf32>
    %91 = "stablehlo.dot_general"(%90, %71) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<128x4xf32>, tensor<4x128xf32>) -> tensor<128x128xf32>
    %92 = "stablehlo.transpose"(%91) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,128]{0,1}"} : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %93 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x128xf32>
    %94 = "stablehlo.multiply"(%92, %93) : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %95 = "stablehlo.add"(%arg4, %94) : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %96 = "stablehlo.reduce"(%71, %9) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %117 = "stablehlo.add"(%arg13, %arg14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%117) : (tensor<f32>) -> ()
    }) : (tensor<4x128xf32>, tensor<f32>) -> tensor<128xf32>
    %97 = "stablehlo.multiply"(%96, %87) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %98 = "stablehlo.add"(%arg5, %97) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %99 = "stablehlo.transpose"(%45) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,4]{0,1}"} : (tensor<4x128xf32>) -> tensor<128x4xf32>
    %100 = "stablehlo.dot_general"(%99, %62) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<128x4xf32>, tensor<4x10xf32>) -> tensor<128x10xf32>
    %101 = "stablehlo.transpose"(%100) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[10,128]{0,1}"} : (tensor<128x10xf32>) -> tensor<10x128xf32>
    %102 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10x128xf32>
    %103 = "stablehlo.multiply"(%101, %102) : (tensor<10x128xf32>, tensor<10x128xf32>) -> tensor<10x128xf32>
    %104 = "stablehlo.add"(%arg6, %103) : (tensor<10x128xf32>, tensor<10x128xf32>) -> tensor<10x128xf32>
    %105 = "stablehlo.reduce"(%62, %9) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %116 = "stablehlo.add"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%116) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<10xf32>
    %106 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %107 = "stablehlo.multiply"(%105, %106) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %108 = "stablehlo.add"(%arg7, %107) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %109 = "stablehlo.compare"(%16, %7) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xi1>
    %110 = "stablehlo.multiply"(%17, %57) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %111 = "stablehlo.select"(%109, %6, %110) : (tensor<4x10xi1>, tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %112 = "stablehlo.multiply"(%111, %21) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %113 = "stablehlo.reduce"(%112, %9) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %115 = "stablehlo.add"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%115) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<f32>
    %114 = "stablehlo.divide"(%113, %23) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%85, %89, %95, %98, %104, %108, %114) : (tensor<128x64xf32>, tensor<128xf32>, tensor<128x128xf32>, tensor<128xf32>, tensor<10x128xf32>, tensor<10xf32>, tensor<f32>) -> ()
  }) : () -> ()
}) {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} : () -> ()


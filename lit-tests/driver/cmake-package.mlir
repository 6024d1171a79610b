// A CMake build finds the plugin and the driver through cmake/AlpaMLIRConfig.cmake, and links
// the passes into its own tool (lit-tests/cmake-consumer/consumer-opt.cpp calls
// alpa::registerPasses() from <alpa/AlpaPasses.h>), which then runs them.
// RUN: rm -rf %t && cmake -S %S/../cmake-consumer -B %t -DAlpaMLIR_DIR=%S/../../cmake \
// RUN:   -DALPA_MLIR_BUILD_DIR=$(dirname %alpa_plugin) | FileCheck %s
// RUN: cmake --build %t > %t.build.log 2>&1 || (cat %t.build.log; false)
// RUN: %t/consumer-opt --allow-unregistered-dialect --alpa-inline %s | FileCheck %s --check-prefix=INL
// RUN: %t/consumer-opt --allow-unregistered-dialect %s \
// RUN:   --pass-pipeline='builtin.module(alpa-inline,alpa-intra-op-shard{mesh=2x1})' | FileCheck %s --check-prefix=SHARD
// RUN: not %t/consumer-opt --allow-unregistered-dialect --alpa-inline='entry=nope' %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERR
// RUN: %t/consumer-opt --help | FileCheck %s --check-prefix=HELP

// CHECK: alpa plugin: {{.*}}/libalpa_mlir.so
// CHECK: alpa driver: {{.*}}/alpa-opt

// INL-LABEL: func.func public @main
// INL-NOT:     call
// INL:         "stablehlo.abs"
// INL-NOT:   func.func private

// SHARD: mhlo.num_partitions = 2
// SHARD: "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>
// SHARD: func.func public @main(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{{.*}}]>})

// ERR: error: entry function '@nope' not found (public functions: @main)

// HELP: --alpa-intra-op-shard
// HELP:   --mesh=<string> {{.*}}(default: "")
module {
  func.func public @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0 = func.call @f(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
  func.func private @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.abs"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

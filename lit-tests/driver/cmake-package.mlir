// A CMake build finds the plugin and the driver through cmake/AlpaMLIRConfig.cmake.
// RUN: rm -rf %t && cmake -S %S/../cmake-consumer -B %t -DAlpaMLIR_DIR=%S/../../cmake \
// RUN:   -DALPA_MLIR_BUILD_DIR=$(dirname %alpa_plugin) | FileCheck %s
// CHECK: alpa plugin: {{.*}}/libalpa_mlir.so
// CHECK: alpa driver: {{.*}}/alpa-opt

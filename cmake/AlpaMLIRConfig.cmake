# find_package(AlpaMLIR) support for builds that use alpa-mlir's passes.
#
#   set(AlpaMLIR_DIR /path/to/alpa-mlir/cmake)     # or add it to CMAKE_PREFIX_PATH
#   find_package(AlpaMLIR REQUIRED)
#   # AlpaMLIR::Plugin  - the pass plugin for `mlir-opt --load-pass-plugin` (shared library)
#   # AlpaMLIR::Passes  - the same library to link, with its header <alpa/AlpaPasses.h>:
#   #                     call alpa::registerPasses() in your own *-opt tool
#   # AlpaMLIR::alpa-opt - the driver executable
#   # ALPA_MLIR_PLUGIN, ALPA_MLIR_OPT, ALPA_MLIR_INCLUDE_DIR, ALPA_MLIR_LLVM_PREFIX - their paths
#
# ALPA_MLIR_BUILD_DIR selects the cargo output directory (default: <repo>/target/release).

get_filename_component(_alpa_repo "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT ALPA_MLIR_BUILD_DIR)
  set(ALPA_MLIR_BUILD_DIR "${_alpa_repo}/target/release")
endif()
set(ALPA_MLIR_PLUGIN "${ALPA_MLIR_BUILD_DIR}/libalpa_mlir.so")
set(ALPA_MLIR_OPT "${ALPA_MLIR_BUILD_DIR}/alpa-opt")
set(ALPA_MLIR_INCLUDE_DIR "${_alpa_repo}/cpp/public")
set(ALPA_MLIR_LLVM_PREFIX "/usr/lib/llvm-22")

foreach(_alpa_file IN ITEMS "${ALPA_MLIR_PLUGIN}" "${ALPA_MLIR_OPT}")
  if(NOT EXISTS "${_alpa_file}")
    set(AlpaMLIR_FOUND FALSE)
    set(AlpaMLIR_NOT_FOUND_MESSAGE "${_alpa_file} is missing: run `cargo build --release` in ${_alpa_repo}")
    return()
  endif()
endforeach()

if(NOT TARGET AlpaMLIR::Plugin)
  add_library(AlpaMLIR::Plugin SHARED IMPORTED)
  set_target_properties(AlpaMLIR::Plugin PROPERTIES
    IMPORTED_LOCATION "${ALPA_MLIR_PLUGIN}"
    IMPORTED_NO_SONAME TRUE)
endif()
# The library shares MLIR's pass registry only with programs that use the same shared libMLIR.so.
if(NOT TARGET AlpaMLIR::Passes)
  add_library(AlpaMLIR::Passes SHARED IMPORTED)
  set_target_properties(AlpaMLIR::Passes PROPERTIES
    IMPORTED_LOCATION "${ALPA_MLIR_PLUGIN}"
    IMPORTED_NO_SONAME TRUE
    INTERFACE_INCLUDE_DIRECTORIES "${ALPA_MLIR_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${ALPA_MLIR_LLVM_PREFIX}/lib/libMLIR.so")
endif()
if(NOT TARGET AlpaMLIR::alpa-opt)
  add_executable(AlpaMLIR::alpa-opt IMPORTED)
  set_target_properties(AlpaMLIR::alpa-opt PROPERTIES IMPORTED_LOCATION "${ALPA_MLIR_OPT}")
endif()
set(AlpaMLIR_FOUND TRUE)

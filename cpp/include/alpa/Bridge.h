// C++ functions that the Rust side calls through the cxx bridge (src/passes/ffi.rs).
#pragma once

#include "rust/cxx.h"
#include <cstddef>
#include <cstdint>

namespace alpa::ffi {

// Registers every alpa pass (with its options) in MLIR's global pass registry.
void register_alpa_passes();

// Registers the test-only passes (TestPasses.td); calling it again does nothing.
void register_test_passes();

// Runs the mlir-opt driver with every upstream dialect and pass plus ours.
int32_t alpa_opt_main(const rust::Vec<rust::String> &args);

// Emits a diagnostic at the location of `op` (an mlir::Operation *):
// severity 0 = error, 1 = warning, 2 = remark.
void emit_diagnostic(std::size_t location, std::uint8_t severity, rust::Str message);

// All attributes of `op`, inherent (properties) and discardable, as an mlir::DictionaryAttr
// (its opaque pointer). The C API lists only discardable ones for ops with properties.
std::size_t op_attribute_dictionary(std::size_t op);

} // namespace alpa::ffi

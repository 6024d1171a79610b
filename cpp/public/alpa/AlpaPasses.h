// alpa-mlir's passes for tools that link them: a team's own `*-opt` driver (or any program with
// a PassManager) links libalpa_mlir.so and calls alpa::registerPasses() once before parsing its
// command line or a pass pipeline. CMake: find_package(AlpaMLIR), link AlpaMLIR::Passes.
//
// The library uses MLIR's shared libMLIR.so (LLVM 22): link the same one (CMake's `MLIR`
// target), not MLIR's static libraries, so both see one pass registry. StableHLO, CHLO and Shardy
// are not registered dialects in MLIR 22: run the passes with --allow-unregistered-dialect
// (or MlirOptMainConfig::allowUnregisteredDialects).
#ifndef ALPA_PASSES_H
#define ALPA_PASSES_H

#ifdef __cplusplus
extern "C" {
#endif

// Registers every alpa pass (alpa-inline, alpa-intra-op-shard, alpa-auto-shard, ...) with its
// options in MLIR's global pass registry. Calling it again does nothing.
void alpaRegisterPasses(void);

#ifdef __cplusplus
} // extern "C"

namespace alpa {
inline void registerPasses() { alpaRegisterPasses(); }
} // namespace alpa
#endif

#endif // ALPA_PASSES_H

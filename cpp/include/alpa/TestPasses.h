// The test-only alpa passes (TestPasses.td). Only alpa-opt registers them.
#pragma once

namespace alpa {

// Registers the test passes (alpa-test-print-op-rules) in MLIR's global pass registry;
// calling it again does nothing.
void registerTestPasses();

} // namespace alpa

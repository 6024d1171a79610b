// alpa-opt: MLIR's mlir-opt driver with every upstream dialect and pass plus the alpa passes
// and the alpa test passes.
#include "alpa/Bridge.h"
#include "alpa/TestPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include <string>
#include <vector>

namespace alpa::ffi {

int32_t alpa_opt_main(const rust::Vec<rust::String> &args) {
  std::vector<std::string> storage;
  for (const auto &arg : args)
    storage.emplace_back(arg.data(), arg.size());
  // StableHLO, CHLO and Shardy are not registered dialects in MLIR 22: accept their ops
  // without making every user pass --allow-unregistered-dialect.
  bool allowsUnregistered = false;
  for (const auto &arg : storage)
    if (arg == "--allow-unregistered-dialect" || arg == "-allow-unregistered-dialect")
      allowsUnregistered = true;
  if (!allowsUnregistered && !storage.empty())
    storage.insert(storage.begin() + 1, "--allow-unregistered-dialect");

  std::vector<char *> argv;
  for (auto &arg : storage)
    argv.push_back(arg.data());
  argv.push_back(nullptr);

  mlir::registerAllPasses();
  register_alpa_passes();
  alpa::registerTestPasses(); // test passes: alpa-opt only, never the plugin
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      static_cast<int>(storage.size()), argv.data(),
      "alpa-opt: Alpa's auto-parallelization passes over StableHLO\n", registry));
}

} // namespace alpa::ffi

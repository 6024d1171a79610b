// A team's own mlir-opt-style tool: its dialects, plus alpa-mlir's passes linked in.
#include "alpa/AlpaPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  alpa::registerPasses();
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "consumer-opt: a downstream tool with alpa's passes\n", registry));
}

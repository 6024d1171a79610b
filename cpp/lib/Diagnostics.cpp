// Diagnostics that Rust emits at an op's location.
#include "alpa/Bridge.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"

namespace alpa::ffi {

void emit_op_diagnostic(std::size_t op, std::uint8_t severity, rust::Str message) {
  auto *operation = reinterpret_cast<mlir::Operation *>(op);
  llvm::StringRef text(message.data(), message.size());
  switch (severity) {
  case 0:
    operation->emitError() << text;
    break;
  case 1:
    operation->emitWarning() << text;
    break;
  default:
    operation->emitRemark() << text;
    break;
  }
}

} // namespace alpa::ffi

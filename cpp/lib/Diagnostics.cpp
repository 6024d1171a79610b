// Helpers the C API lacks: remarks and warnings at a location, an op's attribute dictionary.
#include "alpa/Bridge.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

namespace alpa::ffi {

void emit_diagnostic(std::size_t at, std::uint8_t severity, rust::Str message) {
  llvm::StringRef text(message.data(), message.size());
  // Emitted at a location rather than on an op, so that MLIR does not append a dump of the op
  // (for a function: the whole model) to every diagnostic.
  mlir::Location location = mlir::Location::getFromOpaquePointer(reinterpret_cast<const void *>(at));
  switch (severity) {
  case 0:
    mlir::emitError(location) << text;
    break;
  case 1:
    mlir::emitWarning(location) << text;
    break;
  default:
    mlir::emitRemark(location) << text;
    break;
  }
}

std::size_t op_attribute_dictionary(std::size_t op) {
  auto *operation = reinterpret_cast<mlir::Operation *>(op);
  mlir::NamedAttrList attributes(operation->getAttrDictionary());
  // An unregistered op keeps its `<{...}>` properties as one dictionary, outside the above.
  if (!operation->isRegistered())
    if (auto properties = llvm::dyn_cast_or_null<mlir::DictionaryAttr>(
            operation->getPropertiesAsAttribute()))
      for (const mlir::NamedAttribute &property : properties)
        attributes.set(property.getName(), property.getValue());
  mlir::Attribute dictionary = attributes.getDictionary(operation->getContext());
  return reinterpret_cast<std::size_t>(dictionary.getAsOpaquePointer());
}

} // namespace alpa::ffi

// Test pass classes generated from TestPasses.td; each hands its module and options to Rust.
#include "alpa/TestPasses.h"
#include "alpa/Bridge.h"
#include "alpa-mlir/src/passes/ffi.rs.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <string>

namespace alpa {
#define GEN_PASS_DECL
#define GEN_PASS_DEF_ALPATESTPRINTOPRULES
#define GEN_PASS_REGISTRATION
#include "alpa/TestPasses.h.inc"
} // namespace alpa

namespace {

alpa::ffi::PassOption textOption(const char *name, const std::string &value) {
  alpa::ffi::PassOption option;
  option.name = rust::String(name);
  option.value = rust::String(value);
  return option;
}

struct AlpaTestPrintOpRules : public alpa::impl::AlpaTestPrintOpRulesBase<AlpaTestPrintOpRules> {
  using AlpaTestPrintOpRulesBase::AlpaTestPrintOpRulesBase;
  void runOnOperation() override {
    rust::Vec<alpa::ffi::PassOption> options;
    options.push_back(textOption("entry", entry));
    options.push_back(textOption("mesh", mesh));
    auto handle = reinterpret_cast<std::size_t>(getOperation().getOperation());
    llvm::StringRef name = getArgument();
    if (!alpa::ffi::run_rust_pass(rust::Str(name.data(), name.size()), handle, options))
      signalPassFailure();
  }
};

} // namespace

namespace alpa {

void registerTestPasses() {
  static bool registered = false;
  if (registered)
    return;
  registered = true;
  registerAlpaTestPasses();
}

} // namespace alpa

// Pass classes generated from Passes.td; each collects its option values and runs in Rust.
#include "alpa/Bridge.h"
#include "alpa-mlir/src/passes/ffi.rs.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace alpa {
#define GEN_PASS_DECL
#define GEN_PASS_DEF_ALPAINLINE
#define GEN_PASS_DEF_ALPAUNROLLLOOPS
#define GEN_PASS_DEF_ALPAANNOTATECOSTS
#define GEN_PASS_DEF_ALPAINTRAOPSHARD
#define GEN_PASS_DEF_ALPACLUSTERLAYERS
#define GEN_PASS_DEF_ALPAINTEROPSTAGE
#define GEN_PASS_DEF_ALPAAUTOSHARD
#define GEN_PASS_DEF_ALPACROSSMESHRESHARDING
#define GEN_PASS_DEF_ALPALOWERTRANSFERS
#define GEN_PASS_DEF_ALPATESTPANIC
#define GEN_PASS_REGISTRATION
#include "alpa/Passes.h.inc"
} // namespace alpa

namespace {

class OptionList {
public:
  template <typename T> OptionList &add(const char *name, const T &value) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << value;
    os.flush();
    alpa::ffi::PassOption option;
    option.name = rust::String(name);
    option.value = rust::String(text);
    options.push_back(std::move(option));
    return *this;
  }
  OptionList &add(const char *name, bool value) { return add(name, value ? "true" : "false"); }
  // Forwards an option only when the user gave it, so Rust can tell a default from a choice.
  template <typename T> OptionList &addIfSet(const char *name, const mlir::Pass::Option<T> &option) {
    return option.hasValue() ? add(name, static_cast<const T &>(option)) : *this;
  }
  rust::Vec<alpa::ffi::PassOption> options;
};

// Hands the module and the options to the Rust implementation of `passName`.
void runInRust(mlir::Pass &pass, mlir::ModuleOp module, llvm::StringRef passName,
               const OptionList &options, llvm::function_ref<void()> signalFailure) {
  (void)pass;
  auto handle = reinterpret_cast<std::size_t>(module.getOperation());
  if (!alpa::ffi::run_rust_pass(rust::Str(passName.data(), passName.size()), handle,
                                options.options))
    signalFailure();
}

struct AlpaInline : public alpa::impl::AlpaInlineBase<AlpaInline> {
  using AlpaInlineBase::AlpaInlineBase;
  void runOnOperation() override {
    OptionList options;
    options.add("entry", std::string(entry));
    runInRust(*this, getOperation(), getArgument(), options, [&] { signalPassFailure(); });
  }
};

struct AlpaUnrollLoops : public alpa::impl::AlpaUnrollLoopsBase<AlpaUnrollLoops> {
  using AlpaUnrollLoopsBase::AlpaUnrollLoopsBase;
  void runOnOperation() override {
    OptionList options;
    options.add("entry", std::string(entry)).add("max-ops", static_cast<int64_t>(maxOps));
    runInRust(*this, getOperation(), getArgument(), options, [&] { signalPassFailure(); });
  }
};

struct AlpaAnnotateCosts : public alpa::impl::AlpaAnnotateCostsBase<AlpaAnnotateCosts> {
  using AlpaAnnotateCostsBase::AlpaAnnotateCostsBase;
  void runOnOperation() override {
    OptionList options;
    options.add("entry", std::string(entry))
        .add("summary", static_cast<bool>(summary))
        .add("cluster", std::string(cluster));
    runInRust(*this, getOperation(), getArgument(), options, [&] { signalPassFailure(); });
  }
};

struct AlpaIntraOpShard : public alpa::impl::AlpaIntraOpShardBase<AlpaIntraOpShard> {
  using AlpaIntraOpShardBase::AlpaIntraOpShardBase;
  void runOnOperation() override {
    OptionList options;
    options.add("entry", std::string(entry))
        .add("mesh", std::string(mesh))
        .add("cluster", std::string(cluster))
        .add("alpha", std::string(alpha))
        .add("beta", std::string(beta))
        .add("memory-budget", std::string(memoryBudget))
        .add("format", std::string(format))
        .add("time-limit", static_cast<double>(timeLimit))
        .add("force-batch-dim-to-mesh-dim", static_cast<int>(forceBatchDimToMeshDim))
        .add("allow-replicated-parameters", static_cast<bool>(allowReplicatedParameters))
        .add("logical-mesh", std::string(logicalMesh))
        .add("merge-trivial-ops", static_cast<bool>(mergeTrivialOps))
        .add("prefer-reduce-scatter", static_cast<bool>(preferReduceScatter))
        .add("report", std::string(report))
        .add("donation", std::string(donation))
        .add("unroll-loops", static_cast<bool>(unrollLoops));
    runInRust(*this, getOperation(), getArgument(), options, [&] { signalPassFailure(); });
  }
};

struct AlpaClusterLayers : public alpa::impl::AlpaClusterLayersBase<AlpaClusterLayers> {
  using AlpaClusterLayersBase::AlpaClusterLayersBase;
  void runOnOperation() override {
    OptionList options;
    options.add("entry", std::string(entry))
        .add("layers", std::string(layers))
        .addIfSet("delta", delta)
        .add("devices", static_cast<int>(devices))
        .add("donation", std::string(donation));
    runInRust(*this, getOperation(), getArgument(), options, [&] { signalPassFailure(); });
  }
};

// The options alpa-inter-op-stage and alpa-auto-shard share (a macro: the generated option
// members are protected, so only the pass's own member functions can read them).
#define ALPA_INTER_OP_STAGE_OPTIONS(options)                                                      \
  options.add("entry", std::string(entry))                                                        \
      .add("cluster", std::string(cluster))                                                       \
      .add("microbatches", std::string(microbatches))                                             \
      .add("max-microbatches", static_cast<int>(maxMicrobatches))                                 \
      .add("split-batch", static_cast<bool>(splitBatch))                                          \
      .add("cross-stage-cost", std::string(crossStageCost))                                       \
      .add("layers", std::string(layers))                                                         \
      .addIfSet("delta", delta)                                                   \
      .add("epsilon", static_cast<double>(epsilon))                                               \
      .add("imbalance-tolerance", static_cast<double>(imbalanceTolerance))                        \
      .add("submesh-shapes", std::string(submeshShapes))                                          \
      .add("schedule", std::string(schedule))                                                     \
      .add("time-limit", static_cast<double>(timeLimit))                                          \
      .add("threads", static_cast<int>(threads))                                                  \
      .add("sharded-params-variant", static_cast<bool>(shardedParamsVariant))                     \
      .add("compose-stages", static_cast<int>(composeStages))                                     \
      .add("report", std::string(report))                                                         \
      .add("report-html", std::string(reportHtml))                                                \
      .add("slice", static_cast<bool>(slice))                                                     \
      .add("shardings", static_cast<bool>(shardings))                                             \
      .add("baselines", static_cast<bool>(baselines))                                             \
      .add("transfers", static_cast<bool>(transfers))                                             \
      .add("gradient-accumulation", std::string(gradientAccumulation))                            \
      .add("donation", std::string(donation))                                                    \
      .add("transfer-mode", std::string(transferMode))                                            \
      .add("lower-transfers", static_cast<bool>(lowerTransfers))                                  \
      .add("unroll-loops", static_cast<bool>(unrollLoops))

struct AlpaInterOpStage : public alpa::impl::AlpaInterOpStageBase<AlpaInterOpStage> {
  using AlpaInterOpStageBase::AlpaInterOpStageBase;
  void runOnOperation() override {
    OptionList options;
    ALPA_INTER_OP_STAGE_OPTIONS(options);
    runInRust(*this, getOperation(), getArgument(), options, [&] { signalPassFailure(); });
  }
};

struct AlpaAutoShard : public alpa::impl::AlpaAutoShardBase<AlpaAutoShard> {
  using AlpaAutoShardBase::AlpaAutoShardBase;
  void runOnOperation() override {
    OptionList options;
    ALPA_INTER_OP_STAGE_OPTIONS(options);
    runInRust(*this, getOperation(), getArgument(), options, [&] { signalPassFailure(); });
  }
};

struct AlpaCrossMeshResharding
    : public alpa::impl::AlpaCrossMeshReshardingBase<AlpaCrossMeshResharding> {
  using AlpaCrossMeshReshardingBase::AlpaCrossMeshReshardingBase;
  void runOnOperation() override {
    OptionList options;
    options.add("cluster", std::string(cluster)).add("mode", std::string(mode)).add("report", std::string(report));
    runInRust(*this, getOperation(), getArgument(), options, [&] { signalPassFailure(); });
  }
};

struct AlpaLowerTransfers : public alpa::impl::AlpaLowerTransfersBase<AlpaLowerTransfers> {
  using AlpaLowerTransfersBase::AlpaLowerTransfersBase;
  void runOnOperation() override {
    OptionList options;
    runInRust(*this, getOperation(), getArgument(), options, [&] { signalPassFailure(); });
  }
};

struct AlpaTestPanic : public alpa::impl::AlpaTestPanicBase<AlpaTestPanic> {
  using AlpaTestPanicBase::AlpaTestPanicBase;
  void runOnOperation() override {
    OptionList options;
    options.add("message", std::string(message));
    runInRust(*this, getOperation(), getArgument(), options, [&] { signalPassFailure(); });
  }
};

} // namespace

namespace alpa::ffi {

void register_alpa_passes() {
  static bool registered = false;
  if (registered)
    return;
  registered = true;
  alpa::registerAlpaPasses();
}

} // namespace alpa::ffi

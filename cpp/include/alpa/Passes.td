// The alpa passes, declared the MLIR way so that they take real pass options
// (`alpa-x{opt=value}` in a pipeline, `--alpa-x="opt=value"` on the command line) and show in
// --help. Each pass hands its module and option values to Rust (src/passes/). This file is the
// only declaration of the options: build.rs generates the C++ pass classes that forward them,
// the Rust option structs (src/pass_options.rs) and README's option table from it.

#ifndef ALPA_PASSES
#define ALPA_PASSES

include "mlir/Pass/PassBase.td"
include "alpa/AlpaOption.td"

// How the planners learn which arguments a train step updates (src/ir/state_aliases.rs).
defvar DonationOption = AlpaOption<"donation", "donation", "std::string", /*default=*/"\"auto\"",
    "The step's state: auto (the module's donation, else the results recognised as updating an argument of the same type), module (only the module's donation), or ARG:RESULT,... pairs">;

defvar TransferModeOption = AlpaOption<"transferMode", "transfer-mode", "std::string", /*default=*/"\"auto\"",
    "How values move between stage meshes: send-recv, local-all-gather (paper 6), broadcast, or auto (cheapest under the cluster model)">;

def AlpaInline : Pass<"alpa-inline", "::mlir::ModuleOp"> {
  let summary = "Inline the private functions that the entry function calls";
  let description = [{
    Inlines every `func.call` of a private function into its caller, transitively, starting
    from the public entry function, then erases the private functions left without callers.
    Works on unregistered StableHLO ops, where MLIR's own `--inline` does not.
  }];
  let options = [
    AlpaOption<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Name of the entry function (when there is no @main: the only public function)">,
  ];
}

// What alpa-intra-op-shard and alpa-inter-op-stage (so alpa-auto-shard) run before planning
// (src/passes/unroll_loops.rs).
defvar UnrollLoopsOption = AlpaOption<"unrollLoops", "unroll-loops", "bool", /*default=*/"true",
    "Unroll the entry's counted while loops (lax.scan / flax nn.scan layers) first, as alpa-unroll-loops does; false plans each loop as one op with replicated carried values">;

def AlpaUnrollLoops : Pass<"alpa-unroll-loops", "::mlir::ModuleOp"> {
  let summary = "Replace every counted stablehlo.while of the entry by copies of its body";
  let description = [{
    Reads each loop's static trip count (JAX's scan / fori_loop pattern: a counter compared
    against a constant in the condition, moved by a constant in the body) and writes one copy
    of the body per trip, before the loop, with the counter folded to a constant: integer
    arithmetic on it folds, and `dynamic_slice`s it indexes (a scan's stacked weights) become
    static `slice`s. Nested loops are unrolled once their copies are in the function body. A
    loop with a dynamic trip count, one inside another op's region, or one whose copies would
    exceed max-ops is an error at the loop.
  }];
  let options = [
    AlpaOption<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Name of the entry function (when there is no @main: the only public function)">,
    AlpaOption<"maxOps", "max-ops", "int64_t", /*default=*/"1000000",
           "Size guard: most ops the copies of one loop may hold">,
  ];
}

def AlpaAnnotateCosts : Pass<"alpa-annotate-costs", "::mlir::ModuleOp"> {
  let summary = "Attach FLOPs and bytes to every op of the entry function";
  let description = [{
    Reads the entry function into the graph view, looks every op up in the op table and
    attaches `alpa.flops`, `alpa.bytes_read` and `alpa.bytes_written`. Emits a summary
    (ops by kind, total FLOPs, parameter bytes) as a remark on the function, and a remark
    for every op the table does not know.
  }];
  let options = [
    AlpaOption<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Name of the entry function (when there is no @main: the only public function)">,
    AlpaOption<"summary", "summary", "bool", /*default=*/"true",
           "Emit the summary remark">,
    AlpaOption<"cluster", "cluster", "std::string", /*default=*/"\"\"",
           "Cluster preset name or JSON file: adds single-device compute time at peak to the summary">,
  ];
}

def AlpaIntraOpShard : Pass<"alpa-intra-op-shard", "::mlir::ModuleOp"> {
  let summary = "Choose a sharding for every op on one device mesh with Alpa's ILP";
  let description = [{
    Enumerates the parallel algorithms of every op of the entry function on a 2-D logical
    device mesh, merges computationally trivial ops into the operand they follow, solves
    Alpa's ILP (communication plus resharding, subject to a per-device memory budget) and
    writes the chosen shardings as Shardy (default) or GSPMD annotations on every op result
    and on the function's arguments and results; sets mhlo.num_partitions.
  }];
  let options = [
    AlpaOption<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Name of the entry function (when there is no @main: the only public function)">,
    AlpaOption<"mesh", "mesh", "std::string", /*default=*/"\"\"",
           "Logical mesh shape NxM (a 1-D mesh is Nx1), e.g. 2x4">,
    AlpaOption<"cluster", "cluster", "std::string", /*default=*/"\"\"",
           "Cluster preset or JSON file: the mesh's alpha/beta come from its links">,
    AlpaOption<"alpha", "alpha", "std::string", /*default=*/"\"1,1\"",
           "Per-axis latency in abstract units when no cluster is given">,
    AlpaOption<"beta", "beta", "std::string", /*default=*/"\"1,0.1\"",
           "Per-axis inverse bandwidth in abstract units when no cluster is given">,
    AlpaOption<"memoryBudget", "memory-budget", "std::string", /*default=*/"\"\"",
           "Per-device memory for live values, e.g. 16GiB (empty: unlimited)">,
    AlpaOption<"format", "format", "std::string", /*default=*/"\"sdy\"",
           "Output sharding format: sdy or gspmd">,
    AlpaOption<"timeLimit", "time-limit", "double", /*default=*/"60.0",
           "Solver time limit in seconds; the best plan found so far is kept">,
    AlpaOption<"forceBatchDimToMeshDim", "force-batch-dim-to-mesh-dim", "int", /*default=*/"-1",
           "Shard the batch dimension on this mesh axis (-1: free)">,
    AlpaOption<"allowReplicatedParameters", "allow-replicated-parameters", "bool", /*default=*/"true",
           "Allow parameters to stay replicated">,
    AlpaOption<"logicalMesh", "logical-mesh", "std::string", /*default=*/"\"\"",
           "auto: try every logical shape of the mesh's devices and keep the cheapest">,
    AlpaOption<"mergeTrivialOps", "merge-trivial-ops", "bool", /*default=*/"true",
           "Merge elementwise, reshape, reduce, ... ops into the operand they follow">,
    AlpaOption<"preferReduceScatter", "prefer-reduce-scatter", "bool", /*default=*/"false",
           "After the ILP, shard the weight update (paper 4.2, ZeRO-like): gradient all-reduces "
           "become reduce-scatters, optimizer states and update math are sharded, and new "
           "parameters are all-gathered">,
    AlpaOption<"report", "report", "std::string", /*default=*/"\"\"",
           "Write the JSON report to this file (- for stderr)">,
    DonationOption,
    UnrollLoopsOption,
  ];
}

def AlpaClusterLayers : Pass<"alpa-cluster-layers", "::mlir::ModuleOp"> {
  let summary = "Cluster the entry's ops into layers with Alpa's DP (Eq. 6)";
  let description = [{
    Splits the entry function's ops, in order, into L contiguous layers so that the most
    bytes any layer receives from earlier layers is minimal, subject to every layer's FLOPs
    staying within (1 + delta) x the average; ties go to the smallest FLOP variance. Each
    top-level op gets `alpa.layer`; a remark summarises the layers.
  }];
  let options = [
    AlpaOption<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Name of the entry function (when there is no @main: the only public function)">,
    AlpaOption<"layers", "layers", "std::string", /*default=*/"\"auto\"",
           "Number of layers; auto (the user's alpa_layer_<k> scopes if any, else from the heavy ops and the devices); or user (the scopes, required)">,
    AlpaOption<"delta", "delta", "double", /*default=*/"0.5",
           "FLOP balance tolerance: every layer within (1 + delta) x the average">,
    AlpaOption<"devices", "devices", "int", /*default=*/"8",
           "Devices the plan is for (bounds layers=auto)">,
    DonationOption,
  ];
}

defvar InterOpStageOptions = [
    AlpaOption<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Name of the entry function (when there is no @main: the only public function)">,
    AlpaOption<"cluster", "cluster", "std::string", /*default=*/"\"p3.16xlarge-x1\"",
           "Cluster preset (p3.16xlarge-xN, h100-xN, h200-xN) or JSON file">,
    AlpaOption<"microbatches", "microbatches", "std::string", /*default=*/"\"1\"",
           "Microbatches per iteration (B), or auto: split the exported step's batch G into B microbatches for every B dividing G up to max-microbatches, plan each, keep the least modeled iteration time (implies split-batch)">,
    AlpaOption<"maxMicrobatches", "max-microbatches", "int", /*default=*/"64",
           "Largest B microbatches=auto tries">,
    AlpaOption<"splitBatch", "split-batch", "bool", /*default=*/"false",
           "The exported step is the global batch: cost one microbatch of G / B examples (per-example inputs are the non-donated arguments; their leading dim is G). Off: the exported step is one microbatch">,
    AlpaOption<"crossStageCost", "cross-stage-cost", "std::string", /*default=*/"\"off\"",
           "on: add the activations sent to the next stage and the gradients sent back, per microbatch (latency + bytes / inter-stage link bandwidth), to each stage's latency in the DP">,
    AlpaOption<"layers", "layers", "std::string", /*default=*/"\"auto\"",
           "Number of layers; auto (the user's alpa_layer_<k> scopes if any, else Eq. 6 picks); or user">,
    AlpaOption<"delta", "delta", "double", /*default=*/"0.5",
           "Layer FLOP balance tolerance of the clustering">,
    AlpaOption<"epsilon", "epsilon", "double", /*default=*/"0",
           "t_max candidates closer than this (seconds) are evaluated together (the paper: 1e-6; the plan is then within (B - 1) x epsilon of the optimum, and the cost table plans more stages). 0: every candidate, the exact optimum">,
    AlpaOption<"imbalanceTolerance", "imbalance-tolerance", "double", /*default=*/"0",
           "Skip stage candidates whose FLOPs per device are off the balanced share by more than this factor (0: off)">,
    AlpaOption<"submeshShapes", "submesh-shapes", "std::string", /*default=*/"\"power-of-two\"",
           "Submesh shapes: power-of-two (paper) or all">,
    AlpaOption<"schedule", "schedule", "std::string", /*default=*/"\"1f1b\"",
           "Pipeline schedule for the memory rule: 1f1b or gpipe">,
    AlpaOption<"timeLimit", "time-limit", "double", /*default=*/"60.0",
           "Seconds for each intra-op plan and for the DP's search">,
    AlpaOption<"threads", "threads", "int", /*default=*/"0",
           "Worker threads for the stage queries (0: all cores); workers left without a query of their own plan the logical meshes of another side by side">,
    AlpaOption<"shardedParamsVariant", "sharded-params-variant", "bool", /*default=*/"false",
           "Also plan every (stage, logical mesh) with no parameter fully replicated, as a second option for stages whose fastest plan does not fit in memory">,
    AlpaOption<"stages", "stages", "std::string", /*default=*/"\"\"",
           "Fixed stages instead of the stage DP (Alpa's manual stage option): START..END@HOSTSxDEVICES[:AxB] per stage, e.g. 0..4@1x4:2x2,4..8@1x4; the ranges tile the layers (set layers=), the submeshes use every device; each stage takes its fastest plan that fits in memory (on the given logical mesh). The report then has no baselines">,
    AlpaOption<"composeStages", "compose-stages", "int", /*default=*/"0",
           "Approximation for large models: plan only ranges of up to N layers with the ILP and compose longer ones from their overlapping N-layer windows (0: plan every range exactly)">,
    AlpaOption<"report", "report", "std::string", /*default=*/"\"\"",
           "Write the JSON report to this file (- for stderr)">,
    AlpaOption<"reportHtml", "report-html", "std::string", /*default=*/"\"\"",
           "Write the HTML report to this file">,
    AlpaOption<"slice", "slice", "bool", /*default=*/"true",
           "Slice a train step into per-stage forward/backward/apply functions called by the schedule from the entry">,
    AlpaOption<"baselines", "baselines", "bool", /*default=*/"true",
           "Also plan the equal-operator baseline for the report (its own cost table)">,
    AlpaOption<"baselineTimeLimit", "baseline-time-limit", "double", /*default=*/"120.0",
           "Seconds the equal-operator baseline's own cost table may take; past them it is reported as not computed (0: no limit)">,
    AlpaOption<"shardings", "shardings", "bool", /*default=*/"true",
           "Annotate every stage function with its stage's intra-op shardings (sdy, one mesh per stage)">,
    AlpaOption<"transfers", "transfers", "bool", /*default=*/"true",
           "Mark values crossing stages with alpa.transfer (false: plain values, runnable on one device)">,
    AlpaOption<"gradientAccumulation", "gradient-accumulation", "std::string", /*default=*/"\"auto\"",
           "How microbatch gradients combine: auto (as the loss does: a sum adds up, a ratio of sums (masked or weighted mean) is weighted by its denominators, a mean or anything else averages), mean or sum">,
    DonationOption,
    TransferModeOption,
    AlpaOption<"lowerTransfers", "lower-transfers", "bool", /*default=*/"true",
           "alpa-auto-shard only: plan and lower the transfers (alpa-cross-mesh-resharding, alpa-lower-transfers); false stops at alpa.transfer for your own runtime">,
    UnrollLoopsOption,
];

def AlpaInterOpStage : Pass<"alpa-inter-op-stage", "::mlir::ModuleOp"> {
  let summary = "Cut the train step into pipeline stages and the cluster into submeshes (Alpa's stage DP)";
  let description = [{
    Clusters the entry function's ops into layers (Eq. 6), asks the intra-op ILP for the
    latency and memory of every (layer range, submesh, logical mesh), runs the stage-mesh DP
    (Eq. 3-5) minimising sum of stage latencies + (B - 1) x the slowest under the schedule's
    memory rule, and places the stages on the cluster. Beyond the paper, `microbatches=auto`
    searches B for a fixed global batch and `cross-stage-cost=on` charges the transfers
    between consecutive stages inside the DP. Every op gets `alpa.layer`,
    `alpa.phase` and `alpa.stage`; the entry gets `alpa.pipeline` (per stage: layers,
    submesh, logical mesh, device ids, latency) and `alpa.microbatches`. A train step
    (exported at microbatch size) is then sliced into @stage{i}_forward/backward/apply
    functions, and the entry takes the global batch, runs the schedule over the
    microbatches with gradient accumulation, applies once, and marks every value that
    crosses stages with alpa.transfer.
  }];
  let options = InterOpStageOptions;
}

def AlpaAutoShard : Pass<"alpa-auto-shard", "::mlir::ModuleOp"> {
  let summary = "Alpa end to end: inline, then alpa-inter-op-stage (layers, stage-mesh DP over intra-op plans, stage functions with their shardings, schedule)";
  let description = [{
    Runs alpa-inline on the entry, then alpa-inter-op-stage with the same options: the
    whole auto-parallelization of a train step exported at microbatch size for a cluster.
  }];
  let options = InterOpStageOptions;
}

def AlpaCrossMeshResharding : Pass<"alpa-cross-mesh-resharding", "::mlir::ModuleOp"> {
  let summary = "Plan every alpa.transfer: which device sends which slice to which (paper 6)";
  let description = [{
    Replaces each `alpa.transfer` with `alpa.transfer_plan`: the tile correspondence between
    the source and destination layouts, one load-balanced sender per piece, and under
    `local-all-gather` the all-gathers that rebuild replicated tiles inside the destination
    mesh; `broadcast` sends each piece once to its whole destination group; `auto` takes the
    cheapest by the cluster model (concurrent transfers share each host's link). Records the
    modeled seconds and a lower bound.
  }];
  let options = [
    AlpaOption<"cluster", "cluster", "std::string", /*default=*/"\"\"",
           "Cluster preset or JSON file (required): hosts and links of the devices">,
    AlpaOption<"mode", "mode", "std::string", /*default=*/"\"auto\"",
           "send-recv, local-all-gather (paper 6), broadcast, or auto (cheapest under the cluster model)">,
    AlpaOption<"report", "report", "std::string", /*default=*/"\"\"",
           "Write every planned transfer (stages, shape, mode, modeled seconds, lower bound, bytes across hosts) as JSON to this file (- for stderr)">,
  ];
}

def AlpaLowerTransfers : Pass<"alpa-lower-transfers", "::mlir::ModuleOp"> {
  let summary = "Lower every alpa.transfer_plan to XLA collectives (collective_permute, all_gather)";
  let description = [{
    Each planned transfer becomes a call of a private identity function that names its
    programs: a send program over the union of both device sets (rounds of
    `stablehlo.collective_permute`, which XLA runs as NCCL send/recv on GPUs) and, for local
    all-gather, a gather program over the destination devices (`stablehlo.all_gather`). One
    function per program, so a runtime compiles each once.
  }];
}

#endif // ALPA_PASSES

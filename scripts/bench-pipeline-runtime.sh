#!/usr/bin/env bash
# Benchmark: measured time per iteration of the pipeline runtime (`alpa_mlir.pipeline`) on 8
# virtual CPU devices, for each transfer mode, beside the same step at global batch on one
# device. The GPT fixture (`gpt --preset tiny`, global batch 4 as lit-tests/inputs/gpt_tiny.mlir)
# is exported at microbatch size and planned once with `alpa-auto-shard ... lower-transfers=false`
# (MICROBATCHES microbatches), then each mode's transfers are planned and lowered. Every program
# is compiled before timing; an iteration is one call from host inputs to host outputs (the
# single-device step likewise): WARMUP calls, then the median of ITERATIONS calls. Each mode's
# outputs are also compared with the single-device step's.
#
# Usage: scripts/bench-pipeline-runtime.sh [model [preset [global batch]]]   (gpt tiny 4)
# Environment: CLUSTER (python/tests/data/cluster-1x8.json: one host of 8 devices),
# MICROBATCHES (2), ITERATIONS (10), WARMUP (2). Progress on stderr, a markdown table on stdout;
# files go to target/bench/pipeline-runtime.
set -euo pipefail
cd "$(dirname "$0")/.."
py="${PYTHON:-.venv/bin/python}"
[ -x "$py" ] || scripts/setup.sh
cargo build --release --locked >&2
opt=target/release/alpa-opt
model="${1:-gpt}"
preset="${2:-tiny}"
batch="${3:-4}"
cluster="${CLUSTER:-python/tests/data/cluster-1x8.json}"
microbatches="${MICROBATCHES:-2}"
out=target/bench/pipeline-runtime
mkdir -p "$out"
modes=(send-recv local-all-gather broadcast)

echo "bench-pipeline-runtime: exporting $model $preset at batch $batch and $((batch / microbatches))" >&2
"$py" -m alpa_mlir.export "$model" --preset "$preset" --batch "$batch" -o "$out/step.mlir"
"$py" -m alpa_mlir.export "$model" --preset "$preset" --batch "$((batch / microbatches))" -o "$out/micro.mlir"
echo "bench-pipeline-runtime: planning on $cluster, $microbatches microbatches" >&2
"$opt" "$out/micro.mlir" --alpa-auto-shard="cluster=$cluster microbatches=$microbatches lower-transfers=false" \
  -o "$out/marked.mlir" 2>"$out/plan.log" || { cat "$out/plan.log" >&2; exit 1; }
grep -o 'remark: .*' "$out/plan.log" >&2 || true
for mode in "${modes[@]}"; do
  "$opt" "$out/marked.mlir" --alpa-cross-mesh-resharding="cluster=$cluster mode=$mode" \
    --alpa-lower-transfers -o "$out/lowered-$mode.mlir"
done

"$py" - "$model $preset, global batch $batch, $microbatches microbatches" "$out/step.mlir" "$out" "${ITERATIONS:-10}" "${WARMUP:-2}" "${modes[@]}" <<'PY'
import contextlib, io, statistics, sys, time
from alpa_mlir.xla_exec import ensure_host_devices

ensure_host_devices(8)
from alpa_mlir.input_domains import make_inputs
from alpa_mlir.module_info import parse_module
from alpa_mlir.numerics import compare_outputs
from alpa_mlir.pipeline import Pipeline
from alpa_mlir.xla_exec import compile_module, execute

label, step_path, out, iterations, warmup, *modes = sys.argv[1:]
iterations, warmup = int(iterations), int(warmup)


def log(msg):
    print(f"bench-pipeline-runtime: {msg}", file=sys.stderr, flush=True)


def median_ms(call):
    for _ in range(warmup):
        call()
    times = []
    for i in range(iterations):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(times)


step = parse_module(open(step_path).read())
inputs = make_inputs(step.inputs, seed=0)
single = compile_module(step.module, 1)
shapes = [o.shape for o in step.outputs]
expected = execute(single, inputs, shapes)
log(f"single-device step: {warmup} + {iterations} iterations")
rows = [("single device (the step, XLA)", median_ms(lambda: execute(single, inputs, shapes)),
         "", "")]
compiled = {}
for mode in modes:
    log(f"{mode}: compiling")
    pipe = Pipeline(open(f"{out}/lowered-{mode}.mlir").read(), compiled=compiled)
    with contextlib.redirect_stderr(io.StringIO()):  # the runtime's per-step progress
        match = compare_outputs(pipe.run(inputs), expected, rtol=2e-4, atol=2e-5)["match"]
        log(f"{mode}: {warmup} + {iterations} iterations")
        ms = median_ms(lambda: pipe.run(inputs))
    stages = sum(p.kind == "stage" for p in pipe.module.programs.values())
    rows.append((f"pipeline runtime, {mode}", ms,
                 f"{stages} stage functions, {len(pipe.module.transfers)} transfers",
                 "yes" if match else "NO"))
print(f"| {label} | ms per iteration (median of {iterations}) "
      "| programs | matches the single-device step |")
print("| --- | --- | --- | --- |")
for name, ms, programs, match in rows:
    print(f"| {name} | {ms:.1f} | {programs} | {match} |")
PY

#!/usr/bin/env bash
# Benchmark: alpa-inter-op-stage's exact (default) path, no compose-stages, on a GPT-2.6B train
# step (32 blocks, float32, Adam, exported from shapes, no rematerialisation) planned for one
# host of 8 GPUs with 80 GB each (a plan exists) and with 16 GB each (no plan fits). Same
# options as scripts/bench-inter-op.sh's GPT-2.6B row otherwise: 64 microbatches of the global
# batch of 1024, one layer per block, sharded-params-variant=true.
#
# Usage: scripts/bench-inter-op-default.sh [80 16]   (the device memories in GB to run)
# Environment: ALPA_OPT (target/release/alpa-opt), TIMEOUT per run in seconds (1800), TAG (a
# name for the reports: target/bench/inter-default-$GB$TAG.json), EXTRA (more pass options).
# Prints a markdown table: plan seconds, the plan's cost table (queries, cache hits, skips, oracle
# and wall seconds), the equal-operator baseline's own cost table (wall seconds, queries and how
# many of them the plan's answers for the same ops answered, signature hits; read from its
# progress lines), stages, modeled iteration time, each stage's
# layers, submesh and logical mesh.
set -euo pipefail
cd "$(dirname "$0")/.."
py="${PYTHON:-.venv/bin/python}"
opt="${ALPA_OPT:-target/release/alpa-opt}"
if [ -z "${ALPA_OPT:-}" ]; then cargo build --release --locked >&2; fi
mkdir -p target/bench
model=target/bench/gpt-2.6b-f32-adam.mlir
if [ ! -s "$model" ]; then
  "$py" -m alpa_mlir.export gpt --preset 2.6b --dtype float32 -o "$model" >&2
fi

# One host of 8 V100-class GPUs (p3.16xlarge's device and links) with $1 GB each.
cluster() {
  cat > "target/bench/default-1x8-$1gb.json" <<JSON
{
  "name": "1x8-$1gb",
  "hosts": 1,
  "devices_per_host": 8,
  "device": {
    "name": "V100-class $1 GB",
    "memory_bytes": $(($1 * 1024 * 1024 * 1024)),
    "peak_flops": { "f64": 7.8e12, "f32": 15.7e12, "bf16": 15.7e12, "f16": 125e12 },
    "peak_flops_fallback": 15.7e12
  },
  "intra_host": { "bandwidth_bytes_per_s": 150e9, "latency_s": 5e-6 },
  "inter_host": { "bandwidth_bytes_per_s": 3.125e9, "latency_s": 30e-6 }
}
JSON
  echo "target/bench/default-1x8-$1gb.json"
}

memories=("$@")
[ ${#memories[@]} -gt 0 ] || memories=(80 16)
printf '| device memory | plan seconds | oracle queries | cache hits | skipped: unusable / memory / latency / plan floor | oracle seconds | table seconds | baseline table: seconds, queries (reused from the plan table), signature hits | stages | modeled iteration time | stages (layers @ submesh as mesh) |\n'
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
for gb in "${memories[@]}"; do
  file=$(cluster "$gb")
  report="target/bench/inter-default-${gb}gb${TAG:-}.json"
  log="target/bench/inter-default-${gb}gb${TAG:-}.log"
  rm -f "$report"
  options="cluster=$file microbatches=64 split-batch=true layers=32 delta=4 sharded-params-variant=true report=$report ${EXTRA:-}"
  start=$(date +%s.%N)
  timeout "${TIMEOUT:-1800}" "$opt" "$model" --alpa-inline --alpa-inter-op-stage="$options" -o /dev/null 2>"$log" || true
  end=$(date +%s.%N)
  python3 - "$report" "$gb" "$start" "$end" "$log" <<'PY'
import json, re, sys
path, gb, start, end, log = sys.argv[1:]
# The baseline's table is the one whose progress follows the 'equal-operator baseline' line.
baseline = "not planned"
lines = open(log).read().split("equal-operator baseline:", 1)
if len(lines) == 2:
    done = re.search(r"cost table: done: QueryStats \{[^}]*\}", lines[1])
    if done:
        field = lambda name: re.search(name + r": ([0-9.]+)", done.group(0)).group(1)
        shared = lines[1].count("the answer planned for the same ops under other layers")
        baseline = (f"{float(field('wall_seconds')):.1f} s, {int(field('queries')):,} ({shared:,} reused), "
                    f"{int(field('signature_hits')):,}")
    else:
        baseline = "started, not finished"

seconds = float(end) - float(start)
try:
    r = json.load(open(path))
except (OSError, ValueError):
    errors = [l for l in open(log) if "error:" in l]
    why = errors[-1].split("error:", 1)[1].strip()[:200] if errors else "no report (timeout or crash)"
    print(f"| {gb} GB | {seconds:.1f} | | | | | | {baseline} | | no plan: {why} | |")
    sys.exit(0)
q = r["queries"]
stages = "; ".join(f"{s['layers'][0]}..{s['layers'][1]} @ {s['submesh']} as {s['logical_mesh']}" for s in r["stages"])
print(f"| {gb} GB | {seconds:.1f} | {q['queries']:,} | {q['cache_hits']:,} | {q.get('skipped_unusable', 0):,} / {q.get('skipped_memory', 0):,} / {q.get('skipped_latency', 0):,} / {q.get('skipped_plan_floor', 0):,} | {q['oracle_seconds']:.1f} | "
      f"{q['wall_seconds']:.1f} | {baseline} | {len(r['stages'])} | {r['iteration_time']:.6f} s | {stages} |")
PY
done

#!/usr/bin/env bash
# Benchmark: plan time of alpa-inter-op-stage, end to end (`alpa-opt --alpa-inline
# --alpa-inter-op-stage`: reading, inlining, clustering, the cost table of intra-op ILPs, the
# stage DP, the baselines of the report), on the weak-scaling configurations of the Alpa
# paper's Table 4 on p3.16xlarge hosts (8 V100 16 GB each; 1 and 4 GPUs are one host with
# fewer devices, same device and links):
#   GPT-3    350M/1, 1.3B/4, 2.6B/8, 6.7B/16, 15B/32, 39B/64 GPUs
#   MoE      380M/1, 690M/4, 1.3B/8, 2.4B/16, 10B/32, 27B/64
#   W-ResNet 250M/1, 500M/4, 1B/8, 2B/16, 4B/32, 6.8B/64
# Models are exported from shapes (no weights) in float16 with float32 parameters, as the paper
# trains them; GPT and MoE rematerialise each block. The exported step is the global batch
# (1024 sequences; 1536 images), split into B = 64 microbatches (split-batch=true). One layer
# per transformer / residual block. Settings for size: compose-stages=2 (ranges of more than 2
# layers are composed from their 2-layer windows instead of solving their ILP; see
# src/inter/compose.rs for the measured error) and sharded-params-variant=true (each stage is
# also planned with sharded parameters, without which the larger models fit nowhere).
#
# Usage: scripts/bench-inter-op.sh [model:preset ...]   (default: all 18 rows)
#   e.g. scripts/bench-inter-op.sh gpt:39b
# Environment: MICROBATCHES (64), TIMEOUT per run in seconds (1800), EXTRA (more pass options).
# Prints a markdown table; logs and JSON reports go to target/bench/inter-*.
set -euo pipefail
cd "$(dirname "$0")/.."
py="${PYTHON:-.venv/bin/python}"
[ -x "$py" ] || scripts/setup.sh
cargo build --release --locked >&2
mkdir -p target/bench

# model, preset, GPUs, layers, delta (the clustering's FLOP balance tolerance: the GPT LM head
# over a 51200-word vocabulary outweighs a block up to 3.6 times, at 350M, so a layer per
# block needs room).
rows=(
  "gpt 350m 1 24 4" "gpt 1.3b 4 24 4" "gpt 2.6b 8 32 4" "gpt 6.7b 16 32 4" "gpt 15b 32 48 4" "gpt 39b 64 48 4"
  "moe 380m 1 8 0.5" "moe 690m 4 8 0.5" "moe 1.3b 8 16 0.5" "moe 2.4b 16 16 0.5" "moe 10b 32 16 0.5" "moe 27b 64 16 0.5"
  "wresnet 250m 1 16 0.5" "wresnet 500m 4 16 0.5" "wresnet 1b 8 16 0.5" "wresnet 2b 16 16 0.5" "wresnet 4b 32 16 0.5"
  "wresnet 6.8b 64 16 0.5"
)
wanted=("$@")
selected() {
  [ ${#wanted[@]} -eq 0 ] && return 0
  for w in "${wanted[@]}"; do [ "$w" = "$1:$2" ] && return 0; done
  return 1
}

# One host of $1 p3.16xlarge GPUs (the preset's device and links).
small_cluster() {
  cat > "target/bench/p3-$1gpu.json" <<EOF
{
  "name": "p3.16xlarge-$1gpu",
  "hosts": 1,
  "devices_per_host": $1,
  "device": {
    "name": "NVIDIA V100-SXM2-16GB",
    "memory_bytes": 17179869184,
    "peak_flops": { "f64": 7.8e12, "f32": 15.7e12, "bf16": 15.7e12, "f16": 125e12 },
    "peak_flops_fallback": 15.7e12
  },
  "intra_host": { "bandwidth_bytes_per_s": 150e9, "latency_s": 5e-6 },
  "inter_host": { "bandwidth_bytes_per_s": 3.125e9, "latency_s": 30e-6 }
}
EOF
  echo "target/bench/p3-$1gpu.json"
}

printf '| model | GPUs | layers | stages | oracle queries | composed | cache hits | plan seconds | peak RSS | modeled iteration time |\n'
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
for row in "${rows[@]}"; do
  read -r model preset gpus layers delta <<<"$row"
  selected "$model" "$preset" || continue
  file="target/bench/inter-$model-$preset.mlir"
  if [ ! -s "$file" ]; then
    remat=""
    [ "$model" = wresnet ] || remat="--remat"
    "$py" -m alpa_mlir.export "$model" --preset "$preset" --dtype float16 $remat -o "$file" >&2
  fi
  if [ "$gpus" -lt 8 ]; then cluster=$(small_cluster "$gpus"); else cluster="p3.16xlarge-x$((gpus / 8))"; fi
  report="target/bench/inter-$model-$preset.json"
  log="target/bench/inter-$model-$preset.log"
  rm -f "$report"
  options="cluster=$cluster microbatches=${MICROBATCHES:-64} split-batch=true layers=$layers delta=$delta compose-stages=2"
  options="$options sharded-params-variant=true report=$report ${EXTRA:-}"
  start=$(date +%s.%N)
  /usr/bin/time -f '%M' -o target/bench/inter-rss timeout "${TIMEOUT:-1800}" ./target/release/alpa-opt "$file" \
    --alpa-inline --alpa-inter-op-stage="$options" -o /dev/null 2>"$log" || true
  end=$(date +%s.%N)
  python3 - "$report" "$model" "$preset" "$gpus" "$start" "$end" "$(tail -1 target/bench/inter-rss)" "$log" <<'PY'
import json, re, sys
path, model, preset, gpus, start, end, rss_kb, log = sys.argv[1:]
seconds = float(end) - float(start)
name = {"gpt": "GPT", "moe": "MoE", "wresnet": "W-ResNet"}[model] + "-" + preset.upper()
rss = f"{int(rss_kb) / 1024:.0f} MiB" if rss_kb.isdigit() else "?"
try:
    r = json.load(open(path))
except (OSError, ValueError):
    errors = [l for l in open(log) if "error:" in l]
    why = errors[-1].split("error:", 1)[1].strip()[:160] if errors else "no report (timeout or crash)"
    print(f"| {name} | {gpus} | | | | | | {seconds:.1f} | {rss} | no plan: {why} |")
    sys.exit(0)
q = r["queries"]
print(f"| {name} | {gpus} | {r['options']['layers']} | {len(r['stages'])} | {q['queries']:,} | {q['composed']:,} | "
      f"{q['cache_hits']:,} | {seconds:.1f} | {rss} | {r['iteration_time']:.3f} s |")
PY
done

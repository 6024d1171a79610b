#!/usr/bin/env bash
# Modeled against measured stage latency (issue 12), step 1 of 3, here (no GPU needed): plans
# the stages whose modeled latency a GPU machine will time, and gathers what that machine needs
# into target/gpu-compare (carried there: a copy of alpa-calibrate, which links no MLIR, and the
# planned modules).
#
# Every case is a model cut into 8 one-device stages on CLUSTER (h100-x1: one host of 8 H100s;
# h200-x1 for an H200) with `stages=` (fixed stages, no DP): for the fixtures LAYERS stages of
# one layer each; for the GPT-2.6B benchmark model (8 sequences, f32 and bf16 compute) 16
# layers of 2 blocks in stages of 1, 1, 2, 2, 3, 3, 2 and 2 layers, so that the stages differ
# and their ranking means something. One microbatch, planned by alpa-auto-shard without
# lowering transfers:
# each stage's forward, backward and apply functions carry its intra-op plan, and @main's
# alpa.pipeline its modeled latency. One-device stages, because the lent machines have one GPU.
#
# Step 2 (on the GPU machine): scripts/gpu-compare-device.sh. Step 3 (here, with its files):
# scripts/gpu-compare-report.sh DIR.
#
# Usage: scripts/gpu-compare-prepare.sh
# Environment: CASES (mlp gpt wresnet gpt-2.6b gpt-2.6b-bf16), CLUSTER (h100-x1), LAYERS (8: the
# fixtures' stages).
set -euo pipefail
cd "$(dirname "$0")/.."
py="${PYTHON:-.venv/bin/python}"
[ -x "$py" ] || scripts/setup.sh
cargo build --release --locked >&2
opt=target/release/alpa-opt
out=target/gpu-compare
cluster="${CLUSTER:-h100-x1}"
fixture_layers="${LAYERS:-8}"
rm -rf "$out"
mkdir -p "$out/cases"
cp target/release/alpa-calibrate "$out/"

# Fixed stages of the given sizes in layers, each on one device: "1 2" -> 0..1@1x1,1..3@1x1.
stages_of_sizes() {
  local start=0 stages="" size
  for size in "$@"; do
    stages="$stages${stages:+,}$start..$((start + size))@1x1"
    start=$((start + size))
  done
  echo "$stages"
}

gpt_benchmark_model() {  # 8 sequences of 1024 tokens: a stage of 4 blocks fits one GPU's memory.
  local model="target/bench/gpt-2.6b-$1-adam-b8.mlir"
  mkdir -p target/bench
  [ -s "$model" ] || "$py" -m alpa_mlir.export gpt --preset 2.6b --dtype "$2" --batch 8 -o "$model" >&2
  echo "$model"
}

input_of() {
  case "$1" in
    mlp) echo lit-tests/inputs/mlp.mlir ;;
    gpt) echo lit-tests/inputs/gpt_pipeline.mlir ;;
    wresnet) echo lit-tests/inputs/wresnet_pipeline.mlir ;;
    gpt-2.6b) gpt_benchmark_model f32 float32 ;;
    gpt-2.6b-bf16) gpt_benchmark_model bf16 bfloat16 ;;
    *) echo "gpu-compare-prepare: unknown case '$1'" >&2; return 1 ;;
  esac
}

printf 'case\tinput\tcluster\toptions\n' > "$out/cases/cases.tsv"
for name in ${CASES:-mlp gpt wresnet gpt-2.6b gpt-2.6b-bf16}; do
  input="$(input_of "$name")"
  case "$name" in
    gpt-2.6b*) layers=16 sizes="1 1 2 2 3 3 2 2" ;;  # stages of 2 to 6 blocks: a ranking to check
    *) layers=$fixture_layers sizes="$(printf '1 %.0s' $(seq "$fixture_layers"))" ;;
  esac
  # One microbatch (B = 1, each stage holds it once): what one timed run of a stage does.
  # shellcheck disable=SC2086 # the sizes are words
  options="layers=$layers stages=$(stages_of_sizes $sizes) lower-transfers=false"
  "$opt" "$input" --alpa-auto-shard="cluster=$cluster $options report=$out/cases/$name.report.json" \
    -o "$out/cases/$name.planned.mlir" 2> "$out/cases/$name.log" || { cat "$out/cases/$name.log" >&2; exit 1; }
  printf '%s\t%s\t%s\t%s\n' "$name" "$input" "$cluster" "$options" >> "$out/cases/cases.tsv"
  echo "gpu-compare-prepare: $name: $(grep -o 'iteration [0-9.]* ms modeled' "$out/cases/$name.log")" >&2
done
echo "gpu-compare-prepare: $(du -sh "$out" | cut -f1) in $out (a device run carries at most 64 MiB)" >&2

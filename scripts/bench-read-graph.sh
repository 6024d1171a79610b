#!/usr/bin/env bash
# Benchmark: read, inline and build the graph view of a GPT-39B-shaped train step
# (hidden 8192, 48 layers, 64 heads, seq 1024, vocab 51200), exported from shapes only.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
module=target/bench/gpt-39b.mlir
if [ ! -s "$module" ]; then
  mkdir -p target/bench
  echo "exporting the GPT-39B train step from shapes to $module" >&2
  .venv/bin/python -m alpa_mlir.export gpt --preset 39b -o "$module"
fi
cargo bench --locked --bench read_graph -- "$module"

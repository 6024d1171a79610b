#!/usr/bin/env bash
# The main job on the bundled example: a GPT train step exported from JAX, read end to end
# (inlined, every op looked up in the op table and costed), with the paper's cluster preset.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cargo build --release --locked
mkdir -p target/example
./target/release/alpa-opt lit-tests/inputs/gpt_tiny.mlir \
  --alpa-inline --alpa-annotate-costs="cluster=p3.16xlarge-x8" \
  -o target/example/gpt_tiny.costs.mlir
echo "annotated module: target/example/gpt_tiny.costs.mlir" >&2

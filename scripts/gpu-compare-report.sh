#!/usr/bin/env bash
# Modeled against measured stage latency (issue 12), step 3 of 3, here: the markdown table of
# the stages timed on the GPU machine, each beside its modeled latency with the preset and with
# the measured cluster file (python -m alpa_mlir.stage_compare; it plans each case again on the
# measured file). DIR holds what scripts/gpu-compare-device.sh wrote ($OUT there: the device
# tool's files_at here); the cases are those of scripts/gpu-compare-prepare.sh.
#
# Usage: scripts/gpu-compare-report.sh DIR [stage_compare options, e.g. --xla-overheads 1e-4,3e-6]
# (writes target/gpu-compare/compare.json too)
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:?usage: scripts/gpu-compare-report.sh DIR}"
py="${PYTHON:-.venv/bin/python}"
[ -x "$py" ] || scripts/setup.sh
cargo build --release --locked >&2
ALPA_OPT="${ALPA_OPT:-$PWD/target/release/alpa-opt}" "$py" -m alpa_mlir.stage_compare "$dir" \
  --cases target/gpu-compare/cases/cases.tsv --json target/gpu-compare/compare.json "${@:2}"

#!/usr/bin/env bash
# Runs every test: Rust unit and property tests, the lit suite, and the Python bridge tests.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cargo build --release --locked
cargo fmt --all --check
cargo clippy --release --locked --all-targets -- -D warnings
# setup.sh installed chromium: the headless-browser check of the HTML report must run.
ALPA_REQUIRE_CHROMIUM=1 cargo test --release --locked
/usr/lib/llvm-22/bin/lit -sv lit-tests
if [ -d python/tests ]; then
  ALPA_REQUIRE_OPT=1 ALPA_OPT="$PWD/target/release/alpa-opt" .venv/bin/python -m pytest -q -n 2 --durations=15 python/tests
fi

#!/usr/bin/env bash
# Creates (or refreshes) the Python environment of the alpa_mlir bridge:
#   <repo>/.venv with the exact pins of python/requirements.txt and
#   `pip install -e python`.
# Idempotent: when the venv exists and a stamp file records the hash of the
# requirements and of pyproject.toml that were installed, it returns at once.
# Usage: bash python/setup-venv.sh        (from anywhere)
#        ALPA_VENV=/some/dir bash python/setup-venv.sh   (other location)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
venv="${ALPA_VENV:-$root/.venv}"
python="${PYTHON:-python3}"
stamp="$venv/.alpa-mlir-requirements.sha256"

want="$(cat "$here/requirements.txt" "$here/pyproject.toml" | sha256sum | cut -d' ' -f1)"

if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi

if [[ ! -x "$venv/bin/python" ]]; then
  if ! "$python" -m venv "$venv" 2>/dev/null; then
    # Debian splits ensurepip out of python3 itself.
    if command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
      pyver="$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
      apt-get install -y -q "python${pyver}-venv" || apt-get install -y -q python3-venv
      rm -rf "$venv"
      "$python" -m venv "$venv"
    else
      echo "setup-venv.sh: '$python -m venv' failed; install python3-venv" >&2
      exit 1
    fi
  fi
fi

"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e "$here"
echo "$want" > "$stamp"
echo "setup-venv.sh: $venv ready ($("$venv/bin/python" -c 'import jax; print("jax", jax.__version__)'))"

"""StableHLO in its pretty form (what ``jax.jit(f).lower(...).as_text()`` and torch_xla print)
is refused by alpa-opt, which reads the generic form, with a note naming the command that
re-prints it; ``python -m alpa_mlir.generic`` does, and the result plans."""

from __future__ import annotations

import subprocess
import sys

import jax
import jax.numpy as jnp

from alpa_mlir.generic import to_generic
from conftest import DATA_DIR, REPO_ROOT
from pipeline_fixtures import alpa_opt


def _pretty(tmp_path):
    text = jax.jit(lambda x, w: jnp.tanh(x @ w).sum()).lower(jnp.ones((4, 8)), jnp.ones((8, 8))).as_text()
    assert '"stablehlo.' not in text and "stablehlo.dot_general" in text  # the pretty form
    path = tmp_path / "pretty.mlir"
    path.write_text(text)
    return path


def test_the_pretty_form_is_refused_with_the_command_that_converts_it(tmp_path):
    done = subprocess.run([str(alpa_opt()), str(_pretty(tmp_path)), "--alpa-inline", "-o", "/dev/null"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "python -m alpa_mlir.generic" in done.stderr, done.stderr


def test_the_converted_module_plans(tmp_path):
    converted = tmp_path / "generic.mlir"
    done = subprocess.run([sys.executable, "-m", "alpa_mlir.generic", str(_pretty(tmp_path)), "-o", str(converted)],
                          capture_output=True, text=True, timeout=120, cwd=REPO_ROOT / "python")
    assert done.returncode == 0, done.stderr
    assert '"stablehlo.dot_general"' in converted.read_text()
    planned = subprocess.run([str(alpa_opt()), str(converted), "--alpa-intra-op-shard=mesh=1x2 time-limit=5",
                              "-o", "/dev/null"], capture_output=True, text=True, timeout=120)
    assert planned.returncode == 0, planned.stderr


def test_generic_text_stays_as_it_is_and_bad_text_is_an_error(tmp_path):
    text = (DATA_DIR / "torch_mlp_b4.mlir").read_text()
    assert to_generic(text, debug_info=False).strip() == text.strip()
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @main( {")
    done = subprocess.run([sys.executable, "-m", "alpa_mlir.generic", str(bad)],
                          capture_output=True, text=True, timeout=120, cwd=REPO_ROOT / "python")
    assert done.returncode == 1 and "does not parse" in done.stderr, done.stderr

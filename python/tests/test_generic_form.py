"""StableHLO in its pretty form (what ``jax.jit(f).lower(...).as_text()`` and torch_xla print)
or as a portable artifact (the VHLO bytecode ``jax.export`` serializes, a saved ``.mlirbc``) is
refused by alpa-opt, which reads the generic form, with a note naming the command that re-prints
it; ``python -m alpa_mlir.generic`` does, and the result plans. A train step exported with
``jax.export`` and converted so pipelines to the global batch's step. Before, the converter
stopped at a portable artifact with a UnicodeDecodeError traceback, and alpa-opt said only that
the 'vhlo' dialect has no bytecode interface."""

from __future__ import annotations

import subprocess
import sys

import jax
import jax.numpy as jnp

import optax
import pytest
from jax import export as jax_export

from alpa_mlir.generic import to_generic
from conftest import DATA_DIR, REPO_ROOT
from pipeline_fixtures import alpa_opt, assert_pipelined_step_matches


def _layer(x, w):
    return jnp.tanh(x @ w).sum()


def _pretty(tmp_path):
    text = jax.jit(_layer).lower(jnp.ones((4, 8)), jnp.ones((8, 8))).as_text()
    assert '"stablehlo.' not in text and "stablehlo.dot_general" in text  # the pretty form
    path = tmp_path / "pretty.mlir"
    path.write_text(text)
    return path


def _portable(tmp_path):
    artifact = jax_export.export(jax.jit(_layer))(jnp.ones((4, 8)), jnp.ones((8, 8))).mlir_module_serialized
    path = tmp_path / "layer.mlirbc"
    path.write_bytes(artifact)
    return path


FORMS = pytest.mark.parametrize("form", [_pretty, _portable], ids=["pretty", "portable-artifact"])


@FORMS
def test_a_form_alpa_opt_does_not_read_is_refused_with_the_command_that_converts_it(tmp_path, form):
    path = form(tmp_path)
    done = subprocess.run([str(alpa_opt()), str(path), "--alpa-inline", "-o", "/dev/null"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert f"note: {path}" in done.stderr and "python -m alpa_mlir.generic" in done.stderr, done.stderr


@FORMS
def test_the_converted_module_plans(tmp_path, form):
    converted = tmp_path / "generic.mlir"
    done = subprocess.run([sys.executable, "-m", "alpa_mlir.generic", str(form(tmp_path)), "-o", str(converted)],
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
    # Bytes that are neither text nor MLIR bytecode, and bytecode that is no artifact jaxlib
    # reads: the same error, no traceback.
    for name, data in [("bad.bin", b"\xff\xfe\x00 not text"), ("bad.mlirbc", b"ML\xefR vhlo, cut short")]:
        (tmp_path / name).write_bytes(data)
        done = subprocess.run([sys.executable, "-m", "alpa_mlir.generic", str(tmp_path / name)],
                              capture_output=True, text=True, timeout=120, cwd=REPO_ROOT / "python")
        assert done.returncode == 1 and "does not parse" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr, done.stderr


WIDTHS, CLASSES = (16, 32, 32, 4), 4


def _mlp_step(params, x, y):
    def loss(p):
        h = x
        for i in range(len(WIDTHS) - 1):
            h = h @ p[f"w{i}"]
            h = jnp.tanh(h) if i < len(WIDTHS) - 2 else h
        return optax.softmax_cross_entropy_with_integer_labels(h, y).mean()

    value, grads = jax.value_and_grad(loss)(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), value


def _exported_with_jax_export(batch: int) -> str:
    """The MLP step at `batch` as jax.export serializes it, converted to the generic form."""
    sds = jax.ShapeDtypeStruct
    params = {f"w{i}": sds((a, b), jnp.float32) for i, (a, b) in enumerate(zip(WIDTHS, WIDTHS[1:]))}
    exported = jax_export.export(jax.jit(_mlp_step, donate_argnums=(0,)))(
        params, sds((batch, WIDTHS[0]), jnp.float32), sds((batch,), jnp.int32))
    return to_generic(exported.mlir_module_serialized)


def test_a_step_serialized_by_jax_export_pipelines_to_the_global_step(tmp_path):
    planned, _ = assert_pipelined_step_matches(tmp_path, _exported_with_jax_export, 4, 2, min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-3000:]

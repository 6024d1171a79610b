"""The runner does not say OK on a broken step (issue 11, item 4): NaN/inf
where the other side has none is a mismatch, optimizer second moments are
drawn valid without export hints, an XLA crash is an error with a non-zero
exit, and an unsupported jax is refused at import with a clear message."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest
from conftest import REPO_ROOT

from alpa_mlir import runner
from alpa_mlir.input_domains import make_inputs
from alpa_mlir.jax_support import REQUIREMENT, unsupported_reason
from alpa_mlir.module_info import parse_module
from alpa_mlir.numerics import (compare_outputs, compare_results, compare_updates, count_nonfinite,
                              mismatched_outputs)

NAN, INF = float("nan"), float("inf")


# ------------------------------------------------------------ non-finite values

@pytest.mark.parametrize("lhs,rhs", [
    ([1.0, NAN], [1.0, 2.0]),      # NaN only in the module
    ([1.0, 2.0], [1.0, NAN]),      # NaN only in the reference
    ([INF, 2.0], [1.0, 2.0]),      # inf vs a number
    ([INF, 2.0], [-INF, 2.0]),     # inf of the other sign
    ([NAN, 2.0], [INF, 2.0]),      # NaN vs inf
    ([NAN, 2.0], [1.0, NAN]),      # NaN in both, not at the same place
])
def test_nonfinite_not_on_both_sides_is_a_mismatch(lhs, rhs):
    c = compare_outputs([np.array(lhs, np.float32)], [np.array(rhs, np.float32)])
    assert not c["match"], c
    assert c["outputs"][0]["nonfinite_mismatches"] > 0
    assert "NaN/inf" in c["outputs"][0]["error"]


def test_same_nonfinite_values_agree_and_are_counted():
    x = np.array([NAN, INF, -INF, 1.0], np.float32)
    c = compare_outputs([x], [x.copy()])
    assert c["match"] and c["outputs"][0]["nonfinite"] == 3
    # a finite difference next to agreeing NaNs is still found
    y = np.array([NAN, INF, -INF, 1.5], np.float32)
    assert not compare_outputs([x], [y])["match"]


def test_nonfinite_values_are_counted_in_every_floating_type():
    import ml_dtypes

    x = np.array([1.0, np.nan, np.inf, -np.inf, 0.0])
    for dtype in (np.float64, np.float32, np.float16, ml_dtypes.bfloat16, np.complex64):
        assert count_nonfinite(x.astype(dtype)) == 3, dtype
    assert count_nonfinite(np.array([1, 2, 3], np.int32)) == 0
    assert count_nonfinite(np.array([True, False])) == 0


def test_nonfinite_values_of_device_arrays_are_counted_on_the_device():
    import jax
    import ml_dtypes

    x = np.array([1.0, np.nan, np.inf, -np.inf, 0.0])
    for dtype in (np.float32, np.float16, ml_dtypes.bfloat16, np.complex64):
        assert count_nonfinite(jax.device_put(x.astype(dtype))) == 3, dtype
    assert count_nonfinite(jax.device_put(np.array([1, 2, 3], np.int32))) == 0


def test_complex_outputs_compare_both_parts():
    x = np.array([1 + 1j, 2 + 0j], np.complex64)
    assert compare_outputs([x], [x.copy()])["match"]
    assert not compare_outputs([x], [np.array([1 + 2j, 2 + 0j], np.complex64)])["match"]


SQRT_OF_SHIFTED = """
func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<16xf32>
  %s = stablehlo.multiply %x, %x : tensor<16xf32>
  %d = stablehlo.subtract %s, %c : tensor<16xf32>
  %r = stablehlo.sqrt %d : tensor<16xf32>
  return %r : tensor<16xf32>
}
"""
IDENTITY = """
func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {
  return %x : tensor<16xf32>
}
"""


def test_cli_fails_on_nan_output(tmp_path):
    """sqrt(x*x - 1) is NaN for every input in [-0.1, 0.1): compared with a
    finite reference, the CLI must fail, not print OK."""
    (tmp_path / "nan.mlir").write_text(SQRT_OF_SHIFTED)
    (tmp_path / "ref.mlir").write_text(IDENTITY)
    r = subprocess.run([sys.executable, "-m", "alpa_mlir.run", str(tmp_path / "nan.mlir"),
                        "--reference", str(tmp_path / "ref.mlir")],
                       capture_output=True, text=True, cwd=REPO_ROOT)
    assert r.returncode == 1, r.stdout + r.stderr[-2000:]
    assert "FAILED" in r.stdout and not r.stdout.rstrip().endswith("OK"), r.stdout
    assert "NaN/inf" in r.stdout


# ------------------------------------------------------------ valid optimizer state

ADAM_LIKE = """
func.func @main(%w: tensor<8xf32>, %mu: tensor<8xf32>, %v: tensor<8xf32> loc("s[0].nu['w']"),
                %acc: tensor<8xf32>, %g: tensor<8xf32>, %x: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<8xf32>) {
  %eps = stablehlo.constant dense<1.0e-8> : tensor<8xf32>
  %r = call @rms(%acc) : (tensor<8xf32>) -> tensor<8xf32>
  %den = stablehlo.add %r, %eps : tensor<8xf32>
  %u = stablehlo.divide %mu, %den : tensor<8xf32>
  %w2 = stablehlo.subtract %w, %u : tensor<8xf32>
  %sq = stablehlo.multiply %g, %g : tensor<8xf32>
  %n = stablehlo.sqrt %sq : tensor<8xf32>
  %y = stablehlo.add %w2, %n : tensor<8xf32>
  %z = stablehlo.add %y, %v : tensor<8xf32>
  return %z, %x : tensor<8xf32>, tensor<8xf32>
}
func.func private @rms(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = stablehlo.sqrt %a : tensor<8xf32>
  return %s : tensor<8xf32>
}
"""


def test_second_moments_are_drawn_nonnegative_without_hints():
    """``%acc`` reaches sqrt through a call, ``%v`` is named ``nu``; ``%mu``
    (divided by the root), ``%g`` (squared first) and ``%x`` stay signed."""
    info = parse_module(ADAM_LIKE)
    reasons = [s.nonnegative_reason for s in info.inputs]
    assert reasons == [None, None, "name", "sqrt", None, None]
    inputs = make_inputs(info.inputs, seed=0)
    assert (inputs[2] >= 0).all() and (inputs[3] >= 0).all()
    assert (inputs[1] < 0).any() and (inputs[4] < 0).any()


def test_optax_adam_step_without_hints_runs_finite():
    """A real optax.adam step exported with no hints: its ``nu`` arguments are
    found and the step's outputs are finite."""
    import jax
    import jax.numpy as jnp
    import optax

    from alpa_mlir.export import export

    opt = optax.adam(1e-2)
    params = {"w": jnp.zeros((4, 3)), "b": jnp.zeros((3,))}

    def step(p, s, x):
        g = jax.grad(lambda p: jnp.sum(jnp.tanh(x @ p["w"] + p["b"]) ** 2))(p)
        u, s = opt.update(g, s, p)
        return optax.apply_updates(p, u), s

    text = export(jax.jit(step, donate_argnums=(0, 1)), params, opt.init(params), jnp.zeros((2, 4)))
    assert "alpa.input_nonnegative" not in text
    info = parse_module(text)
    nu = [i for i, s in enumerate(info.inputs) if s.nonnegative]
    assert len(nu) == 2, [s.nonnegative_reason for s in info.inputs]
    report = runner.run(text)
    outs = report["_results"]["module@1"]
    assert all(np.isfinite(o).all() for o in outs)


# ------------------------------------------------------------ crashes

CRASHING_CHILD = ("import os, signal, sys; "
                  "print('alpa_mlir.run stage: compiling the module for 8 devices', file=sys.stderr, flush=True); "
                  "os.kill(os.getpid(), signal.SIGSEGV)")


def test_crash_in_the_child_is_an_error(capsys):
    code = runner.run_in_child([sys.executable, "-c", CRASHING_CHILD], as_json=False)
    err = capsys.readouterr().err
    assert code == 2
    assert "SIGSEGV" in err and "while compiling the module for 8 devices" in err, err


def test_crash_in_the_child_is_an_error_in_json(capsys):
    code = runner.run_in_child([sys.executable, "-c", CRASHING_CHILD], as_json=True)
    report = json.loads(capsys.readouterr().out)
    assert code == 2 and report["ok"] is False
    assert report["crash"]["signal"] == "SIGSEGV"


def test_cli_runs_xla_in_a_child(monkeypatch, tmp_path, capsys):
    """main() hands the run to a child process: a crashing child is exit 2;
    a normal one passes its report and status through."""
    (tmp_path / "m.mlir").write_text(IDENTITY)
    monkeypatch.setattr(runner, "child_command", lambda argv: [sys.executable, "-c", CRASHING_CHILD])
    assert runner.main([str(tmp_path / "m.mlir")]) == 2
    assert "XLA crashed" in capsys.readouterr().err
    monkeypatch.undo()
    assert runner.main([str(tmp_path / "m.mlir"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


# ------------------------------------------------------------ supported jax

def test_unsupported_jax_is_refused_with_a_clear_message():
    msg = unsupported_reason("jax", "0.4.38")
    assert msg and "compile_and_load" in msg and "jax>=0.10.2,<0.12" in msg and "0.4.38" in msg
    assert unsupported_reason("jaxlib", None) and "not installed" in unsupported_reason("jaxlib", None)
    assert unsupported_reason("jax", "0.12.0")
    assert unsupported_reason("jax", "0.11.2") is None
    assert unsupported_reason("jax", "0.10.2") is None
    assert unsupported_reason("jaxlib", "0.10.2+cuda") is None


def test_pyproject_declares_the_checked_range():
    text = (REPO_ROOT / "python" / "pyproject.toml").read_text()
    deps = re.search(r"dependencies\s*=\s*\[([^\]]*)\]", text).group(1)
    assert f'"{REQUIREMENT}"' in deps
    assert f'"{REQUIREMENT.replace("jax", "jaxlib", 1)}"' in deps


# ------------------------------------------------------------ updates compared by their change

def test_an_update_is_compared_by_its_change_not_only_by_its_new_value():
    """A weight of 1 moved by 1e-5 on one side and 1.5e-5 on the other: the new values agree
    within rtol 2e-4, the changes differ by a third."""
    before = np.ones(4, np.float32)
    a, b = [before - 1e-5], [before - 1.5e-5]
    assert compare_outputs(a, b, rtol=2e-4, atol=2e-5)["match"]
    cmp = compare_results(a, b, [before], {0: 0}, rtol=2e-4, atol=2e-5)
    assert not cmp["match"] and [u["argument"] for u in cmp["updates"]] == [0]
    assert "argument 0 (result 0) changed by something else" in mismatched_outputs(cmp)[0]
    assert compare_results(a, [x.copy() for x in a], [before], {0: 0})["match"]


def test_a_change_below_the_rounding_of_the_new_value_is_no_mismatch():
    """A change of one unit in the last place is what rounding the new weight alone gives; one
    of four units is not."""
    before = np.ones(3, np.float32)
    ulp = np.spacing(np.float32(1))
    one = [before + ulp]
    assert compare_updates({0: 0}, [before], one, [before.copy()], 1e-3)[0]["match"]
    assert not compare_updates({0: 0}, [before], [before + 4 * ulp], [before.copy()],
                               1e-3)[0]["match"]


@pytest.mark.parametrize("new_a", [[NAN, 1.0], [INF, 1.0]])
def test_a_nonfinite_update_on_one_side_is_a_mismatch(new_a):
    before = np.array([1.0, 1.0], np.float32)
    rows = compare_updates({0: 0}, [before], [np.array(new_a, np.float32)],
                           [np.array([0.5, 1.0], np.float32)], 1e-3)
    assert not rows[0]["match"] and rows[0]["nonfinite_mismatches"] == 1


def test_only_float_values_of_the_same_shape_are_compared_by_their_change():
    before = [np.zeros(2, np.int32), np.zeros(3, np.float32)]
    rows = compare_updates({0: 0, 1: 1}, before, [np.ones(2, np.int32), np.ones(2, np.float32)],
                           [np.ones(2, np.int32), np.ones(2, np.float32)], 1e-3)
    assert rows == []  # the int result is compared exactly, the shapes' row says the rest


SGD_STEP = """
func.func @main(%w: tensor<8xf32> {tf.aliasing_output = 0 : i32}, %g: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<f32>) {
  %lr = stablehlo.constant dense<LR> : tensor<8xf32>
  %u = stablehlo.multiply %g, %lr : tensor<8xf32>
  %w2 = stablehlo.subtract %w, %u : tensor<8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%g init: %z) applies stablehlo.add across dimensions = [0]
      : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  return %w2, %s : tensor<8xf32>, tensor<f32>
}
"""


def test_the_runner_fails_a_module_whose_update_differs_from_the_reference(tmp_path):
    """Learning rate 1e-4 against 1.5e-4 on weights below 0.1: each new weight is within the
    f32 tolerance of the reference's, its change is not."""
    (tmp_path / "m.mlir").write_text(SGD_STEP.replace("LR", "1.0e-4"))
    (tmp_path / "ref.mlir").write_text(SGD_STEP.replace("LR", "1.5e-4"))
    r = subprocess.run([sys.executable, "-m", "alpa_mlir.run", str(tmp_path / "m.mlir"),
                        "--reference", str(tmp_path / "ref.mlir"), "--json"],
                       capture_output=True, text=True, cwd=REPO_ROOT)
    assert r.returncode == 1, r.stdout + r.stderr[-2000:]
    (cmp,) = [c for c in json.loads(r.stdout)["comparisons"] if c["rhs"] == "reference@1"]
    assert all(o["match"] for o in cmp["outputs"]) and not cmp["updates"][0]["match"]
    same = subprocess.run([sys.executable, "-m", "alpa_mlir.run", str(tmp_path / "m.mlir"),
                           "--reference", str(tmp_path / "m.mlir")],
                          capture_output=True, text=True, cwd=REPO_ROOT)
    assert same.returncode == 0 and same.stdout.rstrip().endswith("OK"), same.stdout

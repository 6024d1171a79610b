"""Train steps written in PyTorch and exported by torch_xla (data/torch_steps.py says how):
planned by alpa-auto-shard at microbatch size over 2 microbatches and run pipelined by the
command-line runtime, they give what the step exported at the global batch gives on one device.

What such exports have that JAX's do not: int64 labels and float64 optimizer scalars (JAX keeps
them only with jax_enable_x64), GELU's erf as `custom_call @mhlo.erf`, reducers that read the
function's constants from outside their region, LayerNorm as `batch_norm_training` over the
tokens, no donation, Python scalars (learning rate, momentum, label smoothing's weights) as f32
scalar arguments that reach the loss as a state reaches its update, and the arguments in
torch_xla's own order."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from alpa_mlir.pipeline import Pipeline
from alpa_mlir.pipeline_module import PipelineError
from conftest import DATA_DIR, REPO_ROOT
from pipeline_fixtures import auto_shard_step

MICROBATCH, MICROBATCHES = 4, 2


def _run_pipelined(plan, reference) -> dict:
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=8"}
    done = subprocess.run([sys.executable, "-m", "alpa_mlir.pipeline", "run", str(plan), "--devices", "8",
                           "--reference", str(reference), "--json"],
                          capture_output=True, text=True, timeout=900, env=env, cwd=REPO_ROOT / "python")
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


# The CNN's label smoothing divides its two terms by two counts computed apart (the one-hot
# weights' sum and the labels that are not ignored): no one denominator, so its loss is warned
# about (combined as gradient accumulation says, exact when the microbatches' counts agree).
WARNED = {"cnn": "the loss is neither a sum nor a mean over the batch"}


@pytest.mark.parametrize("model", ["mlp", "gpt", "cnn"])
def test_a_pytorch_step_pipelines_to_the_global_step(tmp_path, model):
    micro = (DATA_DIR / f"torch_{model}_b{MICROBATCH}.mlir").read_text()
    planned = auto_shard_step(tmp_path, micro, MICROBATCHES)
    assert planned.returncode == 0, planned.stderr[-3000:]
    warnings = [line for line in planned.stderr.splitlines() if "warning:" in line]
    if model in WARNED:
        assert len(warnings) == 1 and WARNED[model] in warnings[0], warnings
    else:
        assert not warnings, warnings
    plan = (tmp_path / "plan.mlir").read_text()
    assert "mhlo.erf" not in plan
    assert "@stage1_forward" in plan
    result = _run_pipelined(tmp_path / "plan.mlir", DATA_DIR / f"torch_{model}_b{MICROBATCH * MICROBATCHES}.mlir")
    assert result["ok"] and result["reference"]["match"], result["reference"]


def test_64_bit_values_need_jax_enable_x64(tmp_path):
    """In a program of the user's own, the runtime does not turn JAX's 64-bit mode on behind
    its back: it refuses the plan and says how (the command line turns it on)."""
    import jax

    assert not jax.config.jax_enable_x64, "no test of this process may turn 64-bit mode on"
    planned = auto_shard_step(tmp_path, (DATA_DIR / f"torch_mlp_b{MICROBATCH}.mlir").read_text(), MICROBATCHES)
    assert planned.returncode == 0, planned.stderr[-3000:]
    with pytest.raises(PipelineError, match="jax_enable_x64"):
        Pipeline((tmp_path / "plan.mlir").read_text())
    assert not jax.config.jax_enable_x64


_UNEVEN_RUN = """
import sys
import numpy as np
from alpa_mlir.xla_exec import ensure_host_devices
ensure_host_devices(8)
import jax
jax.config.update("jax_enable_x64", True)
from alpa_mlir.input_domains import make_inputs
from alpa_mlir.module_info import parse_module
from alpa_mlir.numerics import compare_outputs
from alpa_mlir.pipeline import Pipeline
from alpa_mlir.xla_exec import compile_module, execute
plan, reference, labels, microbatch = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
step = parse_module(open(reference).read())
inputs = make_inputs(step.inputs, seed=0, default_int_bound=64)
ignored = np.array(inputs[labels])
ignored[:microbatch, 2:] = -100
inputs[labels] = ignored
got = Pipeline(open(plan).read()).run(inputs)
expected = execute(compile_module(step.module, 1), inputs, [o.shape for o in step.outputs])
print(compare_outputs(got, expected, rtol=2e-4, atol=2e-5)["match"])
"""


def test_a_pytorch_masked_mean_over_microbatches_of_unequal_counts_is_the_global_one(tmp_path):
    """PyTorch's cross entropy skips labels of -100 and divides by the labels kept: with most
    of the first microbatch's labels ignored, the microbatches' counts differ (8 and 32), so
    only the ratio of the summed terms to the summed counts gives the global loss and update.
    Its attention merges the examples below the sequence ([L, N, E] -> [L*N, E]) and its
    LayerNorm normalizes over the tokens as batch_norm's features: the loss is still known as
    a ratio of sums through both."""
    planned = auto_shard_step(tmp_path, (DATA_DIR / f"torch_gpt_b{MICROBATCH}.mlir").read_text(), MICROBATCHES)
    assert planned.returncode == 0 and "warning:" not in planned.stderr, planned.stderr[-3000:]
    reference = DATA_DIR / f"torch_gpt_b{MICROBATCH * MICROBATCHES}.mlir"
    # The labels: of the two [8, 8] int64 arguments (tokens and labels), the one read last.
    text = reference.read_text()
    labels = max((5, 36), key=lambda a: text.index(f"(%arg{a})"))
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=8"}
    done = subprocess.run([sys.executable, "-c", _UNEVEN_RUN, str(tmp_path / "plan.mlir"), str(reference),
                           str(labels), str(MICROBATCH)],
                          capture_output=True, text=True, timeout=900, env=env, cwd=REPO_ROOT / "python")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "True", done.stdout[-2000:]


def test_a_pytorch_batch_norm_over_the_examples_is_warned_at_the_norm(tmp_path):
    """BatchNorm2d in training mode (one batch_norm_training op over the examples): each
    microbatch normalizes by its own statistics, which is warned about at that op."""
    planned = auto_shard_step(tmp_path, (DATA_DIR / "torch_bn_b4.mlir").read_text(), MICROBATCHES)
    assert planned.returncode == 0, planned.stderr[-3000:]
    warnings = [line for line in planned.stderr.splitlines() if "warning:" in line]
    assert len(warnings) == 1, warnings
    assert "a batch norm over the examples computes their mean and variance" in warnings[0], warnings

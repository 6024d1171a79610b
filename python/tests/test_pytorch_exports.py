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


@pytest.mark.parametrize("model", ["mlp", "gpt", "cnn"])
def test_a_pytorch_step_pipelines_to_the_global_step(tmp_path, model):
    micro = (DATA_DIR / f"torch_{model}_b{MICROBATCH}.mlir").read_text()
    planned = auto_shard_step(tmp_path, micro, MICROBATCHES)
    assert planned.returncode == 0, planned.stderr[-3000:]
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

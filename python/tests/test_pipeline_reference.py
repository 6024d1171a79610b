"""The pipeline runner's `--reference` check (`numerics.compare_step`): a planned, microbatched
step against the step exported at the global batch.

- Each value the step updates in place is compared by its change, not only by its new value: an
  update (a learning rate times a gradient) is small beside the value, so a wrong gradient hid
  within the tolerance on the new value and the runner said "match".
- The tolerances follow the type the step computes in (its matmuls' operands): a model that
  keeps f32 weights but multiplies in bf16 rounds each microbatch's gradient apart, so its right
  plan's updates differ from the global step's by more than the f32 tolerances allow. A wrong
  update still fails at the bf16 tolerances.

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import json

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from alpa_mlir.hints import ANY
from alpa_mlir.module_info import compute_element_type, parse_module
from alpa_mlir.numerics import compare_outputs, compare_step, step_tolerances
from alpa_mlir.xla_exec import run_on_one_device
from pipeline_fixtures import (auto_shard_step, donated_state_exporter, global_step_inputs,
                               pipeline_cli)

MICROBATCH, MICROBATCHES, WIDTH, LAYERS = 8, 2, 16, 4
LEARNING_RATE = 1e-2
# make_inputs draws floats in [-0.1, 0.1) (standard deviation 0.1 / sqrt(3)): this gain keeps
# each layer's activations as large as its input, so no layer's gradient vanishes
GAIN = 3 ** 0.5 / (0.1 * WIDTH ** 0.5)
SDS = jax.ShapeDtypeStruct


def _step_text(batch: int, compute=jnp.float32, learning_rate=LEARNING_RATE,
               matmul=True) -> str:
    """An SGD step of a tanh MLP with f32 weights that multiplies in `compute`, at `batch`."""
    def step(params, x, y):
        def loss_fn(p):
            h = x.astype(compute)
            for i in range(LAYERS):
                w = p[f"w{i}"].astype(compute)
                h = jnp.tanh(GAIN * (h @ w if matmul else h * w[0]))
            return jnp.mean((h.astype(jnp.float32) - y) ** 2)

        loss, grads = jax.value_and_grad(loss_fn)(params)
        return jax.tree.map(lambda w, g: w - learning_rate * g, params, grads), loss

    params = {f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(LAYERS)}
    features = (lambda b: SDS((b, WIDTH), jnp.float32), ANY)
    return donated_state_exporter(step, params, [features, features])(batch)


COMPUTE = {"f32": jnp.float32, "bf16": jnp.bfloat16}


@pytest.fixture(scope="module")
def plans(tmp_path_factory):
    """compute type -> plan file of the MLP computing in that type, planned over 2 microbatches
    on 8 devices."""
    out = {}
    for name, compute in COMPUTE.items():
        tmp = tmp_path_factory.mktemp(f"reference-{name}")
        r = auto_shard_step(tmp, _step_text(MICROBATCH, compute), MICROBATCHES)
        assert r.returncode == 0, r.stderr[-3000:]
        out[name] = tmp / "plan.mlir"
    return out


def _run_against(plan, reference_text, tmp_path, *extra):
    reference = tmp_path / "reference.mlir"
    reference.write_text(reference_text)
    r = pipeline_cli("run", plan, "--devices", 8, "--reference", reference, "--json", *extra,
                     timeout=600)
    assert r.returncode in (0, 1), r.stderr[-3000:]
    return r, json.loads(r.stdout)


@pytest.mark.parametrize("name", COMPUTE)
def test_a_right_plan_matches_at_the_tolerances_of_its_compute_type(plans, name, tmp_path):
    r, rep = _run_against(plans[name], _step_text(MICROBATCH * MICROBATCHES, COMPUTE[name]),
                          tmp_path)
    assert r.returncode == 0 and rep["reference"]["match"], (rep["reference"], r.stderr[-2000:])
    assert rep["reference"]["compute_type"] == name
    assert rep["reference"]["tolerances"] == step_tolerances(name)


def test_bf16_arithmetic_needs_the_wider_tolerances(plans):
    """What makes the bf16 tolerances necessary: at f32's, the right bf16 plan's updates differ
    from the global step's (each microbatch's gradient is rounded to bf16 on its own)."""
    from alpa_mlir.pipeline import Pipeline

    step, inputs = global_step_inputs(_step_text(MICROBATCH * MICROBATCHES, jnp.bfloat16))
    got = Pipeline(plans["bf16"].read_text()).run(inputs)
    expected = run_on_one_device(step, inputs)
    assert not compare_step(step, inputs, got, expected, step_tolerances("f32"))["match"]
    assert compare_step(step, inputs, got, expected)["match"]


@pytest.mark.parametrize("name", COMPUTE)
def test_an_update_that_differs_is_a_mismatch_though_the_new_values_agree(plans, name, tmp_path):
    """The reference's learning rate is 1.5 times the plan's: every update differs by a third of
    the reference's, while each new weight moves by less than the tolerance on its value, so
    comparing new values alone (the check before) said "match"."""
    from alpa_mlir.pipeline import Pipeline

    reference = _step_text(MICROBATCH * MICROBATCHES, COMPUTE[name],
                           learning_rate=1.5 * LEARNING_RATE)
    r, rep = _run_against(plans[name], reference, tmp_path)
    assert r.returncode == 1 and not rep["reference"]["match"]
    assert rep["reference"]["updates_mismatched"] == list(range(LAYERS))
    assert "changed by something else than on the other side" in r.stderr
    step, inputs = global_step_inputs(reference)
    got = Pipeline(plans[name].read_text()).run(inputs)
    assert compare_outputs(got, run_on_one_device(step, inputs), rtol=2e-4, atol=2e-5)["match"]


def test_the_tolerances_can_be_given(plans, tmp_path):
    r, rep = _run_against(plans["bf16"], _step_text(MICROBATCH * MICROBATCHES, jnp.bfloat16),
                          tmp_path, "--rtol", 2e-4, "--atol", 2e-5, "--update-rtol", 1e-3)
    assert r.returncode == 1 and rep["reference"]["tolerances"] == step_tolerances("f32")


@pytest.mark.parametrize("compute, matmul, want", [
    (jnp.float32, True, "f32"), (jnp.bfloat16, True, "bf16"), (jnp.float16, True, "f16"),
    (jnp.bfloat16, False, None)])
def test_the_compute_type_is_the_least_precise_a_matmul_reads(compute, matmul, want):
    assert compute_element_type(parse_module(_step_text(4, compute, matmul=matmul))) == want

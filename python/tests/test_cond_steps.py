"""`lax.cond` and `lax.switch` in a train step (exported as `stablehlo.case`, whose branches read
their operands from outside the op): an activation chosen per layer by `lax.switch` on a step
argument, and `optax.apply_if_finite` (a cond in the update), planned by `alpa-auto-shard` into
several stages and run over microbatches on 8 devices, equal the global-batch step on one
device, with every branch index.

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations


import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest

from alpa_mlir.export import export
from alpa_mlir.hints import ANY, int_bound
from alpa_mlir.pipeline import Pipeline
from pipeline_fixtures import assert_pipeline_matches, auto_shard_step, global_step_inputs

MICROBATCH, MICROBATCHES, WIDTH, LAYERS = 8, 2, 32, 4
SDS = jax.ShapeDtypeStruct
ACTIVATIONS = (jnp.tanh, jax.nn.relu, jax.nn.gelu)


def _export(batch: int) -> str:
    params = {f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(LAYERS)}
    tx = optax.apply_if_finite(optax.adam(1e-2), max_consecutive_errors=3)

    def step(params, opt_state, x, y, activation):
        def loss_fn(p):
            h = x
            for i in range(LAYERS):
                h = jax.lax.switch(activation, ACTIVATIONS, h @ p[f"w{i}"])
            return jnp.mean((h - y) ** 2)

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    opt_state = jax.eval_shape(tx.init, params)
    data = (SDS((batch, WIDTH), jnp.float32), SDS((batch, WIDTH), jnp.float32),
            SDS((), jnp.int32))
    hints = (jax.tree.map(lambda _: ANY, params), jax.tree.map(lambda _: ANY, opt_state), ANY, ANY,
             int_bound(len(ACTIVATIONS)))
    return export(jax.jit(step, donate_argnums=(0, 1), keep_unused=True), params, opt_state, *data, hints=hints,
                  debug_info=True)


@pytest.fixture(scope="module")
def planned(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cond")
    text = _export(MICROBATCH)
    assert text.count("stablehlo.case") >= LAYERS + 1, "the export holds no case ops to test"
    r = auto_shard_step(tmp, text, MICROBATCHES)
    assert r.returncode == 0, r.stderr[-3000:]
    plan = (tmp / "plan.mlir").read_text()
    assert "stablehlo.case" not in plan
    return Pipeline(plan), _export(MICROBATCH * MICROBATCHES)


@pytest.mark.parametrize("activation", range(len(ACTIVATIONS)))
def test_a_step_with_switch_and_apply_if_finite_matches_the_global_step(planned, activation):
    pipe, global_text = planned
    step, inputs = global_step_inputs(global_text, seed=activation)
    inputs[-1] = np.asarray(activation, dtype=np.int32)
    assert_pipeline_matches(pipe, step, inputs)

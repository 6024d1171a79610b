"""DP-SGD: per-example gradients from one `jax.vmap(jax.value_and_grad(...))`, clipped by each
example's norm across all layers (`optax.contrib.dpsgd`, and the same written by hand), or per
layer. The factor of an example reads every layer's per-example gradient, the first layer's
included, which the backward computes last, so what it scales runs in the first stage's backward
function. Planned by `alpa-auto-shard` into several stages over microbatches on 8 devices, the
step equals the global-batch step on one device. The hand-written clipping across layers scales
elementwise, which the phases call update ops, and failed before (a later stage's backward
needed the first stage's); `dpsgd` sums the clipped gradients with a contraction over the batch
(a backward op) and planned before too. It runs with noise_multiplier=0: its noise is scaled by
the batch size the step was exported at, which is the microbatch's.

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import optax.contrib
import pytest

from alpa_mlir.export import export
from alpa_mlir.hints import ANY
from pipeline_fixtures import assert_pipelined_step_matches, tanh_layers

MICROBATCH, MICROBATCHES, WIDTH, LAYERS = 8, 2, 32, 4
SDS = jax.ShapeDtypeStruct


def _example_loss(params, x, y):
    return jnp.sum((tanh_layers(params, x, LAYERS) - y) ** 2)


def _scale_across_layers(per_example):
    norms = sum(jnp.sum(g * g, axis=(1, 2)) for g in per_example.values())
    return {k: g / (1.0 + norms)[:, None, None] for k, g in per_example.items()}


def _scale_per_layer(per_example):
    return {k: g / (1.0 + jnp.sum(g * g, axis=(1, 2)))[:, None, None] for k, g in per_example.items()}


def _hand_written(scale):
    def init(params):
        return jnp.zeros((), jnp.int32)

    def update(per_example, count, params=None):
        grads = jax.tree.map(lambda g: jnp.mean(g, axis=0), scale(per_example))
        return jax.tree.map(lambda g: -0.1 * g, grads), count + 1
    return init, update


OPTIMIZERS = {
    "optax-dpsgd": lambda: optax.contrib.dpsgd(0.1, l2_norm_clip=0.5, noise_multiplier=0.0, seed=0),
    "across-layers": lambda: _hand_written(_scale_across_layers),
    "per-layer": lambda: _hand_written(_scale_per_layer),
}


def _export(tx, batch: int) -> str:
    init, update = (tx.init, tx.update) if hasattr(tx, "init") else tx
    params = {f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(LAYERS)}

    def step(params, opt_state, x, y):
        losses, per_example = jax.vmap(jax.value_and_grad(_example_loss), in_axes=(None, 0, 0))(params, x, y)
        updates, opt_state = update(per_example, opt_state, params)
        new_params = jax.tree.map(lambda p, u: p + u, params, updates)
        return new_params, opt_state, jnp.mean(losses)

    opt_state = jax.eval_shape(init, params)
    data = (SDS((batch, WIDTH), jnp.float32), SDS((batch, WIDTH), jnp.float32))
    hints = (jax.tree.map(lambda _: ANY, params), jax.tree.map(lambda _: ANY, opt_state), ANY, ANY)
    return export(jax.jit(step, donate_argnums=(0, 1)), params, opt_state, *data, hints=hints, debug_info=True)


@pytest.mark.filterwarnings("ignore:\"seed\" is deprecated:DeprecationWarning")
@pytest.mark.parametrize("name", OPTIMIZERS)
def test_per_example_clipping_pipelines_and_matches_the_global_step(tmp_path, name):
    tx = OPTIMIZERS[name]()
    assert_pipelined_step_matches(tmp_path, lambda batch: _export(tx, batch), MICROBATCH, MICROBATCHES)

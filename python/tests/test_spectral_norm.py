"""Spectral normalisation of every layer (the form of `eqx.nn.SpectralNorm` and
`flax.linen.SpectralNorm`): a power iteration on `stop_gradient(W)` with the state (u, v) the
step returns, sigma = u^T W v, and the layer uses W / sigma. The gradient through sigma reads
the later layer's gradient and the earlier layer's power iteration, and runs once per step,
in the apply functions, which run first stage first: planned by `alpa-auto-shard` into several
stages over microbatches on 8 devices (refused before: an apply function needed a later
stage's), the step equals the global-batch step on one device.

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from alpa_mlir.export import export
from alpa_mlir.hints import ANY
from pipeline_fixtures import assert_pipelined_step_matches

MICROBATCH, MICROBATCHES, WIDTH, LAYERS = 8, 2, 32, 3
SDS = jax.ShapeDtypeStruct


def _unit(x):
    return x / (jnp.linalg.norm(x) + 1e-12)


def _export(batch: int) -> str:
    params = {f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(LAYERS)}
    state = {f"{n}{i}": SDS((WIDTH,), jnp.float32) for i in range(LAYERS) for n in "uv"}

    def step(params, state, x, y):
        def loss_fn(p):
            h, new_state = x, {}
            for i in range(LAYERS):
                w = p[f"w{i}"]
                frozen = jax.lax.stop_gradient(w)
                v = _unit(frozen.T @ state[f"u{i}"])
                u = _unit(frozen @ v)
                new_state[f"u{i}"], new_state[f"v{i}"] = u, v
                h = jnp.tanh(h @ (w / jnp.einsum("i,ij,j->", u, w, v)).T)
            return jnp.mean((h - y) ** 2), new_state

        (loss, new_state), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        return {k: params[k] - 0.1 * grads[k] for k in params}, new_state, loss

    data = (SDS((batch, WIDTH), jnp.float32), SDS((batch, WIDTH), jnp.float32))
    hints = (jax.tree.map(lambda _: ANY, params), jax.tree.map(lambda _: ANY, state), ANY, ANY)
    return export(jax.jit(step, donate_argnums=(0, 1), keep_unused=True), params, state, *data, hints=hints, debug_info=True)


def test_spectral_normalisation_pipelines_and_matches_the_global_step(tmp_path):
    assert_pipelined_step_matches(tmp_path, _export, MICROBATCH, MICROBATCHES)

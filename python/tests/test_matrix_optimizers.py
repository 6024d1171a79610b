"""Optimizers whose update multiplies gradient-derived matrices: `optax.contrib.muon`
(Newton-Schulz orthogonalisation of the momentum) and a hand-written Shampoo-like step
(`m @ (m.T @ m)`). Their matrix products feed heavy ops, so the step's phases call them backward,
yet the global step computes them once, on the whole batch's gradient: planned by
`alpa-auto-shard` into several stages over microbatches on 8 devices, they run in the apply
functions and the step equals the global-batch step on one device, also when it returns its
gradients.

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import optax
import optax.contrib
import pytest

from alpa_mlir.export import export
from alpa_mlir.hints import ANY
from pipeline_fixtures import assert_pipelined_step_matches, tanh_layers

MICROBATCH, MICROBATCHES, WIDTH, LAYERS = 8, 2, 32, 4
SDS = jax.ShapeDtypeStruct


def _loss(params, x, y):
    return jnp.mean((tanh_layers(params, x, LAYERS) - y) ** 2)


def _shampoo_like():
    def init(params):
        return jax.tree.map(jnp.zeros_like, params)

    def update(grads, momentum, params=None):
        momentum = jax.tree.map(lambda m, g: 0.9 * m + g, momentum, grads)
        return jax.tree.map(lambda m: -0.01 * (m @ (m.T @ m)), momentum), momentum
    return optax.GradientTransformation(init, update)


OPTIMIZERS = {"muon": lambda: optax.contrib.muon(1e-2), "shampoo-like": _shampoo_like}


def _export(tx, batch: int, return_grads: bool = False) -> str:
    params = {f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(LAYERS)}

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(_loss)(params, x, y)
        updates, opt_state = tx.update(grads, opt_state, params)
        out = (optax.apply_updates(params, updates), opt_state, loss)
        return out + (grads,) if return_grads else out

    opt_state = jax.eval_shape(tx.init, params)
    data = (SDS((batch, WIDTH), jnp.float32), SDS((batch, WIDTH), jnp.float32))
    hints = (jax.tree.map(lambda _: ANY, params), jax.tree.map(lambda _: ANY, opt_state), ANY, ANY)
    return export(jax.jit(step, donate_argnums=(0, 1), keep_unused=True), params, opt_state, *data,
                  hints=hints, debug_info=True)


def _functions(text: str) -> dict[str, str]:
    """Each function of a module's text by name, with the text of its body."""
    parts = re.split(r"\n  func\.func (?:private |public )?@([\w.]+)\(", text)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_an_optimizer_with_matrix_products_pipelines_and_matches_the_global_step(tmp_path, name):
    tx = OPTIMIZERS[name]()
    _, plan = assert_pipelined_step_matches(tmp_path, lambda batch: _export(tx, batch), MICROBATCH,
                                            MICROBATCHES)
    # The optimizer's products of weight-shaped matrices run once, in the apply functions.
    square = f"(tensor<{WIDTH}x{WIDTH}xf32>, tensor<{WIDTH}x{WIDTH}xf32>) -> tensor<{WIDTH}x{WIDTH}xf32>"
    products = {fn: body.count(square) for fn, body in _functions(plan).items()
                if "dot_general" in body}
    assert sum(n for fn, n in products.items() if fn.endswith("_apply")) >= LAYERS, products
    assert all(n == 0 for fn, n in products.items() if not fn.endswith("_apply")), products


def test_a_step_returning_its_gradients_gives_the_global_batchs(tmp_path):
    """The gradients the apply functions read are accumulated as the loss's mean says, and so is
    the same value returned."""
    tx = _shampoo_like()
    assert_pipelined_step_matches(tmp_path, lambda batch: _export(tx, batch, return_grads=True),
                                  MICROBATCH, MICROBATCHES)

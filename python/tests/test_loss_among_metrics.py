"""Which result is the loss, when a step returns scalars beside it with nothing in JAX's result
paths to tell them apart (a tuple `(loss, grad_norm)`, or `return state, loss, acc, lr`): a
norm of the gradients, an accuracy, a learning rate or a statistic of an activation returned
after the loss was taken for it, being the last. The gradient norm then ran per microbatch as
if it were the loss, and its mean over the microbatches was returned, with no warning. Each
step, pipelined over microbatches, gives what it gives exported at the global batch.

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import optax
import pytest

from alpa_mlir.export import export
from alpa_mlir.hints import ANY, int_bound
from pipeline_fixtures import assert_pipelined_step_matches

MICROBATCH, MICROBATCHES, WIDTH, CLASSES = 8, 2, 16, 4
SDS = jax.ShapeDtypeStruct


def _export(extra: tuple[str, ...], nested: bool, batch: int) -> str:
    keys = jax.random.split(jax.random.PRNGKey(0), 3)
    params = {f"w{i}": 0.3 * jax.random.normal(keys[i], (WIDTH, WIDTH if i < 2 else CLASSES)) for i in range(3)}
    opt = optax.inject_hyperparams(optax.adam)(learning_rate=optax.linear_schedule(1e-2, 1e-3, 100))

    def step(state, x, y):
        params, opt_state = state

        def loss_of(p):
            hidden = jnp.tanh(x @ p["w0"])
            logits = jnp.tanh(hidden @ p["w1"]) @ p["w2"]
            return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean(), (hidden, logits)

        (loss, (hidden, logits)), grads = jax.value_and_grad(loss_of, has_aux=True)(params)
        updates, opt_state = opt.update(grads, opt_state, params)
        metrics = {"grad_norm": optax.global_norm(grads), "accuracy": jnp.mean(jnp.argmax(logits, -1) == y),
                   "learning_rate": opt_state.hyperparams["learning_rate"], "activation": jnp.mean(hidden)}
        scalars = (loss, *(metrics[name] for name in extra))
        return (optax.apply_updates(params, updates), opt_state), *((scalars,) if nested else scalars)

    state = jax.tree.map(lambda a: SDS(a.shape, a.dtype), (params, opt.init(params)))
    hints = (jax.tree.map(lambda _: ANY, state), ANY, int_bound(CLASSES))
    return export(jax.jit(step, donate_argnums=(0,), keep_unused=True), state, SDS((batch, WIDTH), jnp.float32),
                  SDS((batch,), jnp.int32), hints=hints, debug_info=True)


CASES = {
    "grad-norm-in-a-tuple": (("grad_norm",), True),
    "grad-norm-returned-after": (("grad_norm",), False),
    "all-after": (("learning_rate", "accuracy", "activation", "grad_norm"), False),
    "accuracy-last": (("grad_norm", "activation", "accuracy"), True),
}


@pytest.mark.parametrize("extra,nested", CASES.values(), ids=CASES.keys())
def test_the_loss_is_told_from_the_scalars_returned_after_it(tmp_path, extra, nested):
    planned, _ = assert_pipelined_step_matches(tmp_path, lambda batch: _export(extra, nested, batch),
                                               MICROBATCH, MICROBATCHES, min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-3000:]

"""Knowledge distillation with a frozen teacher passed to the step beside the batch (not donated,
not updated): the teacher's arrays are parameters, read as `x @ w + b`, and every microbatch
shares them. They were taken for batch inputs by the rule for non-donated arguments: when they
outnumbered the batch inputs, their leading size was taken for the batch size and `x` and the
labels were shared instead; of the microbatch's own width, they were split with the batch. Both
plans were accepted and failed at run time. Planned by `alpa-auto-shard` over microbatches on 8
devices, the step equals the global-batch step on one device.

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest

from alpa_mlir.export import export
from alpa_mlir.hints import ANY
from pipeline_fixtures import assert_pipelined_step_matches

MICROBATCH, MICROBATCHES, WIDTH = 8, 2, 32
SDS = jax.ShapeDtypeStruct


def _export(teacher_width: int, batch: int) -> str:
    def step(params, teacher, x, y):
        hidden = jnp.tanh(jnp.tanh(x @ teacher["w0"] + teacher["b0"]) @ teacher["w1"] + teacher["b1"])
        target = jax.lax.stop_gradient(hidden @ teacher["w2"])

        def loss_fn(p):
            student = jnp.tanh(jnp.tanh(x @ p["w0"]) @ p["w1"]) @ p["w2"]
            return jnp.mean((student - target) ** 2) + jnp.mean((student - y) ** 2)

        loss, grads = jax.value_and_grad(loss_fn)(params)
        return jax.tree.map(lambda w, g: w - 0.5 * g, params, grads), loss

    params = {f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(3)}
    h = teacher_width
    teacher = {"w0": SDS((WIDTH, h), jnp.float32), "b0": SDS((h,), jnp.float32),
               "w1": SDS((h, h), jnp.float32), "b1": SDS((h,), jnp.float32),
               "w2": SDS((h, WIDTH), jnp.float32)}
    data = (SDS((batch, WIDTH), jnp.float32), SDS((batch, WIDTH), jnp.float32))
    hints = (jax.tree.map(lambda _: ANY, params), jax.tree.map(lambda _: ANY, teacher), ANY, ANY)
    return export(jax.jit(step, donate_argnums=(0,), keep_unused=True), params, teacher, *data,
                  hints=hints, debug_info=True)


@pytest.mark.parametrize("teacher_width", [48, MICROBATCH], ids=["wider", "microbatch-wide"])
def test_a_frozen_teacher_beside_the_batch_is_shared_and_the_step_matches(tmp_path, teacher_width):
    planned, _ = assert_pipelined_step_matches(
        tmp_path, lambda batch: _export(teacher_width, batch), MICROBATCH, MICROBATCHES, min_stages=2)
    assert "alpa.batch_dim" not in planned.stderr, planned.stderr[-3000:]

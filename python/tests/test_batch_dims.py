"""Which dim of an input is its batch: a time-major input ``[T, B, F]`` (batch on dim 1, as
RNN and seq2seq code often keeps it) beside batch-major labels.
- Exported without a hint, the rule (dim 0 is the batch) shares it; `alpa-auto-shard` warns at
  the argument that its dim 1 has the batch size, and running the plan on the global batch fails
  with a message naming the fix, never a silently wrong step.
- Exported with ``Hint(batch_dim=1)`` (the ``alpa.batch_dim`` argument attribute), it is split on
  dim 1: the pipelined step over microbatches on 8 devices equals the global-batch step.
- Frozen embedding tables passed in beside the batch, read only by lookups, are shared, however
  many or large they are.

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import subprocess

import jax
import jax.numpy as jnp
import optax
import pytest

from alpa_mlir.export import export
from alpa_mlir.hints import ANY, Hint, int_bound
from alpa_mlir.pipeline import Pipeline, PipelineError
from pipeline_fixtures import assert_pipeline_matches, auto_shard_step, global_step_inputs

MICROBATCH, MICROBATCHES, STEPS, WIDTH, LAYERS = 8, 2, 3, 16, 4
SDS = jax.ShapeDtypeStruct


def _export(batch: int, x_hint: Hint) -> str:
    params = {f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(LAYERS)}
    tx = optax.sgd(0.1)

    def step(params, opt_state, x, y):
        def loss_fn(p):
            h = x  # [T, B, F]
            for i in range(LAYERS):
                h = jnp.tanh(h @ p[f"w{i}"])
            return jnp.mean((h.mean(0) - y) ** 2)

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    opt_state = jax.eval_shape(tx.init, params)
    x, y = SDS((STEPS, batch, WIDTH), jnp.float32), SDS((batch, WIDTH), jnp.float32)
    hints = (jax.tree.map(lambda _: ANY, params), jax.tree.map(lambda _: ANY, opt_state), x_hint,
             ANY)
    return export(jax.jit(step, donate_argnums=(0, 1)), params, opt_state, x, y, hints=hints,
                  debug_info=True)


def _plan(tmp_path, text: str) -> subprocess.CompletedProcess:
    return auto_shard_step(tmp_path, text, MICROBATCHES)


def _global_step(x_hint: Hint):
    return global_step_inputs(_export(MICROBATCH * MICROBATCHES, x_hint))


def test_a_time_major_input_without_a_hint_is_warned_about_and_refused_at_run(tmp_path):
    planned = _plan(tmp_path, _export(MICROBATCH, ANY))
    assert planned.returncode == 0, planned.stderr[-3000:]
    warnings = [line for line in planned.stderr.splitlines() if "warning:" in line]
    assert any("its dim 1 has the batch size" in w and "Hint(batch_dim=1)" in w
               for w in warnings), planned.stderr[-3000:]
    pipe = Pipeline((tmp_path / "plan.mlir").read_text())
    _, inputs = _global_step(ANY)
    with pytest.raises(PipelineError, match=r"Hint\(batch_dim=1\)"):
        pipe.run(inputs)


def test_a_time_major_input_with_its_batch_dim_pipelines_and_matches_the_global_step(tmp_path):
    hint = Hint(batch_dim=1)
    text = _export(MICROBATCH, hint)
    assert "alpa.batch_dim = 1" in text
    planned = _plan(tmp_path, text)
    assert planned.returncode == 0, planned.stderr[-3000:]
    assert "has the batch size" not in planned.stderr
    pipe = Pipeline((tmp_path / "plan.mlir").read_text())
    step, inputs = _global_step(hint)
    assert_pipeline_matches(pipe, step, inputs, min_stages=2)


@pytest.mark.parametrize("bad", [-2, 1.0, True, "1"])
def test_a_batch_dim_hint_is_a_dim_or_minus_one(bad):
    with pytest.raises(ValueError, match="batch_dim must be"):
        Hint(batch_dim=bad)


FROZEN_ROWS, TOKENS, CLASSES = 16, 6, 4


def _frozen_tables_export(batch: int) -> str:
    """A step that trains a head over two frozen embedding tables passed in beside the batch
    (not donated, read only by lookups): as many tables as batch inputs, and larger, so by
    leading size they outvoted the ids and labels and were split as the batch."""
    params = {f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(LAYERS)}
    frozen = SDS((FROZEN_ROWS, WIDTH), jnp.float32)

    def step(params, words, positions, ids, y):
        def loss_fn(p):
            h = (words[ids] + positions[ids]).mean(1)
            for i in range(LAYERS):
                h = jnp.tanh(h @ p[f"w{i}"])
            return optax.softmax_cross_entropy_with_integer_labels(h[:, :CLASSES], y).mean()

        loss, grads = jax.value_and_grad(loss_fn)(params)
        return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss

    hints = (jax.tree.map(lambda _: ANY, params), ANY, ANY, int_bound(FROZEN_ROWS), int_bound(CLASSES))
    return export(jax.jit(step, donate_argnums=(0,)), params, frozen, frozen,
                  SDS((batch, TOKENS), jnp.int32), SDS((batch,), jnp.int32), hints=hints, debug_info=True)


def test_frozen_tables_read_only_by_lookups_are_shared_not_split_as_the_batch(tmp_path):
    planned = auto_shard_step(tmp_path, _frozen_tables_export(MICROBATCH), MICROBATCHES)
    assert planned.returncode == 0, planned.stderr[-3000:]
    assert "warning:" not in planned.stderr, planned.stderr[-3000:]
    step, inputs = global_step_inputs(_frozen_tables_export(MICROBATCH * MICROBATCHES))
    assert_pipeline_matches(Pipeline((tmp_path / "plan.mlir").read_text()), step, inputs, min_stages=2)

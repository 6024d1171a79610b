"""Values that number the examples of a microbatch restart in every microbatch: a loss weighted
by `jnp.arange(batch)`, a dropout mask drawn with `jax.random.bernoulli(key, p, x.shape)` (its
counters run over the batch dimension) or per-example keys from `jax.random.split(key, batch)`
make the pipelined step differ from the global batch's, and `alpa-auto-shard` warns at the line
where they meet the examples. Positions used as indices into the microbatch's own examples
(`take_along_axis`, segment ids offset per example) and positions along other dimensions
(one-hot over classes, a causal mask over time) are the same in both and are not reported.
Examples reordered along the batch (`jnp.flip(h, 0)`, `h[permutation]`, neighbours by slicing)
and meeting examples in the batch's order (mixup) meet others of their own microbatch only: warned
at the line where they meet.

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import inspect

import jax
import jax.numpy as jnp
import pytest

from alpa_mlir.export import export
from alpa_mlir.hints import ANY, Hint, int_bound
from pipeline_fixtures import auto_shard_step

MICROBATCH, MICROBATCHES, WIDTH, TIME, CLASSES = 4, 2, 16, 4, 4
SDS = jax.ShapeDtypeStruct
WARNING = "the examples meet their positions in the microbatch here"
REORDERED = "examples meet other examples of the batch here"


def _weighted_by_position(h, key):
    return h * jnp.arange(h.shape[0], dtype=h.dtype)[:, None, None]  # MARK


def _dropout(h, key):
    return h * jax.random.bernoulli(key, 0.75, h.shape)  # MARK


def _keys_per_example(h, key):
    keys = jax.random.split(key, h.shape[0])
    return h * jax.vmap(lambda k: jax.random.bernoulli(k, 0.75, h.shape[1:]))(keys)  # MARK


def _mixup_flip(h, key):
    return 0.7 * h + 0.3 * jnp.flip(h, 0)  # MARK


def _mixup_permutation(h, key):
    return 0.7 * h + 0.3 * h[jax.random.permutation(key, h.shape[0])]  # MARK


def _neighbour_differences(h, key):
    return jnp.concatenate([h[1:] - h[:-1], h[:1]], 0)  # MARK


def _positions_elsewhere(h, key):
    causal = jnp.tril(jnp.ones((TIME, TIME), h.dtype))
    mixed = jnp.einsum("st,btf->bsf", causal, h) / jnp.arange(1, TIME + 1, dtype=h.dtype)[None, :, None]
    segments = jnp.arange(h.shape[0])[:, None] * TIME + jnp.arange(TIME)[None, :]
    pooled = jax.ops.segment_sum(mixed.reshape(-1, WIDTH), segments.reshape(-1), num_segments=h.shape[0] * TIME)
    return pooled.reshape(h.shape)


def _export(noise, batch: int) -> str:
    params = {f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(3)}

    def step(params, x, y, key):
        def loss_fn(p):
            h = jnp.tanh(x @ p["w0"])
            h = noise(h, key)
            h = jnp.tanh(h @ p["w1"]) @ p["w2"]
            logits = jnp.mean(h, axis=1)[:, :CLASSES]
            logp = jax.nn.log_softmax(logits)
            return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1)) + 0.1 * jnp.mean(
                jax.nn.one_hot(y, CLASSES) * logits)

        loss, grads = jax.value_and_grad(loss_fn)(params)
        return {k: params[k] - 0.1 * grads[k] for k in params}, loss

    data = (SDS((batch, TIME, WIDTH), jnp.float32), SDS((batch,), jnp.int32), SDS((2,), jnp.uint32))
    hints = (jax.tree.map(lambda _: ANY, params), ANY, int_bound(CLASSES), Hint(batch_dim=-1))
    return export(jax.jit(step, donate_argnums=(0,), keep_unused=True), params, *data, hints=hints, debug_info=True)


def _marked_line(fn) -> int:
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if "# MARK" in line)


@pytest.mark.parametrize("noise", [_weighted_by_position, _dropout, _keys_per_example],
                         ids=["arange", "dropout", "split-keys"])
def test_positions_in_the_microbatch_that_meet_the_examples_are_warned_where_they_meet(tmp_path, noise):
    planned = auto_shard_step(tmp_path, _export(noise, MICROBATCH), MICROBATCHES)
    assert planned.returncode == 0, planned.stderr[-3000:]
    warnings = [line for line in planned.stderr.splitlines() if WARNING in line]
    assert warnings, planned.stderr[-3000:]
    assert f"test_batch_positions.py:{_marked_line(noise)}:" in warnings[0], warnings


@pytest.mark.parametrize("noise", [_mixup_flip, _mixup_permutation, _neighbour_differences],
                         ids=["flip", "permutation", "neighbours"])
def test_examples_reordered_along_the_batch_that_meet_the_batch_are_warned_where_they_meet(tmp_path, noise):
    planned = auto_shard_step(tmp_path, _export(noise, MICROBATCH), MICROBATCHES)
    assert planned.returncode == 0, planned.stderr[-3000:]
    warnings = [line for line in planned.stderr.splitlines() if REORDERED in line]
    assert warnings, planned.stderr[-3000:]
    assert f"test_batch_positions.py:{_marked_line(noise)}:" in warnings[0], warnings


def test_positions_as_indices_or_along_other_dimensions_are_not(tmp_path):
    planned = auto_shard_step(tmp_path, _export(_positions_elsewhere, MICROBATCH), MICROBATCHES)
    assert planned.returncode == 0, planned.stderr[-3000:]
    assert WARNING not in planned.stderr, planned.stderr[-3000:]
    assert REORDERED not in planned.stderr, planned.stderr[-3000:]


def test_a_one_hot_over_as_many_classes_as_examples_picked_by_a_product_is_not(tmp_path):
    """Each example's score at a class fixed for all (MoCo's positive at index 0, optax.ctc_loss's
    label lengths from constant paddings) picked by `einsum("bn,bn->b", scores, one_hot)`, with
    as many classes as the microbatch has examples. The one-hot is computed without the examples
    and its positions are along the classes; the backward pass contracts it with the mean's
    constant cotangent, which sums them away. Before, any product computed without the examples
    was taken to put positions on every dimension of the batch's size, and this was warned about."""
    params = {f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(2)}

    def step(params, x):
        def loss_fn(p):
            scores = jax.nn.log_softmax((jnp.tanh(x @ p["w0"]) @ p["w1"])[:, :x.shape[0]])
            target = jax.nn.one_hot(jnp.zeros(x.shape[0], jnp.int32), x.shape[0])
            return -jnp.mean(jnp.einsum("bn,bn->b", scores, target))

        loss, grads = jax.value_and_grad(loss_fn)(params)
        return {k: params[k] - 0.1 * grads[k] for k in params}, loss

    def exported(batch: int) -> str:
        return export(jax.jit(step, donate_argnums=(0,)), params, SDS((batch, WIDTH), jnp.float32),
                      hints=(jax.tree.map(lambda _: ANY, params), ANY), debug_info=True)

    planned = auto_shard_step(tmp_path, exported(MICROBATCH), MICROBATCHES)
    assert planned.returncode == 0, planned.stderr[-3000:]
    assert "warning:" not in planned.stderr, planned.stderr[-3000:]

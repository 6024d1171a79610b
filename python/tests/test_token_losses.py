"""Losses and metrics over tokens, and losses guarded against an empty batch, pipelined over
microbatches: a language model's cross entropy over `logits.reshape(-1, vocab)` (the batch merged
with the sequence, as Hugging Face and most LM code write it) and its token accuracy are a mean
and a sum over the batch, and so is a mean divided with Keras' `divide_no_nan` guard
(`jnp.where(n == 0, 0, total / jnp.where(n == 0, 1, n))`). Both plan without a warning and give
the global-batch step's results; they were taken for neither a sum nor a mean (a warning at the
loss, and a returned metric refused).

A loss summed over the tokens and divided by a number that grows with the batch is a mean too:
by the examples (`jnp.sum(l) / batch`, each sequence's tokens summed), by a literal that is the
examples times a whole number (`batch * (tokens - 1)`, which JAX folds before export), or by the
sum of a position mask built from `jnp.arange` and broadcast over the batch. They were taken for
a sum, unwarned: the microbatches' gradients added up to twice the global batch's update. A
divisor other than the examples and the count might be a fixed coefficient that happens to be a
multiple of the examples, so it is warned about at its op.

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import optax
import pytest

from alpa_mlir.export import export
from alpa_mlir.hints import ANY, int_bound
from pipeline_fixtures import assert_pipelined_step_matches, tanh_layers

MICROBATCH, MICROBATCHES, TOKENS, VOCAB, WIDTH, LAYERS = 4, 2, 6, 12, 32, 4
SDS = jax.ShapeDtypeStruct


def _flattened_token_loss(logits, labels):
    per_token = optax.softmax_cross_entropy_with_integer_labels(logits.reshape(-1, VOCAB),
                                                                labels.reshape(-1))
    return per_token.mean()


def _divide_no_nan_loss(logits, labels):
    per_example = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean(-1)
    total, count = jnp.sum(per_example), jnp.asarray(per_example.size, jnp.float32)
    return jnp.where(count == 0, 0.0, total / jnp.where(count == 0, 1.0, count))


def _per_sequence_sum_loss(logits, labels):
    per_token = optax.softmax_cross_entropy_with_integer_labels(logits, labels)
    return jnp.sum(per_token) / labels.shape[0]


def _next_token_mask(labels):
    """The positions that have a next token, for every sequence: computed from no input."""
    return jnp.broadcast_to((jnp.arange(TOKENS) < TOKENS - 1).astype(jnp.float32), labels.shape)


def _position_masked_loss(logits, labels):
    per_token = optax.softmax_cross_entropy_with_integer_labels(logits, jnp.roll(labels, -1, axis=1))
    mask = _next_token_mask(labels)
    return jnp.sum(per_token * mask) / jnp.sum(mask)


def _literal_token_count_loss(logits, labels):
    per_token = optax.softmax_cross_entropy_with_integer_labels(logits, jnp.roll(labels, -1, axis=1))
    return jnp.sum(per_token * _next_token_mask(labels)) / (labels.shape[0] * (TOKENS - 1))


def _export(loss_of, batch: int) -> str:
    params = {"table": SDS((VOCAB, WIDTH), jnp.float32), "head": SDS((WIDTH, VOCAB), jnp.float32),
              **{f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(LAYERS)}}

    def step(params, ids, labels):
        def loss_fn(p):
            logits = tanh_layers(p, p["table"][ids], LAYERS) @ p["head"]
            return loss_of(logits, labels), logits

        (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        hits = (jnp.argmax(logits, -1) == labels).reshape(-1)
        new = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
        return new, loss, {"token_accuracy": jnp.mean(hits), "correct_tokens": jnp.sum(hits)}

    tokens = SDS((batch, TOKENS), jnp.int32)
    hints = (jax.tree.map(lambda _: ANY, params), int_bound(VOCAB), int_bound(VOCAB))
    return export(jax.jit(step, donate_argnums=(0,)), params, tokens, tokens, hints=hints,
                  debug_info=True)


@pytest.mark.parametrize("loss_of", [_flattened_token_loss, _divide_no_nan_loss],
                         ids=["flattened-tokens", "divide-no-nan"])
def test_a_mean_over_merged_tokens_or_guarded_by_divide_no_nan_pipelines_unwarned(tmp_path, loss_of):
    planned, _ = assert_pipelined_step_matches(tmp_path, lambda batch: _export(loss_of, batch),
                                               MICROBATCH, MICROBATCHES, min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-3000:]


def test_a_token_sum_divided_by_the_examples_pipelines_as_a_mean_unwarned(tmp_path):
    planned, _ = assert_pipelined_step_matches(tmp_path, lambda batch: _export(_per_sequence_sum_loss, batch),
                                               MICROBATCH, MICROBATCHES, min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-3000:]


@pytest.mark.parametrize("loss_of", [_literal_token_count_loss, _position_masked_loss],
                         ids=["literal-count", "position-mask"])
def test_a_token_sum_divided_by_a_multiple_of_the_examples_is_a_mean_warned_at_its_op(tmp_path, loss_of):
    planned, _ = assert_pipelined_step_matches(tmp_path, lambda batch: _export(loss_of, batch),
                                               MICROBATCH, MICROBATCHES, min_stages=2)
    divisor = MICROBATCH * (TOKENS - 1)
    warnings = [line for line in planned.stderr.splitlines() if "warning:" in line]
    assert len(warnings) == 1 and "test_token_losses.py" in warnings[0], planned.stderr[-3000:]
    assert f"divided by {divisor}, a constant that counts the microbatch's examples" in warnings[0], warnings

"""Statistics per class that a pipelined train step computes from the batch: sums of each
example's values at its label (a per-class accuracy, per-class losses, `jnp.bincount` with
weights, a loss-weighted confusion matrix, values of several tokens per example), returned as
metrics, and class prototypes kept in the state and moved by sums over the batch of forward
values that the step computes with constants (normalized features `f / (|f| + 1e-6)`,
`log(p + 1e-8)`, a clip, a division by 2). Run over microbatches, each equals the global-batch
step on one device: the sums add up over the microbatches. Values per example added at rows of
their own in a flattened one-hot (`jnp.arange(batch) * classes + labels`) are refused.

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import optax
import pytest

from pipeline_fixtures import (assert_pipelined_step_matches, auto_shard_step, center_loss_exporter,
                               donated_state_exporter, features_and_labels)

MICROBATCH, MICROBATCHES, CLASSES, WIDTH = 8, 2, 4, 16


def _classifier_exporter(metric):
    """A two-layer classifier's SGD step returning (params, loss, metric(logits, labels, losses))."""
    params = {"w0": jnp.full((WIDTH, WIDTH), 0.1), "out": jnp.full((WIDTH, CLASSES), -0.05)}

    def step(params, x, labels):
        def loss_fn(p):
            logits = jnp.tanh(x @ p["w0"]) @ p["out"]
            losses = optax.softmax_cross_entropy_with_integer_labels(logits, labels)
            return losses.mean(), (logits, losses)

        (loss, (logits, losses)), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss, metric(logits, labels, losses)

    return donated_state_exporter(step, params, features_and_labels(WIDTH, CLASSES))


def _per_class_accuracy(logits, labels, losses):
    correct = (jnp.argmax(logits, -1) == labels).astype(jnp.float32)
    hits = jax.ops.segment_sum(correct, labels, num_segments=CLASSES)
    totals = jax.ops.segment_sum(jnp.ones_like(correct), labels, num_segments=CLASSES)
    return hits / jnp.maximum(totals, 1.0)


def _class_mean_log_probabilities(logits, labels, losses):
    # log_softmax's maximum starts from -inf, a constant that is no cotangent seed.
    sums = jax.ops.segment_sum(jax.nn.log_softmax(logits), labels, num_segments=CLASSES)
    return sums / jnp.maximum(jnp.bincount(labels, length=CLASSES), 1)[:, None]


def _losses_at_labels(logits, labels, losses):
    return jnp.zeros((CLASSES,)).at[labels].add(losses)


def _weighted_bincount(logits, labels, losses):
    return jnp.bincount(labels, weights=losses, length=CLASSES)


def _loss_weighted_confusion(logits, labels, losses):
    return jnp.zeros((CLASSES, CLASSES)).at[labels, jnp.argmax(logits, -1)].add(losses)


def _entropies_per_class(logits, labels, losses):
    p = jax.nn.softmax(logits)
    return jax.ops.segment_sum(-p * jnp.log(p + 1e-8), labels, num_segments=CLASSES)


def _token_values(logits, labels, losses):
    """Three tokens per example (the label and the next two classes), each adding its log
    probability at its token: indices and values [batch, 3]."""
    tokens = (labels[:, None] + jnp.arange(3)[None, :]) % CLASSES
    return jnp.zeros((CLASSES,)).at[tokens].add(jax.nn.log_softmax(logits)[:, :3])


PER_CLASS = [_per_class_accuracy, _class_mean_log_probabilities, _losses_at_labels, _weighted_bincount,
             _loss_weighted_confusion, _entropies_per_class, _token_values]


@pytest.mark.parametrize("metric", PER_CLASS, ids=[m.__name__.strip("_") for m in PER_CLASS])
def test_a_per_class_statistic_the_step_returns_adds_up_over_the_microbatches(tmp_path, metric):
    """Before, each was refused as neither a sum nor a mean: the scatter of values per example
    was not taken for a sum over the batch, and a constant of forward arithmetic (log_softmax's
    -inf, an epsilon) was taken for a gradient's seed."""
    planned, _ = assert_pipelined_step_matches(tmp_path, _classifier_exporter(metric), MICROBATCH, MICROBATCHES,
                                               min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-3000:]


def _normalized_features(protos, f, labels):
    unit = f / (jnp.linalg.norm(f, axis=-1, keepdims=True) + 1e-6)
    return 0.9 * protos + 0.1 * jax.ops.segment_sum(unit, labels, num_segments=CLASSES)


def _log_probability_sums(protos, f, labels):
    p = jax.nn.softmax(f[:, :CLASSES])
    sums = jax.ops.segment_sum(jnp.log(p + 1e-8), labels, num_segments=CLASSES)
    return protos - 0.1 * (protos - sums[:, :1])


def _clipped_feature_sums(protos, f, labels):
    return protos - 0.1 * (protos - (jnp.clip(f, -0.5, 0.5).T @ jax.nn.one_hot(labels, CLASSES)).T)


def _halved_feature_sums(protos, f, labels):
    return protos - 0.1 * (protos - jax.nn.one_hot(labels, CLASSES).T @ (f / 2.0))


PROTOTYPE_UPDATES = [_normalized_features, _log_probability_sums, _clipped_feature_sums, _halved_feature_sums]


@pytest.mark.parametrize("update", PROTOTYPE_UPDATES, ids=[u.__name__.strip("_") for u in PROTOTYPE_UPDATES])
def test_prototypes_moved_by_sums_of_forward_arithmetic_pipeline_to_the_global_step(tmp_path, update):
    """Class prototypes (a center loss's centers), a state the loss reads, move by sums over the
    batch of the features computed with constants (an epsilon added, a bound, a divisor of 2).
    Those constants are no cotangent seed: the sums add up over the microbatches. Before, they
    were taken for gradients and averaged, unwarned, and the prototypes differed from the
    global step's."""
    exporter = center_loss_exporter(update, WIDTH, CLASSES)
    planned, _ = assert_pipelined_step_matches(tmp_path, exporter, MICROBATCH, MICROBATCHES, min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-3000:]


def _flattened_one_hot(values):
    def metric(logits, labels, losses):
        rows = labels.shape[0]
        flat = jnp.zeros((rows * CLASSES,)).at[jnp.arange(rows) * CLASSES + labels].add(values(losses))
        return flat.reshape(rows, CLASSES)
    return metric


@pytest.mark.parametrize("values", [lambda losses: losses, lambda losses: 1.0], ids=["losses", "ones"])
def test_values_added_at_rows_of_their_own_in_a_flattened_one_hot_are_refused(tmp_path, values):
    """Each example's value added at its own row of a flattened one-hot: the bin index reads the
    examples' positions, so the scatter is no sum over the batch. Before, the ones were taken
    for counts per class and the microbatches' [8, 4] values added up where the global batch
    returns [16, 4]."""
    planned = auto_shard_step(tmp_path, _classifier_exporter(_flattened_one_hot(values))(MICROBATCH), MICROBATCHES)
    assert planned.returncode != 0
    errors = [line for line in planned.stderr.splitlines() if "error:" in line]
    assert errors and "keeps the batch dimension in a layout this analysis lost track of" in errors[0], \
        planned.stderr[-3000:]
    assert errors[0].startswith("python/tests/test_class_statistics.py:"), f"not at the scatter's line: {errors[0]}"
    assert "panicked" not in planned.stderr

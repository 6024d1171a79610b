"""Gradients and metrics of them that a train step returns beside its update, pipelined over
microbatches: the global gradient norm (`optax.tree.norm(grads)`, logged by most training
loops) is computed once, on the accumulated gradients, and returned gradients (a dense layer's,
and an embedding table's, which the transpose of its lookup scatter-adds) combine as the
gradients do. Each gives what the step exported at the global batch gives; the norm and the
table's gradient were refused (neither a sum nor a mean; keeps the batch dimension). A
contraction over the batch that is no gradient (a Gram matrix of activations) stays refused
(`test_step_outputs.py`).

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

MICROBATCH, MICROBATCHES, VOCAB, WIDTH, LAYERS, CLASSES = 8, 2, 10, 16, 4, 4
SDS = jax.ShapeDtypeStruct

METRICS = {
    "global-norm": lambda grads: {"grad_norm": optax.tree.norm(grads)},
    "dense-gradient": lambda grads: {"w2": grads["w2"]},
    "table-gradient": lambda grads: {"table": grads["table"]},
    "per-layer-norms": lambda grads: {"norms": jnp.stack([jnp.linalg.norm(g) for g in grads.values()])},
}


def _export(metrics, batch: int, reduce=jnp.mean) -> str:
    params = {"table": SDS((VOCAB, WIDTH), jnp.float32),
              **{f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(LAYERS)}}

    def step(params, ids, y):
        def loss_fn(p):
            h = tanh_layers(p, p["table"][ids], LAYERS)
            return reduce(optax.softmax_cross_entropy_with_integer_labels(h[:, :CLASSES], y))

        loss, grads = jax.value_and_grad(loss_fn)(params)
        new = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
        return new, loss, metrics(grads)

    hints = (jax.tree.map(lambda _: ANY, params), int_bound(VOCAB), int_bound(CLASSES))
    return export(jax.jit(step, donate_argnums=(0,)), params, SDS((batch,), jnp.int32),
                  SDS((batch,), jnp.int32), hints=hints, debug_info=True)


@pytest.mark.parametrize("metric", METRICS.values(), ids=METRICS.keys())
def test_gradients_and_their_norms_returned_by_a_step_are_the_global_batchs(tmp_path, metric):
    planned, _ = assert_pipelined_step_matches(tmp_path, lambda batch: _export(metric, batch),
                                               MICROBATCH, MICROBATCHES, min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-3000:]


def test_the_gradient_norm_under_a_summed_loss_is_the_global_batchs(tmp_path):
    """Under a summed loss the gradients add up over the microbatches, and so the norm is of
    their sum."""
    assert_pipelined_step_matches(
        tmp_path, lambda batch: _export(METRICS["global-norm"], batch, jnp.sum),
        MICROBATCH, MICROBATCHES, min_stages=2)



def _export_net(net, params, metrics, example: tuple, batch: int, reduce=jnp.mean) -> str:
    """A step training `net(params, examples)` (logits over CLASSES) on a softmax cross entropy
    `reduce`d over the batch, returning the new parameters, the loss and `metrics(grads)`;
    exported at `batch` examples of shape `example` with their labels."""
    def step(params, x, y):
        def loss_fn(p):
            return reduce(optax.softmax_cross_entropy_with_integer_labels(net(p, x), y))

        loss, grads = jax.value_and_grad(loss_fn)(params)
        new = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
        return new, loss, metrics(grads)

    hints = (jax.tree.map(lambda _: ANY, params), ANY, int_bound(CLASSES))
    return export(jax.jit(step, donate_argnums=(0,)), params, SDS((batch, *example), jnp.float32),
                  SDS((batch,), jnp.int32), hints=hints, debug_info=True)


GROUPS = 4


def _grouped_norm_export(metrics, batch: int) -> str:
    """Layers normalised per group of features with the batch merged into the groups
    (`x.reshape(-1, width // groups)`), a scale shared by the groups and a bias: the scale's
    gradient is a sum over batch and groups that the step finishes with a second reduction,
    once per step."""
    group = WIDTH // GROUPS
    params = {**{f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(LAYERS)},
              **{f"s{i}": SDS((group,), jnp.float32) for i in range(LAYERS)},
              **{f"b{i}": SDS((WIDTH,), jnp.float32) for i in range(LAYERS)}}

    def net(p, x):
        for i in range(LAYERS):
            x = x @ p[f"w{i}"]
            g = x.reshape(-1, group)
            g = (g - g.mean(-1, keepdims=True)) / jnp.sqrt(g.var(-1, keepdims=True) + 1e-5)
            x = jnp.tanh((g * p[f"s{i}"]).reshape(x.shape) + p[f"b{i}"])
        return x[:, :CLASSES]

    return _export_net(net, params, metrics, (WIDTH,), batch)


GROUPED_METRICS = {
    "global-norm": lambda grads: {"grad_norm": optax.tree.norm(grads)},
    "scale-gradient": lambda grads: {"s1": grads["s1"]},
}


@pytest.mark.parametrize("metric", GROUPED_METRICS.values(), ids=GROUPED_METRICS.keys())
def test_a_norm_over_gradients_each_stage_finishes_once_is_the_global_batchs(tmp_path, metric):
    """The norm reads every stage's finished gradients, and so is taken in the last stage's
    apply function; placed by program order it went to an earlier stage's, before the last
    stage's gradients existed, and planning failed."""
    planned, _ = assert_pipelined_step_matches(tmp_path, lambda batch: _grouped_norm_export(metric, batch),
                                               MICROBATCH, MICROBATCHES, min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-3000:]


def _biased_export(metrics, batch: int, reduce=jnp.mean) -> str:
    """Dense layers with biases broadcast to the batch (`jnp.broadcast_to`): a bias's gradient
    is the transpose of that broadcast, a sum over the batch of the cotangents, which hold the
    loss's 1/batch under a mean loss."""
    params = {**{f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(LAYERS)},
              **{f"b{i}": SDS((WIDTH,), jnp.float32) for i in range(LAYERS)}}

    def net(p, x):
        for i in range(LAYERS):
            x = jnp.tanh(x @ p[f"w{i}"] + jnp.broadcast_to(p[f"b{i}"], x.shape))
        return x[:, :CLASSES]

    return _export_net(net, params, metrics, (WIDTH,), batch, reduce)


BIAS_METRICS = {
    "bias-gradient": (lambda grads: {"b1": grads["b1"]}, jnp.mean),
    "bias-gradient-summed-loss": (lambda grads: {"b1": grads["b1"]}, jnp.sum),
    "bias-gradient-norm": (lambda grads: {"b1": jnp.linalg.norm(grads["b1"])}, jnp.mean),
}


@pytest.mark.parametrize("metric,reduce", BIAS_METRICS.values(), ids=BIAS_METRICS.keys())
def test_a_returned_bias_gradient_is_the_global_batchs_and_so_is_the_update(tmp_path, metric, reduce):
    """A bias's gradient returned beside the update was taken for a sum over the examples: the
    returned gradient and the update that reads it were the microbatches' sum, twice the
    global batch's under a mean loss over 2 microbatches, with no warning."""
    planned, _ = assert_pipelined_step_matches(tmp_path, lambda batch: _biased_export(metric, batch, reduce),
                                               MICROBATCH, MICROBATCHES, min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-3000:]


def _conv_export(metrics, batch: int) -> str:
    """Two convolutions, the second depthwise (feature groups), then a dense head: a kernel's
    gradient is a convolution with the examples as the contracted features (batch groups for
    the depthwise kernel)."""
    params = {"k0": SDS((3, 3, 2, 4), jnp.float32), "k1": SDS((3, 3, 1, 4), jnp.float32),
              "head": SDS((4, CLASSES), jnp.float32)}

    def net(p, image):
        numbers = ("NHWC", "HWIO", "NHWC")
        h = jnp.tanh(jax.lax.conv_general_dilated(image, p["k0"], (1, 1), "SAME", dimension_numbers=numbers))
        h = jnp.tanh(jax.lax.conv_general_dilated(h, p["k1"], (1, 1), "SAME", dimension_numbers=numbers,
                                                  feature_group_count=4))
        return h.mean((1, 2)) @ p["head"]

    return _export_net(net, params, metrics, (6, 6, 2), batch)


CONV_METRICS = {
    "global-norm": lambda grads: {"grad_norm": optax.tree.norm(grads)},
    "kernel-gradient": lambda grads: {"k0": grads["k0"]},
    "depthwise-kernel-gradient": lambda grads: {"k1": grads["k1"]},
}


@pytest.mark.parametrize("metric", CONV_METRICS.values(), ids=CONV_METRICS.keys())
def test_convolution_kernels_gradients_and_their_norm_are_the_global_batchs(tmp_path, metric):
    """A kernel's gradient contracts the examples in a convolution; it was taken for a value
    per example whose batch dimension was lost, and a step returning it or the global gradient
    norm was refused."""
    planned, _ = assert_pipelined_step_matches(tmp_path, lambda batch: _conv_export(metric, batch),
                                               MICROBATCH, MICROBATCHES, min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-3000:]

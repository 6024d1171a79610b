"""Steps where a value per example has the type of a parameter: an activation [microbatch, seq,
hidden] and an attention output kernel [heads, head_dim, hidden] of the same sizes, or an
activation [microbatch, width] and a square kernel [width, width]. A norm's scale gradient,
sum(dy * normalized) over the examples, multiplies two such values. Pipelined over 2
microbatches on 8 devices, each step equals the step exported at the global batch run on one
device, and planning says nothing to warn about.

The apply function took every value of a state's type for a gradient: the product ran there,
once, on the microbatches' combined activations and cotangents (the product of their means, not
the mean of their products), and RMSNorm's scales and the gains were updated slightly wrong
(0.1 % of their change) with no warning. LayerNorm's scale gradient multiplies by a broadcast of
the [batch, seq, 1] statistics, which no state has the type of, and was right before too.

Under rematerialisation (``nn.remat``, ``jax.checkpoint``) the backward pass recomputes each
block from an ``optimization_barrier`` of its weights, saved activations and cotangents. The
barrier's results shared one class, lost track of the examples, and were told apart by type
again: the remat twins were updated wrong (0.1 % to several %) with no warning until each result
of the barrier had a class of its own.

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
import pytest

from alpa_mlir.hints import ANY
from pipeline_fixtures import assert_pipelined_step_matches, donated_state_exporter

MICROBATCH, MICROBATCHES = 4, 2
SEQ, HIDDEN, HEADS = 8, 32, MICROBATCH
HEAD = SEQ  # the output kernel [HEADS, HEAD, HIDDEN] is an activation's [MICROBATCH, SEQ, HIDDEN]
SDS = jax.ShapeDtypeStruct
# The tests' inputs, parameters included, are drawn in [-0.1, 0.1) (standard deviation
# 0.1 / sqrt(3)): this factor keeps a layer's output as large as its input, so that the
# gradients of a model without norms do not vanish.
INPUT_GAIN = 3 ** 0.5 / (0.1 * MICROBATCH ** 0.5)


class Attention(nn.Module):
    @nn.compact
    def __call__(self, h):
        q, k, v = (nn.DenseGeneral((HEADS, HEAD))(h) for _ in range(3))
        weights = jax.nn.softmax(jnp.einsum("bqhd,bkhd->bhqk", q, k) / HEAD ** 0.5)
        return nn.DenseGeneral(HIDDEN, axis=(-2, -1))(jnp.einsum("bhqk,bkhd->bqhd", weights, v))


class Block(nn.Module):
    norm: type

    @nn.compact
    def __call__(self, h):
        h = h + Attention()(self.norm()(h))
        return h + nn.Dense(HIDDEN)(nn.gelu(nn.Dense(2 * HIDDEN)(self.norm()(h))))


class Transformer(nn.Module):
    norm: type
    remat: bool = False

    @nn.compact
    def __call__(self, x):
        h = nn.Dense(HIDDEN)(x)
        block = nn.remat(Block) if self.remat else Block
        for _ in range(3):
            h = block(self.norm)(h)
        return nn.Dense(8)(h)


class SquareMLP(nn.Module):
    """Width MICROBATCH: every activation [MICROBATCH, MICROBATCH] is a kernel's type."""
    norm: type

    @nn.compact
    def __call__(self, x):
        for _ in range(4):
            x = jnp.tanh(self.norm()(nn.Dense(MICROBATCH)(x)))
        return x


class Gain(nn.Module):
    """A learned gain per feature, x * g: its gradient is sum(dy * x) over the examples."""

    @nn.compact
    def __call__(self, x):
        return x * self.param("gain", nn.initializers.ones, (x.shape[-1],))


class GainLayer(nn.Module):
    @nn.compact
    def __call__(self, x):
        return jnp.tanh(Gain()(INPUT_GAIN * nn.Dense(MICROBATCH)(x)))


class GainMLP(nn.Module):
    remat: bool = False

    @nn.compact
    def __call__(self, x):
        layer = nn.remat(GainLayer) if self.remat else GainLayer
        for _ in range(4):
            x = layer()(x)
        return x


def _exporter(module, x_shape, y_shape):
    params = module.init(jax.random.PRNGKey(0), jnp.zeros((1, *x_shape)))
    opt = optax.sgd(0.1)

    def step(state, x, y):
        p, s = state
        loss, grads = jax.value_and_grad(lambda p: jnp.mean((module.apply(p, x) - y) ** 2))(p)
        updates, s = opt.update(grads, s, p)
        return (optax.apply_updates(p, updates), s), loss

    return donated_state_exporter(step, (params, opt.init(params)),
                                  [(lambda b: SDS((b, *x_shape), jnp.float32), ANY),
                                   (lambda b: SDS((b, *y_shape), jnp.float32), ANY)])


STEPS = {
    "rmsnorm-transformer": lambda: _exporter(Transformer(nn.RMSNorm), (SEQ, 16), (SEQ, 8)),
    "layernorm-transformer": lambda: _exporter(Transformer(nn.LayerNorm), (SEQ, 16), (SEQ, 8)),
    "rmsnorm-square-mlp": lambda: _exporter(SquareMLP(nn.RMSNorm), (MICROBATCH,), (MICROBATCH,)),
    "gain-square-mlp": lambda: _exporter(GainMLP(), (MICROBATCH,), (MICROBATCH,)),
    "remat-rmsnorm-transformer": lambda: _exporter(Transformer(nn.RMSNorm, remat=True), (SEQ, 16), (SEQ, 8)),
    "remat-gain-square-mlp": lambda: _exporter(GainMLP(remat=True), (MICROBATCH,), (MICROBATCH,)),
}


@pytest.mark.parametrize("name", STEPS)
def test_values_per_example_of_a_parameters_type_pipeline_to_the_global_step(tmp_path, name):
    planned, _ = assert_pipelined_step_matches(tmp_path, STEPS[name](), MICROBATCH, MICROBATCHES,
                                               min_stages=2)
    warnings = [line for line in planned.stderr.splitlines() if "warning" in line]
    assert not warnings, warnings

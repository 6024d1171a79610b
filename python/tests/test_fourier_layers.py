"""Layers that mix each example's features by an FFT or a sort, pipelined over microbatches:
FNet's token mixing (`jnp.fft.fft2(h).real` over the tokens and features), a long convolution
computed by RFFT (Hyena-style: `irfft(rfft(h) * rfft(k))` with a learned filter `k`), and a sort
along the features. These ops have no case of their own in the batch analysis; their op table
rules pass the examples through, and the steps plan unwarned and give the global-batch step's
results. Before, the examples were lost track of at the FFT or the sort (the loss warned about as
neither a sum nor a mean). The plans here cut between layers, so no complex value crosses
stages; a complex transfer's lowering is checked by `lit-tests/lower-transfers/element-types.mlir`.

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest

from alpa_mlir.hints import ANY
from pipeline_fixtures import assert_pipelined_step_matches, donated_state_exporter

MICROBATCH, MICROBATCHES, TOKENS, WIDTH, LAYERS = 4, 2, 8, 16, 4
SDS = jax.ShapeDtypeStruct


def _fnet_mixing(h, p, i):
    return jnp.fft.fft2(h, axes=(1, 2)).real / (TOKENS * WIDTH)


def _fft_long_convolution(h, p, i):
    spectrum = jnp.fft.rfft(h, axis=1) * jnp.fft.rfft(p[f"filter{i}"], n=TOKENS, axis=0)
    return jnp.fft.irfft(spectrum, n=TOKENS, axis=1)


def _sorted_features(h, p, i):
    return jnp.sort(h, axis=-1)


def _exporter(mix):
    state = {**{f"w{i}": jnp.full((WIDTH, WIDTH), 0.05) + 0.01 * jnp.eye(WIDTH) * i for i in range(LAYERS)},
             **{f"filter{i}": jnp.full((TOKENS, WIDTH), 0.1) for i in range(LAYERS)}}

    def model(p, x):
        h = x
        for i in range(LAYERS):
            h = jnp.tanh(h + mix(h, p, i) @ p[f"w{i}"])
        return h

    def step(p, x, y):
        loss, grads = jax.value_and_grad(lambda p: jnp.mean((model(p, x) - y) ** 2))(p)
        return jax.tree.map(lambda a, g: a - 0.1 * g, p, grads), loss

    tokens = (lambda batch: SDS((batch, TOKENS, WIDTH), jnp.float32), ANY)
    return donated_state_exporter(step, state, [tokens, tokens])


@pytest.mark.parametrize("mix", [_fnet_mixing, _fft_long_convolution, _sorted_features],
                         ids=["fnet", "fft-long-convolution", "sort"])
def test_a_layer_mixing_features_by_fft_or_sort_pipelines_unwarned_to_the_global_step(tmp_path, mix):
    planned, _ = assert_pipelined_step_matches(tmp_path, _exporter(mix), MICROBATCH, MICROBATCHES,
                                                  min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-3000:]


def test_a_masked_mean_over_fnet_layers_pipelines_to_the_global_step(tmp_path):
    """A padding mask's mean, `sum(l * m) / sum(m)`: each microbatch's gradients are weighted by
    its own mask's sum, which needs the cotangents scaled by 1/sum(m) followed through the FFTs
    of the backward pass (a fixed linear map, like a sum)."""
    state = {f"w{i}": jnp.full((WIDTH, WIDTH), 0.05) + 0.01 * jnp.eye(WIDTH) * i for i in range(LAYERS)}

    def step(p, x, y, kept):
        def loss(p):
            h = x
            for i in range(LAYERS):
                h = jnp.tanh(h + _fnet_mixing(h, p, i) @ p[f"w{i}"])
            per_token = jnp.mean((h - y) ** 2, -1)
            return jnp.sum(per_token * kept) / jnp.sum(kept)
        value, grads = jax.value_and_grad(loss)(p)
        return jax.tree.map(lambda a, g: a - 0.1 * g, p, grads), value

    tokens = (lambda batch: SDS((batch, TOKENS, WIDTH), jnp.float32), ANY)
    mask = (lambda batch: SDS((batch, TOKENS), jnp.float32), ANY)
    planned, _ = assert_pipelined_step_matches(tmp_path, donated_state_exporter(step, state, [tokens, tokens, mask]),
                                               MICROBATCH, MICROBATCHES, min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-3000:]

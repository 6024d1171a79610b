"""A LLaMA-style decoder written in plain JAX, pipelined over 2 microbatches on 8 devices: rotary
position embeddings over interleaved pairs of features (`x[..., ::2]`, `x[..., 1::2]`), RMSNorm,
a SwiGLU MLP, grouped-query attention (the keys and values repeated, or through
`jax.nn.dot_product_attention`), tied embeddings and AdamW with weight decay. Each equals the step
exported at the global batch run on one device, and planning says nothing to warn about.

The strided slices lost track of which examples the values hold: the mean loss was taken for
neither a sum nor a mean and warned about, in every model with rotary embeddings over pairs.

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import optax
import pytest

from alpa_mlir.hints import int_bound
from pipeline_fixtures import assert_pipelined_step_matches, donated_state_exporter

MICROBATCH, MICROBATCHES = 4, 2
VOCAB, SEQ, WIDTH, HEADS, KV_HEADS, LAYERS = 32, 8, 16, 4, 2, 4
HEAD = WIDTH // HEADS


def rms_norm(x, scale):
    return x * jax.lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-6) * scale


def rotary(x):
    """x: [batch, seq, heads, head] rotated by position over interleaved feature pairs."""
    frequencies = 1.0 / (10000 ** (jnp.arange(0, HEAD, 2) / HEAD))
    angles = jnp.arange(SEQ)[:, None] * frequencies
    sin, cos = jnp.sin(angles)[:, None, :], jnp.cos(angles)[:, None, :]
    even, odd = x[..., ::2], x[..., 1::2]
    return jnp.stack([even * cos - odd * sin, even * sin + odd * cos], -1).reshape(x.shape)


def attention(q, k, v, fused: bool):
    if fused:
        return jax.nn.dot_product_attention(q, k, v, is_causal=True, implementation="xla")
    k, v = (jnp.repeat(a, HEADS // KV_HEADS, axis=2) for a in (k, v))
    scores = jnp.einsum("bqhd,bthd->bhqt", q, k) / jnp.sqrt(HEAD)
    scores = jnp.where(jnp.tril(jnp.ones((SEQ, SEQ), bool)), scores, -1e9)
    return jnp.einsum("bhqt,bthd->bqhd", jax.nn.softmax(scores, -1), v)


def init_params(key):
    keys = iter(jax.random.split(key, 7 * LAYERS + 1))
    normal = lambda *shape: 0.1 * jax.random.normal(next(keys), shape)  # noqa: E731
    block = lambda: {"attn_norm": jnp.ones(WIDTH), "q": normal(WIDTH, HEADS, HEAD),  # noqa: E731
                     "k": normal(WIDTH, KV_HEADS, HEAD), "v": normal(WIDTH, KV_HEADS, HEAD),
                     "o": normal(HEADS, HEAD, WIDTH), "mlp_norm": jnp.ones(WIDTH),
                     "gate": normal(WIDTH, 2 * WIDTH), "up": normal(WIDTH, 2 * WIDTH),
                     "down": normal(2 * WIDTH, WIDTH)}
    return {"embed": normal(VOCAB, WIDTH), "blocks": [block() for _ in range(LAYERS)],
            "final_norm": jnp.ones(WIDTH)}


def logits_of(params, ids, fused: bool):
    h = params["embed"][ids]
    for p in params["blocks"]:
        n = rms_norm(h, p["attn_norm"])
        q = rotary(jnp.einsum("bsd,dhk->bshk", n, p["q"]))
        k = rotary(jnp.einsum("bsd,dhk->bshk", n, p["k"]))
        v = jnp.einsum("bsd,dhk->bshk", n, p["v"])
        h = h + jnp.einsum("bshk,hkd->bsd", attention(q, k, v, fused), p["o"])
        n = rms_norm(h, p["mlp_norm"])
        h = h + (jax.nn.silu(n @ p["gate"]) * (n @ p["up"])) @ p["down"]
    return rms_norm(h, params["final_norm"]) @ params["embed"].T


def llama_step(fused: bool):
    params = init_params(jax.random.PRNGKey(0))
    opt = optax.adamw(1e-3, weight_decay=0.1)

    def loss_of(params, ids):
        logits = logits_of(params, ids, fused)[:, :-1]
        return optax.softmax_cross_entropy_with_integer_labels(logits, ids[:, 1:]).mean()

    def step(state, ids):
        params, opt_state = state
        loss, grads = jax.value_and_grad(loss_of)(params, ids)
        updates, opt_state = opt.update(grads, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), loss

    tokens = (lambda b: jax.ShapeDtypeStruct((b, SEQ), jnp.int32), int_bound(VOCAB))
    return donated_state_exporter(step, (params, opt.init(params)), [tokens])


@pytest.mark.parametrize("fused", [False, True], ids=["repeated-kv", "dot-product-attention"])
def test_a_llama_style_decoder_with_rotary_embeddings_pipelines_to_the_global_step_unwarned(tmp_path, fused):
    planned, _ = assert_pipelined_step_matches(tmp_path, llama_step(fused), MICROBATCH, MICROBATCHES, min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-3000:]

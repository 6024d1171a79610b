"""A GPT-style decoder-only transformer in flax.linen and its train step.

token + learned position embeddings, N pre-LN blocks of
(LayerNorm, causal multi-head self-attention, residual, LayerNorm, MLP 4h with
GELU, residual), final LayerNorm, LM head (tied to the token embedding by
default), token cross-entropy, Adam.

Presets follow the GPT-3 configurations of the Alpa paper (Table 4): seq 1024,
vocab 51200, global batch 1024. Parameters are only ever described by shapes
(``jax.eval_shape`` of ``init``), so every preset exports without weights."""

from __future__ import annotations

import dataclasses
import math

import flax.linen as nn
import jax
import jax.numpy as jnp

from ..layers import layer
from .common import (ANY, TrainStep, adam_hints, adam_init, adam_update, count_params,
                     cross_entropy, dtype_of, int_bound, resolve_config)


@dataclasses.dataclass(frozen=True)
class GPTConfig:
    batch: int = 4
    seq: int = 16
    vocab: int = 256
    hidden: int = 64
    layers: int = 2
    heads: int = 4
    tied: bool = True
    remat: bool = False  # rematerialise each block in the backward pass (jax.checkpoint)
    mark_layers: bool = False  # each block is one user layer (alpa_mlir.layers.layer)
    # the blocks as one flax nn.scan over stacked weights (one stablehlo.while), as MaxText
    # and praxis write them; params["h"] then holds every block's weights stacked on axis 0
    scan: bool = False
    dtype: str = "float32"


_PAPER = dict(seq=1024, vocab=51200, batch=1024)
PRESETS = {
    "tiny": dict(batch=4, seq=16, vocab=256, hidden=64, layers=2, heads=4),
    # tiny with its blocks in one nn.scan: the loop twin of tiny
    "tiny-scan": dict(batch=4, seq=16, vocab=256, hidden=64, layers=2, heads=4, scan=True),
    "small": dict(batch=8, seq=64, vocab=1024, hidden=256, layers=4, heads=8),
    "350m": dict(_PAPER, hidden=1024, layers=24, heads=16),
    "1.3b": dict(_PAPER, hidden=2048, layers=24, heads=32),
    "2.6b": dict(_PAPER, hidden=2560, layers=32, heads=32),
    "6.7b": dict(_PAPER, hidden=4096, layers=32, heads=32),
    "15b": dict(_PAPER, hidden=5120, layers=48, heads=40),
    "39b": dict(_PAPER, hidden=8192, layers=48, heads=64),
}


class CausalSelfAttention(nn.Module):
    hidden: int
    heads: int
    dtype: jnp.dtype

    @nn.compact
    def __call__(self, x):
        b, s, h = x.shape
        hd = h // self.heads
        qkv = nn.Dense(3 * h, dtype=self.dtype, name="qkv")(x)
        qkv = qkv.reshape(b, s, 3, self.heads, hd)
        q, k, v = qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2]
        scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(hd)
        causal = jnp.tril(jnp.ones((s, s), dtype=jnp.bool_))
        scores = jnp.where(causal[None, None], scores, jnp.finfo(scores.dtype).min)
        probs = jax.nn.softmax(scores.astype(jnp.float32), axis=-1).astype(self.dtype)
        ctx = jnp.einsum("bhqk,bkhd->bqhd", probs, v).reshape(b, s, h)
        return nn.Dense(h, dtype=self.dtype, name="out")(ctx)


class MLPBlock(nn.Module):
    hidden: int
    dtype: jnp.dtype

    @nn.compact
    def __call__(self, x):
        y = nn.Dense(4 * self.hidden, dtype=self.dtype, name="fc_in")(x)
        y = jax.nn.gelu(y)
        return nn.Dense(self.hidden, dtype=self.dtype, name="fc_out")(y)


class Block(nn.Module):
    hidden: int
    heads: int
    dtype: jnp.dtype
    ffn: type = MLPBlock
    ffn_kwargs: tuple = ()

    @nn.compact
    def __call__(self, x):
        x = x + CausalSelfAttention(self.hidden, self.heads, self.dtype, name="attn")(
            nn.LayerNorm(dtype=self.dtype, name="ln_1")(x))
        y = nn.LayerNorm(dtype=self.dtype, name="ln_2")(x)
        y = self.ffn(hidden=self.hidden, dtype=self.dtype, name="ffn", **dict(self.ffn_kwargs))(y)
        return x + y


class ScannedBlock(nn.Module):
    """A Block as the body of nn.scan: (carry, _) -> (carry, None)."""
    hidden: int
    heads: int
    dtype: jnp.dtype

    @nn.compact
    def __call__(self, x, _):
        return Block(self.hidden, self.heads, self.dtype, name="block")(x), None


def scanned_blocks(cfg, dtype, remat: bool):
    body = nn.remat(ScannedBlock, prevent_cse=False) if remat else ScannedBlock
    scan = nn.scan(body, variable_axes={"params": 0}, split_rngs={"params": True},
                   length=cfg.layers)
    return scan(cfg.hidden, cfg.heads, dtype, name="h")


class GPT(nn.Module):
    cfg: GPTConfig
    # Optional factory (layer index -> (ffn class, kwargs)) used by the MoE model.
    ffn_for_layer: object = None

    @nn.compact
    def __call__(self, tokens):
        cfg = self.cfg
        dtype = dtype_of(cfg.dtype)
        wte = nn.Embed(cfg.vocab, cfg.hidden, dtype=dtype, name="wte")
        wpe = nn.Embed(cfg.seq, cfg.hidden, dtype=dtype, name="wpe")
        pos = jnp.arange(tokens.shape[1])[None, :]
        x = wte(tokens) + wpe(pos)
        block_cls = nn.remat(Block) if getattr(cfg, "remat", False) else Block
        if getattr(cfg, "scan", False):
            if self.ffn_for_layer is not None or getattr(cfg, "mark_layers", False):
                raise ValueError("scan=True takes neither per-layer ffns nor mark_layers")
            x, _ = scanned_blocks(cfg, dtype, getattr(cfg, "remat", False))(x, None)
        for i in range(0 if getattr(cfg, "scan", False) else cfg.layers):
            ffn, kw = (MLPBlock, ()) if self.ffn_for_layer is None else self.ffn_for_layer(i)
            block = block_cls(cfg.hidden, cfg.heads, dtype, ffn=ffn, ffn_kwargs=kw, name=f"h_{i}")
            if getattr(cfg, "mark_layers", False):
                with layer(i):
                    x = block(x)
            else:
                x = block(x)
        x = nn.LayerNorm(dtype=dtype, name="ln_f")(x)
        if cfg.tied:
            return wte.attend(x)
        return nn.Dense(cfg.vocab, use_bias=False, dtype=dtype, name="lm_head")(x)


def build_train_step(name, model, cfg, batch, seq, vocab, aux_loss_weight=0.0) -> TrainStep:
    """Shape-only init of ``model`` plus the (tokens -> next-token CE) Adam step."""
    tok = jax.ShapeDtypeStruct((batch, seq), jnp.int32)
    params = jax.eval_shape(
        lambda: model.init(jax.random.PRNGKey(0), jnp.zeros(tok.shape, tok.dtype)))
    opt_state = jax.eval_shape(adam_init, params)
    data = {"tokens": tok, "labels": tok}

    def train_step(params, opt_state, data):
        def loss_fn(p):
            if aux_loss_weight:
                logits, state = model.apply(p, data["tokens"], mutable=["intermediates"])
                aux = sum(jax.tree_util.tree_leaves(state["intermediates"]))
                return cross_entropy(logits, data["labels"]) + aux_loss_weight * aux
            return cross_entropy(model.apply(p, data["tokens"]), data["labels"])

        loss, grads = jax.value_and_grad(loss_fn)(params)
        params, opt_state = adam_update(params, grads, opt_state)
        return params, opt_state, loss

    step = jax.jit(train_step, donate_argnums=(0, 1), keep_unused=True)
    hints = (jax.tree_util.tree_map(lambda _: ANY, params), adam_hints(params),
             {"tokens": int_bound(vocab), "labels": int_bound(vocab)})
    return TrainStep(name, step, (params, opt_state, data), hints, cfg, count_params(params))


def make(preset: str | None = None, **overrides) -> TrainStep:
    cfg = resolve_config(GPTConfig, PRESETS, preset, overrides)
    if cfg.hidden % cfg.heads:
        raise ValueError(f"hidden {cfg.hidden} is not divisible by heads {cfg.heads}")
    return build_train_step("gpt", GPT(cfg), cfg, cfg.batch, cfg.seq, cfg.vocab)

"""A GShard-style mixture-of-experts transformer (expert parallel layout).

The GPT decoder of :mod:`.gpt` with the MLP of every ``moe_every``-th block
replaced by a MoE layer:

* tokens are split into gating groups ``G`` of ``S`` tokens;
* a gating network gives per-expert probabilities, top-2 (GShard) or top-1
  (Switch) routing with an expert capacity ``C`` and a load-balancing aux loss;
* ``dispatch``/``combine`` tensors ``[G, S, E, C]`` move tokens to experts and
  back with einsums over the expert axis ``E``;
* expert FFN weights carry a leading expert dimension ``[E, M, H]``.

Train step: next-token cross-entropy + aux loss, Adam."""

from __future__ import annotations

import dataclasses
import math

import flax.linen as nn
import jax
import jax.numpy as jnp

from .common import TrainStep, resolve_config
from .gpt import GPT, GPTConfig, MLPBlock, build_train_step


@dataclasses.dataclass(frozen=True)
class MoEConfig:
    batch: int = 8
    seq: int = 16
    vocab: int = 256
    hidden: int = 64
    layers: int = 2
    heads: int = 4
    experts: int = 8
    top_k: int = 2
    group_size: int = 32
    capacity_factor: float = 2.0
    moe_every: int = 2
    aux_loss_weight: float = 0.01
    tied: bool = True
    remat: bool = False
    dtype: str = "float32"


_PAPER = dict(batch=1024, seq=1024, vocab=32000, group_size=2048, moe_every=1)
PRESETS = {
    "tiny": dict(batch=8, seq=16, vocab=256, hidden=64, layers=2, heads=4, experts=8,
                 group_size=32),
    # The MoE weak-scaling configs of the Alpa evaluation (hidden, layers, heads,
    # experts; seq 1024, vocab 32000, expert group 2048, global batch 1024,
    # a MoE FFN in every layer). Parameter counts: 346M, 648M, 1.27B, 2.25B,
    # 9.87B, 26.1B, 69.3B.
    "380m": dict(_PAPER, hidden=768, layers=8, heads=16, experts=8),
    "690m": dict(_PAPER, hidden=768, layers=8, heads=16, experts=16),
    "1.3b": dict(_PAPER, hidden=768, layers=16, heads=16, experts=16),
    "2.4b": dict(_PAPER, hidden=1024, layers=16, heads=16, experts=16),
    "10b": dict(_PAPER, hidden=1536, layers=16, heads=16, experts=32),
    "27b": dict(_PAPER, hidden=2048, layers=16, heads=16, experts=48),
    "70b": dict(_PAPER, hidden=2048, layers=32, heads=16, experts=64),
}


class MoEFFN(nn.Module):
    hidden: int
    dtype: jnp.dtype
    experts: int = 8
    top_k: int = 2
    group_size: int = 32
    capacity_factor: float = 2.0

    @nn.compact
    def __call__(self, x):
        b, s, m = x.shape
        e = self.experts
        tokens = b * s
        gs = min(self.group_size, tokens)
        if tokens % gs:
            raise ValueError(f"batch*seq = {tokens} is not divisible by group_size {gs}")
        g = tokens // gs
        cap = max(1, int(math.ceil(self.top_k * gs / e * self.capacity_factor)))
        xg = x.reshape(g, gs, m)

        wg = self.param("gate", nn.initializers.normal(0.02), (m, e), jnp.float32)
        logits = jnp.einsum("gsm,me->gse", xg.astype(jnp.float32), wg)
        gates = jax.nn.softmax(logits, axis=-1)

        # First choice.
        idx1 = jnp.argmax(gates, axis=-1)
        mask1 = jax.nn.one_hot(idx1, e, dtype=jnp.float32)
        # Load-balancing loss (GShard): mean gate prob x fraction routed, per expert.
        density = jnp.mean(mask1, axis=1)
        density_proxy = jnp.mean(gates, axis=1)
        aux = jnp.mean(density * density_proxy) * (e * e)
        self.sow("intermediates", "aux_loss", aux)

        pos1 = jnp.cumsum(mask1, axis=1) - mask1  # position of each token in its expert
        mask1 = mask1 * (pos1 < cap)
        gate1 = jnp.sum(gates * mask1, axis=-1)
        loc1 = jnp.sum(pos1 * mask1, axis=-1).astype(jnp.int32)
        combine = (gate1[..., None, None] * mask1[..., None]
                   * jax.nn.one_hot(loc1, cap, dtype=jnp.float32)[..., None, :])

        if self.top_k == 2:
            gates2 = gates * (1.0 - jax.nn.one_hot(idx1, e, dtype=jnp.float32))
            idx2 = jnp.argmax(gates2, axis=-1)
            mask2 = jax.nn.one_hot(idx2, e, dtype=jnp.float32)
            pos2 = jnp.cumsum(mask2, axis=1) - mask2 + jnp.sum(mask1, axis=1, keepdims=True)
            mask2 = mask2 * (pos2 < cap)
            gate2 = jnp.sum(gates * mask2, axis=-1)
            loc2 = jnp.sum(pos2 * mask2, axis=-1).astype(jnp.int32)
            denom = gate1 + gate2 + 1e-9
            combine = combine / denom[..., None, None]
            combine = combine + ((gate2 / denom)[..., None, None] * mask2[..., None]
                                 * jax.nn.one_hot(loc2, cap, dtype=jnp.float32)[..., None, :])
        elif self.top_k != 1:
            raise ValueError("top_k must be 1 or 2")

        combine = combine.astype(self.dtype)                      # [G, S, E, C]
        dispatch = (combine > 0).astype(self.dtype)               # [G, S, E, C]
        expert_in = jnp.einsum("gsec,gsm->egcm", dispatch, xg)     # [E, G, C, M]

        wi = self.param("wi", nn.initializers.normal(0.02), (e, m, 4 * m), jnp.float32)
        wo = self.param("wo", nn.initializers.normal(0.02), (e, 4 * m, m), jnp.float32)
        h = jnp.einsum("egcm,emh->egch", expert_in, wi.astype(self.dtype))
        h = jax.nn.gelu(h)
        expert_out = jnp.einsum("egch,ehm->egcm", h, wo.astype(self.dtype))
        y = jnp.einsum("gsec,egcm->gsm", combine, expert_out)
        return y.reshape(b, s, m)


def make(preset: str | None = None, **overrides) -> TrainStep:
    cfg = resolve_config(MoEConfig, PRESETS, preset, overrides)
    gcfg = GPTConfig(batch=cfg.batch, seq=cfg.seq, vocab=cfg.vocab, hidden=cfg.hidden,
                     layers=cfg.layers, heads=cfg.heads, tied=cfg.tied, remat=cfg.remat,
                     dtype=cfg.dtype)
    moe_kw = (("experts", cfg.experts), ("top_k", cfg.top_k),
              ("group_size", cfg.group_size), ("capacity_factor", cfg.capacity_factor))

    def ffn_for_layer(i):
        if i % cfg.moe_every == cfg.moe_every - 1:
            return MoEFFN, moe_kw
        return MLPBlock, ()

    model = GPT(gcfg, ffn_for_layer=ffn_for_layer)
    return build_train_step("moe", model, cfg, cfg.batch, cfg.seq, cfg.vocab,
                            aux_loss_weight=cfg.aux_loss_weight)

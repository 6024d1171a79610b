"""Shared pieces of the model generators: the train-step record, optimizers
written out by hand (so the exported graph shows every optimizer op plainly),
losses, and shape-only parameter initialisation."""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp

from ..hints import ANY, NONNEG, Hint, int_bound  # noqa: F401  (re-exported)


class TrainStep(NamedTuple):
    """A train step ready to export.

    ``step_fn`` is jitted (with the model's ``donate_argnums`` and
    ``keep_unused=True``); ``args`` are example arguments, usually
    ``jax.ShapeDtypeStruct`` pytrees; ``hints`` mirrors ``args`` with
    :class:`alpa_mlir.export.Hint` leaves; ``config`` is the resolved
    configuration; ``num_params`` counts trainable parameters."""

    name: str
    step_fn: Callable
    args: tuple
    hints: tuple
    config: Any
    num_params: int

    def describe(self) -> str:
        return f"{self.name} {self.config} ({_human(self.num_params)} params)"


def _human(n: int) -> str:
    for unit, scale in (("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if n >= scale:
            return f"{n / scale:.2f}{unit}"
    return str(n)


def resolve_config(cls, presets: dict, preset: str | None, overrides: dict):
    """Build a config dataclass from a preset (or the defaults) plus overrides."""
    base = {}
    if preset is not None:
        key = preset.lower()
        if key not in presets:
            raise ValueError(f"unknown preset {preset!r}; known: {', '.join(presets)}")
        base = dict(presets[key])
    fields = {f.name for f in dataclasses.fields(cls)}
    unknown = set(overrides) - fields
    if unknown:
        raise ValueError(f"{cls.__name__} has no option(s) {sorted(unknown)}")
    base.update(overrides)
    return cls(**base)


def count_params(tree) -> int:
    return int(sum(math.prod(x.shape) for x in jax.tree_util.tree_leaves(tree)))


def shapes_of(tree):
    """ShapeDtypeStructs of a pytree of arrays or ShapeDtypeStructs."""
    return jax.tree_util.tree_map(lambda x: jax.ShapeDtypeStruct(x.shape, x.dtype), tree)


def dtype_of(name: str | None):
    if name is None:
        return jnp.float32
    return jnp.dtype(name)


# ---------------------------------------------------------------- optimizers

def adam_init(params):
    zeros = lambda p: jnp.zeros(p.shape, jnp.float32)  # noqa: E731
    return {
        "count": jnp.zeros((), jnp.int32),
        "mu": jax.tree_util.tree_map(zeros, params),
        "nu": jax.tree_util.tree_map(zeros, params),
    }


def adam_hints(params_hints_like):
    """Hints for an Adam state built from a params pytree."""
    return {
        "count": int_bound(1000),
        "mu": jax.tree_util.tree_map(lambda _: ANY, params_hints_like),
        "nu": jax.tree_util.tree_map(lambda _: NONNEG, params_hints_like),
    }


def adam_update(params, grads, state, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    """One Adam step (Kingma & Ba), bias-corrected. Returns (params, state)."""
    count = state["count"] + 1
    t = count.astype(jnp.float32)
    mu = jax.tree_util.tree_map(lambda m, g: b1 * m + (1.0 - b1) * g, state["mu"], grads)
    nu = jax.tree_util.tree_map(lambda v, g: b2 * v + (1.0 - b2) * (g * g), state["nu"], grads)
    c1 = 1.0 - b1 ** t
    c2 = 1.0 - b2 ** t

    def upd(p, m, v):
        step = lr * (m / c1) / (jnp.sqrt(v / c2) + eps)
        return (p - step).astype(p.dtype)

    new_params = jax.tree_util.tree_map(upd, params, mu, nu)
    return new_params, {"count": count, "mu": mu, "nu": nu}


def momentum_init(params):
    return jax.tree_util.tree_map(lambda p: jnp.zeros(p.shape, jnp.float32), params)


def momentum_update(params, grads, velocity, lr=0.1, momentum=0.9, weight_decay=5e-4):
    """SGD with (heavy-ball) momentum and L2 weight decay. Returns (params, velocity)."""
    velocity = jax.tree_util.tree_map(
        lambda v, g, p: momentum * v + g + weight_decay * p, velocity, grads, params)
    params = jax.tree_util.tree_map(lambda p, v: p - lr * v, params, velocity)
    return params, velocity


# ---------------------------------------------------------------- losses

def cross_entropy(logits, labels):
    """Mean token cross-entropy; logits [..., V] (any float dtype), labels int [...]."""
    logp = jax.nn.log_softmax(logits.astype(jnp.float32), axis=-1)
    picked = jnp.take_along_axis(logp, labels[..., None], axis=-1)[..., 0]
    return -jnp.mean(picked)


def mse(pred, target):
    return jnp.mean((pred.astype(jnp.float32) - target.astype(jnp.float32)) ** 2)

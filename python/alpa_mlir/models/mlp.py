"""The MLP of Alpa's own tests: a stack of Dense layers with ReLU between them,
MSE loss against a target batch, Adam update; parameters and optimizer state
donated. Default: 6 layers, hidden 256, batch 32."""

from __future__ import annotations

import dataclasses

import flax.linen as nn
import jax
import jax.numpy as jnp

from .common import (ANY, TrainStep, adam_hints, adam_init, adam_update, count_params,
                     dtype_of, mse, resolve_config)


@dataclasses.dataclass(frozen=True)
class MLPConfig:
    batch: int = 32
    hidden: int = 256
    layers: int = 6
    dtype: str = "float32"


PRESETS = {
    "alpa-test": dict(batch=32, hidden=256, layers=6),
    "tiny": dict(batch=8, hidden=64, layers=2),
}


class MLP(nn.Module):
    hidden: int
    layers: int
    dtype: jnp.dtype = jnp.float32

    @nn.compact
    def __call__(self, x):
        for i in range(self.layers):
            x = nn.Dense(self.hidden, dtype=self.dtype, name=f"dense_{i}")(x)
            if i != self.layers - 1:
                x = nn.relu(x)
        return x


def make(preset: str | None = None, **overrides) -> TrainStep:
    cfg = resolve_config(MLPConfig, PRESETS, preset, overrides)
    model = MLP(cfg.hidden, cfg.layers, dtype_of(cfg.dtype))
    x = jax.ShapeDtypeStruct((cfg.batch, cfg.hidden), jnp.float32)
    params = jax.eval_shape(lambda: model.init(jax.random.PRNGKey(0), jnp.zeros(x.shape, x.dtype)))
    opt_state = jax.eval_shape(adam_init, params)
    batch = {"x": x, "y": jax.ShapeDtypeStruct((cfg.batch, cfg.hidden), jnp.float32)}

    def train_step(params, opt_state, batch):
        def loss_fn(p):
            return mse(model.apply(p, batch["x"]), batch["y"])

        loss, grads = jax.value_and_grad(loss_fn)(params)
        params, opt_state = adam_update(params, grads, opt_state)
        return params, opt_state, loss

    step = jax.jit(train_step, donate_argnums=(0, 1), keep_unused=True)
    param_hints = jax.tree_util.tree_map(lambda _: ANY, params)
    hints = (param_hints, adam_hints(params), {"x": ANY, "y": ANY})
    return TrainStep("mlp", step, (params, opt_state, batch), hints, cfg, count_params(params))

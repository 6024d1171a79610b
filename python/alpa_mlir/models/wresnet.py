"""A Wide-ResNet (ResNet with widened bottleneck blocks) in flax.linen and its
train step.

stem: 7x7/2 conv, BatchNorm, ReLU, 3x3/2 max-pool; stages of bottleneck blocks
with ``c = width * 2**stage`` channels (1x1 conv to c -> 3x3 conv to
``c * width_factor`` (stride 2 at a stage's first block after the first
stage) -> 1x1 conv to 4c, BatchNorm after each, projection shortcut when the
shape changes, ReLU after the residual add); global average pooling; dense head;
cross-entropy; SGD with momentum and weight decay. BatchNorm runs in training
mode (batch statistics, running averages updated and returned).

The max-pool gives ``reduce_window`` in the forward pass and
``select_and_scatter`` in the backward pass."""

from __future__ import annotations

import dataclasses

import flax.linen as nn
import jax
import jax.numpy as jnp

from .common import (ANY, NONNEG, TrainStep, count_params, cross_entropy, dtype_of,
                     int_bound, momentum_init, momentum_update, resolve_config)


@dataclasses.dataclass(frozen=True)
class WResNetConfig:
    batch: int = 8
    image: int = 32
    blocks: tuple = (1, 1)
    width: int = 16
    width_factor: int = 2
    classes: int = 16
    dtype: str = "float32"


# The Wide-ResNet weak-scaling configs of the Alpa evaluation (ResNet-50/101
# layouts, base channels, width factor; 224x224 images, 1024 classes, batch
# 1536). Parameter counts: 254M, 495M, 1.01B, 1.96B, 4.00B, 6.73B, 12.6B.
_R50 = (3, 4, 6, 3)
_R101 = (3, 4, 23, 3)
PRESETS = {
    "tiny": dict(batch=8, image=32, blocks=(1, 1), width=16, width_factor=2, classes=16),
    "250m": dict(batch=1536, image=224, blocks=_R50, width=160, width_factor=2, classes=1024),
    "500m": dict(batch=1536, image=224, blocks=_R50, width=224, width_factor=2, classes=1024),
    "1b": dict(batch=1536, image=224, blocks=_R50, width=320, width_factor=2, classes=1024),
    "2b": dict(batch=1536, image=224, blocks=_R50, width=448, width_factor=2, classes=1024),
    "4b": dict(batch=1536, image=224, blocks=_R50, width=640, width_factor=2, classes=1024),
    "6.8b": dict(batch=1536, image=224, blocks=_R50, width=320, width_factor=16, classes=1024),
    "13b": dict(batch=1536, image=224, blocks=_R101, width=320, width_factor=16, classes=1024),
}


class Bottleneck(nn.Module):
    channels: int
    width_factor: int
    stride: int
    dtype: jnp.dtype

    @nn.compact
    def __call__(self, x):
        bn = lambda name: nn.BatchNorm(use_running_average=False, momentum=0.9,  # noqa: E731
                                       epsilon=1e-5, dtype=self.dtype, name=name)
        wide = self.channels * self.width_factor
        out_ch = self.channels * 4
        y = nn.Conv(self.channels, (1, 1), use_bias=False, dtype=self.dtype, name="conv1")(x)
        y = nn.relu(bn("bn1")(y))
        y = nn.Conv(wide, (3, 3), strides=(self.stride, self.stride), padding=((1, 1), (1, 1)),
                    use_bias=False, dtype=self.dtype, name="conv2")(y)
        y = nn.relu(bn("bn2")(y))
        y = nn.Conv(out_ch, (1, 1), use_bias=False, dtype=self.dtype, name="conv3")(y)
        y = bn("bn3")(y)
        if x.shape[-1] != out_ch or self.stride != 1:
            x = nn.Conv(out_ch, (1, 1), strides=(self.stride, self.stride), use_bias=False,
                        dtype=self.dtype, name="proj")(x)
            x = bn("proj_bn")(x)
        return nn.relu(x + y)


class WideResNet(nn.Module):
    cfg: WResNetConfig

    @nn.compact
    def __call__(self, x):
        cfg = self.cfg
        dtype = dtype_of(cfg.dtype)
        x = x.astype(dtype)
        x = nn.Conv(cfg.width, (7, 7), strides=(2, 2), padding=((3, 3), (3, 3)),
                    use_bias=False, dtype=dtype, name="stem_conv")(x)
        x = nn.BatchNorm(use_running_average=False, momentum=0.9, epsilon=1e-5,
                         dtype=dtype, name="stem_bn")(x)
        x = nn.relu(x)
        x = nn.max_pool(x, (3, 3), strides=(2, 2), padding=((1, 1), (1, 1)))
        for s, n in enumerate(cfg.blocks):
            for b in range(n):
                stride = 2 if (s > 0 and b == 0) else 1
                x = Bottleneck(cfg.width * 2 ** s, cfg.width_factor, stride, dtype,
                               name=f"stage{s}_block{b}")(x)
        x = jnp.mean(x, axis=(1, 2))
        return nn.Dense(cfg.classes, dtype=dtype, name="head")(x)


def make(preset: str | None = None, **overrides) -> TrainStep:
    cfg = resolve_config(WResNetConfig, PRESETS, preset, overrides)
    cfg = dataclasses.replace(cfg, blocks=tuple(cfg.blocks))
    model = WideResNet(cfg)
    images = jax.ShapeDtypeStruct((cfg.batch, cfg.image, cfg.image, 3), jnp.float32)
    labels = jax.ShapeDtypeStruct((cfg.batch,), jnp.int32)
    variables = jax.eval_shape(
        lambda: model.init(jax.random.PRNGKey(0), jnp.zeros(images.shape, images.dtype)))
    params, batch_stats = variables["params"], variables["batch_stats"]
    velocity = jax.eval_shape(momentum_init, params)
    data = {"images": images, "labels": labels}

    def train_step(params, batch_stats, velocity, data):
        def loss_fn(p):
            logits, new_state = model.apply({"params": p, "batch_stats": batch_stats},
                                            data["images"], mutable=["batch_stats"])
            return cross_entropy(logits, data["labels"]), new_state["batch_stats"]

        (loss, new_stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        params, velocity = momentum_update(params, grads, velocity)
        return params, new_stats, velocity, loss

    step = jax.jit(train_step, donate_argnums=(0, 1, 2), keep_unused=True)
    any_ = lambda t: jax.tree_util.tree_map(lambda _: ANY, t)  # noqa: E731
    # Running variances are >= 0; running means are anything.
    stats_hints = jax.tree_util.tree_map_with_path(
        lambda path, _: NONNEG if str(path[-1]).find("var") >= 0 else ANY, batch_stats)
    hints = (any_(params), stats_hints, any_(velocity),
             {"images": ANY, "labels": int_bound(cfg.classes)})
    return TrainStep("wresnet", step, (params, batch_stats, velocity, data), hints, cfg,
                     count_params(params))

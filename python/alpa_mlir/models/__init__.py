"""Train-step generators. Each ``make(preset=None, **overrides)`` returns a
:class:`~alpa_mlir.models.common.TrainStep` whose ``step_fn`` is jitted with
donated parameters/optimizer state and whose ``args`` are
``jax.ShapeDtypeStruct`` pytrees (no weights are allocated)."""

from . import gpt, mlp, moe, wresnet
from .common import TrainStep

MODELS = {
    "mlp": mlp.make,
    "gpt": gpt.make,
    "moe": moe.make,
    "wresnet": wresnet.make,
}

PRESETS = {
    "mlp": mlp.PRESETS,
    "gpt": gpt.PRESETS,
    "moe": moe.PRESETS,
    "wresnet": wresnet.PRESETS,
}

__all__ = ["MODELS", "PRESETS", "TrainStep", "gpt", "mlp", "moe", "wresnet"]

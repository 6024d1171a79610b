"""Explicit layer boundaries for the inter-op pass.

Code traced under ``layer(k)`` gets ``alpa_layer_<k>`` in the name of its ops'
locations (a ``jax.named_scope``); the backward ops JAX derives from it keep the
scope. ``alpa-cluster-layers`` and ``alpa-inter-op-stage`` then use these layers
instead of running Eq. 6 (``layers=auto`` when any op is marked, or
``layers=user``). Marked layers must appear in program order, each contiguous;
unmarked ops join the layer of the op before them. Export with debug info (the
default of ``alpa_mlir.export``), or the locations are gone.

    from alpa_mlir.layers import layer

    for i, block in enumerate(blocks):
        with layer(i):
            x = block(x)
"""

from __future__ import annotations

import jax

MARKER = "alpa_layer_"


def layer(k: int):
    """Context manager: ops traced inside belong to user layer ``k``."""
    if not isinstance(k, int) or k < 0:
        raise ValueError(f"a layer index is a non-negative int, got {k!r}")
    return jax.named_scope(f"{MARKER}{k}")

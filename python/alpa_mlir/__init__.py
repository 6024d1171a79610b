"""alpa_mlir: the Python bridge of alpa-mlir.

* :mod:`alpa_mlir.export` turns a JAX function plus example arguments (arrays or
  ``jax.ShapeDtypeStruct``) into StableHLO text in MLIR's generic op form, the
  input format of ``alpa-opt``.
* :mod:`alpa_mlir.plan` plans a JAX step's sharding with ``alpa-intra-op-shard``
  and returns it as ``jax.sharding.NamedSharding`` values for ``jax.jit``.
* :mod:`alpa_mlir.models` builds real training steps (MLP, GPT, MoE, Wide-ResNet).
* :mod:`alpa_mlir.runner` (``python -m alpa_mlir.run``) compiles generic-form
  modules with XLA on N virtual CPU devices and on one device, compares the
  outputs and lists the collectives XLA inserted.
* :mod:`alpa_mlir.intra_check` (``python -m alpa_mlir.validate``) checks an
  intra-op plan on XLA: numerics, and the report's collectives against XLA's.

Importing this package does not import JAX (the submodules do), but it checks
that the installed jax and jaxlib are versions the bridge supports
(:mod:`alpa_mlir.jax_support`).
"""

from .jax_support import check_installed as _check_jax

_check_jax()

__all__ = ["export", "models", "plan", "runner", "intra_check", "hlo"]

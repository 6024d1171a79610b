"""Argument hints, recorded by the export as discardable argument attributes of ``@main``:
- how :mod:`alpa_mlir.run` should draw random values for it (``int_bound``, ``nonnegative``);
  these carry no semantics for the computation itself;
- ``batch_dim``: the dim `alpa-inter-op-stage` splits the argument on into microbatches
  (``1`` for a time-major ``[T, B, F]`` input), or ``-1`` for an argument every microbatch
  shares; ``None`` leaves it to the rule (non-donated tensors whose dim 0 is the batch size)."""

from __future__ import annotations

# Argument attribute names written by the export, read by the runner and alpa-opt.
INT_BOUND_ATTR = "alpa.input_int_bound"
NONNEG_ATTR = "alpa.input_nonnegative"
BATCH_DIM_ATTR = "alpa.batch_dim"


class Hint:
    """What the export records for one flattened argument (see module doc)."""

    __slots__ = ("int_bound", "nonnegative", "batch_dim")

    def __init__(self, int_bound: int | None = None, nonnegative: bool = False,
                 batch_dim: int | None = None):
        if batch_dim is not None and (isinstance(batch_dim, bool) or not isinstance(batch_dim, int)
                                      or batch_dim < -1):
            raise ValueError(f"batch_dim must be a dim (>= 0), -1 (shared) or None, got {batch_dim!r}")
        self.int_bound = int_bound
        self.nonnegative = nonnegative
        self.batch_dim = batch_dim

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return (f"Hint(int_bound={self.int_bound}, nonnegative={self.nonnegative}, "
                f"batch_dim={self.batch_dim})")


ANY = Hint()
NONNEG = Hint(nonnegative=True)


def int_bound(n: int) -> Hint:
    return Hint(int_bound=int(n))

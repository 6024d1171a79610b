"""Input hints: how :mod:`alpa_mlir.run` should draw random values for an
argument of ``@main``. Recorded by the export as discardable argument
attributes; they carry no semantics for the computation itself."""

from __future__ import annotations

# Argument attribute names written by the export and read by the runner.
INT_BOUND_ATTR = "alpa.input_int_bound"
NONNEG_ATTR = "alpa.input_nonnegative"


class Hint:
    """How to draw a random value for one flattened argument (see module doc)."""

    __slots__ = ("int_bound", "nonnegative")

    def __init__(self, int_bound: int | None = None, nonnegative: bool = False):
        self.int_bound = int_bound
        self.nonnegative = nonnegative

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Hint(int_bound={self.int_bound}, nonnegative={self.nonnegative})"


ANY = Hint()
NONNEG = Hint(nonnegative=True)


def int_bound(n: int) -> Hint:
    return Hint(int_bound=int(n))

"""Comparing outputs of two runs: tolerances by dtype, NaN/inf placement, per-output rows."""

from __future__ import annotations

from typing import Sequence


def default_tolerance(dtype) -> tuple[float, float]:
    """(rtol, atol) for comparing results computed with different reduction
    orders (sharded vs. unsharded)."""
    import numpy as np

    name = np.dtype(dtype).name
    if name in ("bfloat16",):
        return 2e-2, 2e-2
    if name == "float16":
        return 5e-3, 5e-3
    if name == "float64":
        return 1e-9, 1e-12
    return 2e-4, 2e-6


def count_nonfinite(x) -> int:
    """NaN and inf values in ``x`` (0 for integer and boolean arrays; bfloat16 & co.
    are read as float32). A device array is counted where it lives: a stage's
    outputs run to gigabytes, too many to copy to the host and scan there."""
    import jax
    import numpy as np
    from jax.numpy import complexfloating, inexact, issubdtype

    if not issubdtype(x.dtype, inexact):
        return 0
    if isinstance(x, jax.Array) and x.size < 2**31:  # the count fits the default int32
        import jax.numpy as jnp

        return int(jnp.count_nonzero(~jnp.isfinite(x)))
    if not issubdtype(x.dtype, complexfloating) and not issubdtype(x.dtype, np.floating):
        x = x.astype(np.float32)
    return int(np.size(x) - np.count_nonzero(np.isfinite(x)))


def nonfinite_mismatches(x, y) -> int:
    """Places where ``x`` or ``y`` is NaN or inf and the other is not the same
    special value (NaN vs NaN and +inf vs +inf agree; anything else does not)."""
    import numpy as np

    special = ~np.isfinite(x) | ~np.isfinite(y)
    same = (np.isnan(x) & np.isnan(y)) | (np.isinf(x) & np.isinf(y) & (x == y))
    return int(np.sum(special & ~same))


def compare_outputs(a: Sequence, b: Sequence, rtol: float | None = None,
                    atol: float | None = None) -> dict:
    import numpy as np

    if len(a) != len(b):
        return {"match": False, "error": f"{len(a)} outputs vs {len(b)}", "outputs": []}
    rows, ok = [], True
    for i, (x, y) in enumerate(zip(a, b)):
        row = {"index": i, "shape": list(x.shape), "dtype": str(x.dtype)}
        if x.shape != y.shape or x.dtype != y.dtype:
            row.update(match=False, error=f"{x.dtype}{list(x.shape)} vs {y.dtype}{list(y.shape)}")
        elif np.issubdtype(x.dtype, np.integer) or x.dtype == np.bool_:
            eq = bool(np.array_equal(x, y))
            row.update(match=eq, exact=eq, mismatches=int(np.sum(x != y)))
        else:
            rt, at = default_tolerance(x.dtype)
            rt = rtol if rtol is not None else rt
            at = atol if atol is not None else at
            xf, yf = x.astype(np.complex128 if np.iscomplexobj(x) else np.float64), \
                y.astype(np.complex128 if np.iscomplexobj(y) else np.float64)
            finite = np.isfinite(xf) & np.isfinite(yf)
            special_mismatch = nonfinite_mismatches(xf, yf)
            with np.errstate(invalid="ignore"):  # inf - inf: not read, `finite` masks it
                diff = np.abs(xf - yf)
                scale = np.abs(yf)
                rel = diff / np.maximum(scale, np.finfo(np.float64).tiny)
            max_abs = float(diff[finite].max()) if finite.any() else 0.0
            max_rel = float(rel[finite & (scale > at)].max()) if (finite & (scale > at)).any() else 0.0
            close = special_mismatch == 0 and bool(
                np.allclose(xf[finite], yf[finite], rtol=rt, atol=at))
            row.update(match=close, exact=bool(np.array_equal(x, y, equal_nan=True)),
                       max_abs_err=max_abs, max_rel_err=max_rel, rtol=rt, atol=at,
                       nonfinite=count_nonfinite(xf),
                       nonfinite_mismatches=special_mismatch)
            if special_mismatch:
                row["error"] = (f"{special_mismatch} NaN/inf value(s) not at the same place "
                                "(or not the same) on the other side")
        ok &= row["match"]
        rows.append(row)
    return {"match": ok, "exact": all(r.get("exact", False) for r in rows), "outputs": rows}


def mismatched_outputs(num: dict) -> list[str]:
    """One line per output of :func:`compare_outputs` that did not match."""
    rows = []
    for o in num.get("outputs", []):
        if not o["match"]:
            rows.append(f"output {o['index']} {o.get('type', '')}: "
                        + ", ".join(f"{k}={o[k]}" for k in
                                    ("max_abs_err", "max_rel_err", "mismatches", "nonfinite",
                                     "error") if k in o))
    if num.get("error"):
        rows.append(num["error"])
    return rows

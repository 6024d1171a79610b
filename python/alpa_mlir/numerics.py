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


def step_tolerances(compute_type: str | None) -> dict:
    """Tolerances of a microbatched step against the same step at the global batch: results
    within (rtol, atol), each in-place update within update_rtol of its largest change. The
    microbatched step adds the same examples up in another order; one that computes in bf16 also
    rounds each microbatch's activations apart, so the tolerances widen with the epsilon of the
    type the step computes in (its matmuls' operands, see module_info.compute_element_type)."""
    from .module_info import float_epsilon

    eps = float_epsilon(compute_type) if compute_type else 0.0
    return {"rtol": max(2e-4, 2 * eps), "atol": max(2e-5, 2 * eps),
            "update_rtol": max(1e-3, 4 * eps)}


def update_tolerance(step) -> float:
    """The default update_rtol of :func:`step_tolerances` for `step` (a parsed
    module_info.ModuleInfo), from the type it computes in."""
    from .module_info import compute_element_type

    return step_tolerances(compute_element_type(step))["update_rtol"]


def compare_updates(aliases: dict[int, int], inputs: Sequence, a: Sequence, b: Sequence,
                    rtol: float) -> list[dict]:
    """Per float argument updated in place (argument -> result in `aliases`): how it changed in
    `a` against how it changed in `b`, within `rtol` of the largest change in `b` plus the
    resolution of the value (two of its type's epsilons of it: rounding the new value alone
    moves a change that small). An update is small beside the value it changes (a learning
    rate times a gradient), so a wrong gradient hides within any tolerance on the new value;
    only its change shows it."""
    import ml_dtypes
    import numpy as np

    rows = []
    for arg, res in sorted(aliases.items()):
        if (res >= len(a) or res >= len(b) or np.shape(a[res]) != np.shape(b[res])
                or np.shape(inputs[arg]) != np.shape(b[res])  # the result rows tell these
                or not np.issubdtype(np.asarray(b[res]).dtype, np.floating)):
            continue
        eps = float(ml_dtypes.finfo(np.asarray(b[res]).dtype).eps)
        before = np.asarray(inputs[arg], np.float64)
        new_b, new_a = np.asarray(b[res], np.float64), np.asarray(a[res], np.float64)
        want, have = new_b - before, new_a - before
        finite = np.isfinite(want) & np.isfinite(have)
        scale = float(np.abs(want[finite]).max()) if finite.any() else 0.0
        err = np.abs(have - want)[finite]
        allowed = (rtol * scale + 2 * eps * np.maximum(np.abs(before), np.abs(new_b)))[finite]
        special = nonfinite_mismatches(new_a, new_b)
        rows.append({"index": res, "argument": arg, "largest_change": scale,
                     "max_abs_err": float(err.max()) if err.size else 0.0,
                     "nonfinite_mismatches": special, "rtol": rtol,
                     "match": special == 0 and bool(np.all(err <= allowed))})
    return rows


def compare_results(a: Sequence, b: Sequence, inputs: Sequence, aliases: dict[int, int],
                    rtol: float | None = None, atol: float | None = None,
                    update_rtol: float = 1e-3) -> dict:
    """:func:`compare_outputs` of two runs of a step on `inputs`, and :func:`compare_updates` of
    the values it updates in place (`aliases`, argument -> result): a match only when both do."""
    values = compare_outputs(a, b, rtol, atol)
    updates = compare_updates(aliases, inputs, a, b, update_rtol)
    return {**values, "updates": updates,
            "match": values["match"] and all(u["match"] for u in updates)}


def compare_step(step, inputs: Sequence, got: Sequence, expected: Sequence,
                 tolerances: dict | None = None) -> dict:
    """`got` (a planned, microbatched run of `step` on `inputs`) against `expected` (`step`, a
    parsed module_info.ModuleInfo at the global batch, run on one device): every result, and
    every in-place update's change, within :func:`step_tolerances` of the step's compute type
    (entries of `tolerances` replace those)."""
    from .module_info import compute_element_type

    compute_type = compute_element_type(step)
    tol = {**step_tolerances(compute_type), **{k: v for k, v in (tolerances or {}).items()
                                               if v is not None}}
    return {**compare_results(got, expected, inputs, step.aliases, tol["rtol"], tol["atol"],
                              tol["update_rtol"]),
            "compute_type": compute_type, "tolerances": tol}


def mismatched_updates(rows: Sequence[dict]) -> list[str]:
    """One line per row of :func:`compare_updates` that did not match."""
    return [f"argument {u['argument']} (result {u['index']}) changed by something else than on "
            f"the other side (largest change {u['largest_change']:.3g}, max_abs_err "
            f"{u['max_abs_err']:.3g}, nonfinite_mismatches {u['nonfinite_mismatches']})"
            for u in rows if not u["match"]]


def mismatched_outputs(num: dict) -> list[str]:
    """One line per output of :func:`compare_outputs` (and update of :func:`compare_results`)
    that did not match."""
    rows = []
    for o in num.get("outputs", []):
        if not o["match"]:
            rows.append(f"output {o['index']} {o.get('type', '')}: "
                        + ", ".join(f"{k}={o[k]}" for k in
                                    ("max_abs_err", "max_rel_err", "mismatches", "nonfinite",
                                     "error") if k in o))
    rows += mismatched_updates(num.get("updates", []))
    if num.get("error"):
        rows.append(num["error"])
    return rows

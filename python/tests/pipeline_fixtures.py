"""Pipelined modules for the tests: a model exported at microbatch size and run
through `alpa-inline` + `alpa-inter-op-stage`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from alpa_mlir.alpa_opt import alpa_opt_path


def export_step(model: str, preset: str, overrides: dict) -> str:
    from alpa_mlir import models
    from alpa_mlir.export import export

    step = models.MODELS[model](preset=preset, **overrides)
    return export(step.step_fn, *step.args, hints=step.hints, debug_info=False)


def donated_state_exporter(step, state, batch_args):
    """`batch -> text` of `step(state, *batch)` jitted with the state donated; `batch_args` are
    (batch -> ShapeDtypeStruct, hint) pairs."""
    import jax

    from alpa_mlir.export import export
    from alpa_mlir.hints import ANY

    def at(batch: int) -> str:
        shapes = jax.tree.map(lambda a: jax.ShapeDtypeStruct(a.shape, a.dtype), state)
        args = (shapes, *(shape(batch) for shape, _ in batch_args))
        hints = (jax.tree.map(lambda _: ANY, state), *(hint for _, hint in batch_args))
        return export(jax.jit(step, donate_argnums=(0,), keep_unused=True), *args, hints=hints,
                      debug_info=True)
    return at


def features_and_labels(width: int, classes: int) -> list:
    """`batch_args` for `donated_state_exporter`: [batch, width] f32 features and [batch] int32
    labels below `classes`."""
    import jax
    import jax.numpy as jnp

    from alpa_mlir.hints import ANY, int_bound

    return [(lambda b: jax.ShapeDtypeStruct((b, width), jnp.float32), ANY),
            (lambda b: jax.ShapeDtypeStruct((b,), jnp.int32), int_bound(classes))]


def center_loss_exporter(update_centers, width: int, classes: int):
    """`batch -> text` of a classifier's step trained with a center loss (each feature pulled
    towards its class's center), whose centers, a state the forward reads, move by
    `update_centers(centers, features, labels)`."""
    import jax
    import jax.numpy as jnp

    state = ({"w0": jnp.full((width, width), 0.1), "w1": jnp.full((width, width), -0.05)},
             jnp.zeros((classes, width)))

    def step(state, x, labels):
        params, centers = state

        def loss_fn(p):
            features = jnp.tanh(jnp.tanh(x @ p["w0"]) @ p["w1"])
            return jnp.mean(jnp.sum((features - centers[labels]) ** 2, -1)), features

        (loss, features), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        new_params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
        return (new_params, update_centers(centers, jax.lax.stop_gradient(features), labels)), loss

    return donated_state_exporter(step, state, features_and_labels(width, classes))


def pipeline_cli(*args, timeout: float = 300, extra_env: dict | None = None):
    """`python -m alpa_mlir.pipeline ARGS` with this checkout's bridge: the finished process."""
    from conftest import REPO_ROOT

    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT / "python"), **(extra_env or {}))
    return subprocess.run([sys.executable, "-m", "alpa_mlir.pipeline", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, env=env)


def alpa_opt() -> Path:
    opt = alpa_opt_path()
    if not opt.exists():
        msg = f"alpa-opt not found at {opt} (build it, or set ALPA_OPT)"
        if os.environ.get("ALPA_REQUIRE_OPT") == "1":
            pytest.fail(msg)
        pytest.skip(msg)
    return opt


def run_alpa_opt(src: Path, out: Path, *passes: str) -> str:
    r = subprocess.run([str(alpa_opt()), str(src), *passes, "-o", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-4000:]
    return out.read_text()


def pipeline(text: str, tmp_path, options: str) -> str:
    src = tmp_path / "micro.mlir"
    src.write_text(text)
    return run_alpa_opt(src, tmp_path / "pipelined.mlir", "--alpa-inline",
                        f"--alpa-inter-op-stage={options}")


def auto_shard_plans(text: str, tmp_path: Path, options: str, cluster: Path,
                     modes) -> dict[str, tuple[str, str]]:
    """`alpa-auto-shard` once (stopping at the alpa.transfer markers), then per
    transfer mode `alpa-cross-mesh-resharding` and `alpa-lower-transfers`:
    mode -> (planned text with alpa.transfer_plan ops, lowered text)."""
    src = tmp_path / "micro.mlir"
    src.write_text(text)
    marked = tmp_path / "marked.mlir"
    run_alpa_opt(src, marked, f"--alpa-auto-shard=cluster={cluster} {options} "
                              "lower-transfers=false")
    out = {}
    for mode in modes:
        planned = tmp_path / f"planned-{mode}.mlir"
        out[mode] = (run_alpa_opt(marked, planned,
                                  f"--alpa-cross-mesh-resharding=cluster={cluster} mode={mode}"),
                     run_alpa_opt(planned, tmp_path / f"lowered-{mode}.mlir",
                                  "--alpa-lower-transfers"))
    return out


def auto_shard_step(tmp_path: Path, text: str, microbatches: int,
                    cluster: Path | None = None) -> subprocess.CompletedProcess:
    """`alpa-auto-shard` of a step exported at microbatch size (layers=auto, 10 s per intra-op
    plan, the 8-device test cluster by default), writing tmp_path/plan.mlir; the finished
    process (its return code and stderr are what tests check)."""
    from conftest import DATA_DIR

    src = tmp_path / "micro.mlir"
    src.write_text(text)
    cluster = cluster or DATA_DIR / "cluster-1x8.json"
    options = f"cluster={cluster} microbatches={microbatches} layers=auto time-limit=10"
    return subprocess.run([str(alpa_opt()), str(src), f"--alpa-auto-shard={options}",
                           "-o", str(tmp_path / "plan.mlir")],
                          capture_output=True, text=True, timeout=600)


def global_step_inputs(global_text: str, seed: int = 0):
    """The step exported at the global batch, parsed, and random inputs for it."""
    from alpa_mlir.input_domains import make_inputs
    from alpa_mlir.module_info import parse_module

    step = parse_module(global_text)
    return step, make_inputs(step.inputs, seed=seed)


def assert_pipeline_matches(pipe, step, inputs, min_stages: int = 4, finite: bool = False) -> None:
    """The pipelined plan `pipe` has at least `min_stages` stages and, run on `inputs`, gives
    what the global-batch `step` gives on one device; with `finite`, the global step's float
    results must be finite too (NaN at the same places would match)."""
    import numpy as np

    from alpa_mlir.numerics import compare_step
    from alpa_mlir.xla_exec import compile_module, execute

    assert len([p for p in pipe.module.programs.values() if p.kind == "stage"]) >= min_stages
    expected = execute(compile_module(step.module, 1), inputs, [o.shape for o in step.outputs])
    if finite:
        floats = [np.asarray(e) for e in expected if np.issubdtype(np.asarray(e).dtype, np.floating)]
        assert all(np.isfinite(e).all() for e in floats), "the global step itself is not finite"
    got = pipe.run(inputs)
    cmp = compare_step(step, inputs, got, expected)
    assert cmp["match"], ([r for r in cmp["outputs"] if not r["match"]][:5],
                          [u for u in cmp["updates"] if not u["match"]][:5])


def assert_pipelined_step_matches(tmp_path: Path, export_at, microbatch: int, microbatches: int,
                                  min_stages: int = 4) -> tuple[subprocess.CompletedProcess, str]:
    """`export_at(batch)` (a step's text at that batch size) exported at `microbatch`, planned
    by `auto_shard_step` over `microbatches` and run pipelined, gives what the step exported at
    the global batch gives on one device; the finished alpa-opt process and the plan's text."""
    from alpa_mlir.pipeline import Pipeline

    planned = auto_shard_step(tmp_path, export_at(microbatch), microbatches)
    assert planned.returncode == 0, planned.stderr[-3000:]
    plan = (tmp_path / "plan.mlir").read_text()
    step, inputs = global_step_inputs(export_at(microbatch * microbatches))
    assert_pipeline_matches(Pipeline(plan), step, inputs, min_stages)
    return planned, plan


def tanh_layers(params: dict, x, layers: int):
    """The tanh MLP the step tests train: h = tanh(h @ w_i) for i < layers."""
    import jax.numpy as jnp

    h = x
    for i in range(layers):
        h = jnp.tanh(h @ params[f"w{i}"])
    return h

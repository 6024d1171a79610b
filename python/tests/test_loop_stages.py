"""A loop kept as one op (`unroll-loops=false`) in a stage planned over several devices runs
and equals the global-batch step on one device (with a sharding on the stage function's
`stablehlo.while`, XLA's translation failed: RET_CHECK "has 7 leaf nodes while this sharding
has 8").

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import re
import subprocess

import jax
import jax.numpy as jnp

from alpa_mlir.export import export
from alpa_mlir.input_domains import make_inputs
from alpa_mlir.module_info import parse_module
from alpa_mlir.numerics import compare_outputs
from alpa_mlir.pipeline import Pipeline
from alpa_mlir.xla_exec import compile_module, execute
from conftest import DATA_DIR
from pipeline_fixtures import alpa_opt

SDS = jax.ShapeDtypeStruct
MICROBATCH, MICROBATCHES = 8, 2


def _export(batch: int) -> str:
    params = {f"w{i}": SDS((32, 32), jnp.float32) for i in range(4)}
    x, y = SDS((batch, 32), jnp.float32), SDS((batch, 32), jnp.float32)

    def step(params, x, y):
        def loss_fn(p):
            h = x
            for i in range(4):
                w = p[f"w{i}"]
                h = jax.lax.fori_loop(0, 3, lambda _, h: jnp.tanh(h @ w), h)
            return jnp.mean((h - y) ** 2)

        loss, grads = jax.value_and_grad(loss_fn)(params)
        return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss

    return export(jax.jit(step, donate_argnums=(0,)), params, x, y)


def test_a_loop_kept_whole_in_a_sharded_stage_runs_and_matches(tmp_path):
    src = tmp_path / "micro.mlir"
    src.write_text(_export(MICROBATCH))
    options = (f"cluster={DATA_DIR / 'cluster-1x8.json'} microbatches={MICROBATCHES} "
               "unroll-loops=false time-limit=10")
    r = subprocess.run([str(alpa_opt()), str(src), f"--alpa-auto-shard={options}",
                        "-o", str(tmp_path / "plan.mlir")], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    planned = (tmp_path / "plan.mlir").read_text()
    assert re.search(r"stablehlo\.while", planned), "the loops were unrolled"
    pipe = Pipeline(planned)
    assert any(len(p.devices) > 1 for p in pipe.module.programs.values() if p.kind == "stage")
    step = parse_module(_export(MICROBATCH * MICROBATCHES))
    inputs = make_inputs(step.inputs, seed=0)
    expected = execute(compile_module(step.module, 1), inputs, [o.shape for o in step.outputs])
    cmp = compare_outputs(pipe.run(inputs), expected, rtol=2e-4, atol=2e-5)
    assert cmp["match"], [o for o in cmp["outputs"] if not o["match"]][:5]

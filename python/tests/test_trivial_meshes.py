"""Shardy meshes that JAX writes into the export of an unpartitioned step:
- a typed PRNG key (`jax.random.key`) gets a replicated `sdy.sharding_constraint` on
  `@empty_mesh`, a mesh without axes: the step plans into several stages and runs over
  microbatches on 8 devices, equal to the global-batch step on one device;
- `jax.debug.print` becomes a host callback on `@maximal_mesh_0`: refused by `alpa-auto-shard` at
  the line that prints, since the callback cannot run outside the exporting process.

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import subprocess

import jax
import jax.numpy as jnp
import optax

from alpa_mlir.export import export
from alpa_mlir.hints import ANY
from alpa_mlir.pipeline import Pipeline
from pipeline_fixtures import assert_pipeline_matches, auto_shard_step, global_step_inputs

MICROBATCH, MICROBATCHES, WIDTH, LAYERS = 8, 2, 32, 4
SDS = jax.ShapeDtypeStruct


def _export(batch: int, print_loss: bool = False) -> str:
    params = {f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(LAYERS)}
    key = jax.eval_shape(lambda: jax.random.key(0))
    tx = optax.sgd(0.1)

    def step(params, opt_state, x, y, key):
        def loss_fn(p):
            h = x
            for i in range(LAYERS):
                # Weight noise: the same for every microbatch, so the microbatched step equals
                # the global one (per-example dropout masks would not).
                w = p[f"w{i}"]
                noisy = w + 1e-2 * jax.random.normal(jax.random.fold_in(key, i), w.shape)
                h = jnp.tanh(h @ noisy)
            return jnp.mean((h - y) ** 2)

        loss, grads = jax.value_and_grad(loss_fn)(params)
        if print_loss:
            jax.debug.print("loss {}", loss)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    opt_state = jax.eval_shape(tx.init, params)
    data = (SDS((batch, WIDTH), jnp.float32), SDS((batch, WIDTH), jnp.float32))
    hints = (jax.tree.map(lambda _: ANY, params), jax.tree.map(lambda _: ANY, opt_state), ANY, ANY,
             ANY)
    return export(jax.jit(step, donate_argnums=(0, 1)), params, opt_state, *data, key,
                  hints=hints, debug_info=True)


def _plan(tmp_path, text: str) -> subprocess.CompletedProcess:
    return auto_shard_step(tmp_path, text, MICROBATCHES)


def test_a_typed_prng_key_on_the_empty_mesh_pipelines_and_matches_the_global_step(tmp_path):
    text = _export(MICROBATCH)
    assert "@empty_mesh" in text, "JAX no longer writes the empty mesh: this test tests nothing"
    planned = _plan(tmp_path, text)
    assert planned.returncode == 0, planned.stderr[-3000:]
    plan = (tmp_path / "plan.mlir").read_text()
    assert "empty_mesh" not in plan
    pipe = Pipeline(plan)
    step, inputs = global_step_inputs(_export(MICROBATCH * MICROBATCHES))
    assert_pipeline_matches(pipe, step, inputs)


def test_a_host_callback_is_refused_at_the_line_that_prints(tmp_path):
    text = _export(MICROBATCH, print_loss=True)
    assert "@maximal_mesh" in text, "JAX no longer pins callbacks to a maximal mesh"
    planned = _plan(tmp_path, text)
    assert planned.returncode != 0
    errors = [line for line in planned.stderr.splitlines() if "error:" in line]
    assert errors and "host callbacks" in errors[0], planned.stderr[-3000:]
    source = open(__file__).read().splitlines()
    print_line = next(i for i, line in enumerate(source, 1) if "jax.debug.print(" in line)
    assert f"test_trivial_meshes.py:{print_line}:" in errors[0].split(" error:")[0], \
        f"not at the print (line {print_line}): {errors[0]}"
    assert "panicked" not in planned.stderr

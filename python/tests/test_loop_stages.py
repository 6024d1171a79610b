"""A loop kept as one op (`unroll-loops=false`) in a stage planned over several devices runs
and equals the global-batch step on one device (with a sharding on the stage function's
`stablehlo.while`, XLA's translation failed: RET_CHECK "has 7 leaf nodes while this sharding
has 8"). Layers in a `lax.scan` kept whole pipeline without a warning: the forward loop's
carried values each have their own batch class (`src/inter/loop_classes.rs`).

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
from alpa_mlir.numerics import compare_step, mismatched_outputs
from alpa_mlir.pipeline import Pipeline
from alpa_mlir.xla_exec import compile_module, execute
from conftest import DATA_DIR
from pipeline_fixtures import alpa_opt

SDS = jax.ShapeDtypeStruct
MICROBATCH, MICROBATCHES = 8, 2


def _plan(tmp_path, text: str, options: str = "") -> tuple[subprocess.CompletedProcess, str]:
    """`alpa-auto-shard` of `text` on the 8-device cluster over `MICROBATCHES` (and `options`):
    the finished process, which succeeded, and the plan's text."""
    src = tmp_path / "micro.mlir"
    src.write_text(text)
    options = f"cluster={DATA_DIR / 'cluster-1x8.json'} microbatches={MICROBATCHES} time-limit=10 {options}"
    r = subprocess.run([str(alpa_opt()), str(src), f"--alpa-auto-shard={options}",
                        "-o", str(tmp_path / "plan.mlir")], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return r, (tmp_path / "plan.mlir").read_text()


def _assert_runs_as_the_global_step(pipe: Pipeline, export_at) -> None:
    """`pipe`, run on random inputs of the step `export_at` exports at the global batch, gives
    what that step gives on one device."""
    step = parse_module(export_at(MICROBATCH * MICROBATCHES))
    inputs = make_inputs(step.inputs, seed=0)
    expected = execute(compile_module(step.module, 1), inputs, [o.shape for o in step.outputs])
    cmp = compare_step(step, inputs, pipe.run(inputs), expected)
    assert cmp["match"], mismatched_outputs(cmp)[:5]


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
    _, planned = _plan(tmp_path, _export(MICROBATCH), "unroll-loops=false")
    assert re.search(r"stablehlo\.while", planned), "the loops were unrolled"
    pipe = Pipeline(planned)
    assert any(len(p.devices) > 1 for p in pipe.module.programs.values() if p.kind == "stage")
    _assert_runs_as_the_global_step(pipe, _export)


def _sampled_scale_export(batch: int) -> str:
    """Layers in a counted loop (`fori_loop`) and a noise scale drawn by `jax.random.gamma`,
    whose rejection sampler is a loop until a draw is accepted: no static trip count."""
    params = {f"w{i}": SDS((32, 32), jnp.float32) for i in range(4)}
    x, y = SDS((batch, 32), jnp.float32), SDS((batch, 32), jnp.float32)
    key = jax.eval_shape(lambda: jax.random.key_data(jax.random.key(0)))

    def step(params, key, x, y):
        scale = jax.random.gamma(jax.random.wrap_key_data(key), 2.0) * 1e-2

        def loss_fn(p):
            h = x
            for i in range(4):
                w = p[f"w{i}"]
                h = jax.lax.fori_loop(0, 2, lambda _, h: jnp.tanh(h @ w), h)
            return jnp.mean((h - y) ** 2) + scale * sum(jnp.sum(w ** 2) for w in p.values())

        loss, grads = jax.value_and_grad(loss_fn)(params)
        return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss

    return export(jax.jit(step, donate_argnums=(0,)), params, key, x, y)


def test_a_loop_without_a_static_trip_count_stays_while_the_counted_ones_unroll(tmp_path):
    """The rejection sampler's loop stays one op, with a warning at it; the layers' loops are
    unrolled (by default); the plan pipelines and equals the global-batch step. Before, the
    sampler's loop was an error unless every loop was kept (`unroll-loops=false`)."""
    r, planned = _plan(tmp_path, _sampled_scale_export(MICROBATCH))
    warnings = [line for line in r.stderr.splitlines() if "warning:" in line]
    assert warnings and all("the loop's trip count is not static" in w for w in warnings), r.stderr[-3000:]
    assert re.search(r"unrolled [1-9]\d* loops", r.stderr), r.stderr[-3000:]
    key = jax.eval_shape(lambda: jax.random.key_data(jax.random.key(0)))
    sampler = jax.jit(lambda k: jax.random.gamma(jax.random.wrap_key_data(k), 2.0)).lower(key).as_text()
    loops = lambda text: len(re.findall(r"stablehlo\.while", text))  # noqa: E731
    assert loops(planned) == loops(sampler), "only the sampler's loops (and those inside them) stay"
    _assert_runs_as_the_global_step(Pipeline(planned), _sampled_scale_export)


def _scanned_layers_export(batch: int) -> str:
    """Residual layers with biases in one `lax.scan` over stacked weights, each layer's mean
    squared activation stacked as the scan's output and averaged into an auxiliary loss, adam."""
    import optax

    from alpa_mlir.hints import ANY, int_bound

    tx = optax.adam(1e-2)
    layers, width = 4, 32
    params = {"w_in": SDS((16, width), jnp.float32), "ws": SDS((layers, width, width), jnp.float32),
              "bs": SDS((layers, width), jnp.float32), "w_out": SDS((width, 4), jnp.float32)}

    def step(params, opt_state, x, y):
        def loss_fn(p):
            def layer(h, wb):
                w, b = wb
                return h + jnp.tanh(h @ w + b), jnp.mean(h * h, -1)

            h, per_layer = jax.lax.scan(layer, jnp.tanh(x @ p["w_in"]), (p["ws"], p["bs"]))
            logits = h @ p["w_out"]
            return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean() + 0.01 * per_layer.mean()

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    opt_state = jax.eval_shape(tx.init, params)
    hints = (jax.tree.map(lambda _: ANY, params), jax.tree.map(lambda _: ANY, opt_state), ANY, int_bound(4))
    return export(jax.jit(step, donate_argnums=(0, 1)), params, opt_state, SDS((batch, 16), jnp.float32),
                  SDS((batch,), jnp.int32), hints=hints, debug_info=True)


def test_layers_scanned_in_a_loop_kept_whole_pipeline_unwarned(tmp_path):
    """The forward loop carries the activations per example, the stacked weights and the
    counter, and stacks a per-example value per layer: each carried value has its own class, so
    the loss is a mean and nothing is warned about. Before, all shared the loop's class and the
    loss was warned about as neither a sum nor a mean."""
    r, planned = _plan(tmp_path, _scanned_layers_export(MICROBATCH), "unroll-loops=false")
    assert "warning:" not in r.stderr, r.stderr[-3000:]
    assert re.search(r"stablehlo\.while", planned), "the loops were unrolled"
    _assert_runs_as_the_global_step(Pipeline(planned), _scanned_layers_export)

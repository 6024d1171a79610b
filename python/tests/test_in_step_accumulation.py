"""Gradient accumulation written inside the step, pipelined over microbatches.

A step may split its batch into chunks itself and add up their losses and gradients under
`lax.scan` or `fori_loop`: by `x.reshape(k, -1, ...)[i]` (big_vision's `accumulate_gradient`)
or by `lax.dynamic_slice_in_dim(x, i * n, n)` (t5x's microbatches). A chunk's aggregate is not
the batch's; the chunks' added up, each once and with one weight, are. The plan must combine
the microbatches' steps as the global batch's step computes, without a warning, for a sum or a
mean loss alike. Where the step's loss or an output is over part of the batch, it must say so.
"""

import jax
import jax.numpy as jnp
import pytest

from alpa_mlir.export import export
from pipeline_fixtures import assert_pipelined_step_matches, auto_shard_step, tanh_layers

SDS = jax.ShapeDtypeStruct
WIDTH, LAYERS, CHUNKS = 32, 4, 2
MICROBATCH, MICROBATCHES = 4, 2


def chunk_by_reshape(x, i):
    return x.reshape(CHUNKS, -1, WIDTH)[i]


def chunk_by_slice(x, i):
    n = x.shape[0] // CHUNKS
    return jax.lax.dynamic_slice_in_dim(x, i * n, n, 0)


def accumulating_step(reduce, chunk, loop: str, divide_by_chunks: bool = True):
    """`export_at(batch)` of an SGD step accumulating `reduce`'s loss and its gradients over
    `CHUNKS` chunks of the batch: taken by `chunk` at each index of a `scan` or a `fori` loop,
    or (`scan_inputs`) the batch reshaped into chunks as a scan's inputs."""

    def export_at(batch):
        params = {f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(LAYERS)}

        def loss(p, x, y):
            return reduce((tanh_layers(p, x, LAYERS) - y) ** 2)

        def step(p, x, y):
            def add_chunk(acc, x_i, y_i):
                value, grads = jax.value_and_grad(loss)(p, x_i, y_i)
                return acc[0] + value, jax.tree.map(jnp.add, acc[1], grads)

            zero = (0.0, jax.tree.map(jnp.zeros_like, p))
            if loop == "scan":
                (total, grads), _ = jax.lax.scan(
                    lambda acc, i: (add_chunk(acc, chunk(x, i), chunk(y, i)), None), zero, jnp.arange(CHUNKS))
            elif loop == "fori":
                total, grads = jax.lax.fori_loop(
                    0, CHUNKS, lambda i, acc: add_chunk(acc, chunk(x, i), chunk(y, i)), zero)
            else:
                chunks = (x.reshape(CHUNKS, -1, WIDTH), y.reshape(CHUNKS, -1, WIDTH))
                (total, grads), _ = jax.lax.scan(lambda acc, xy: (add_chunk(acc, *xy), None), zero, chunks)
            k = CHUNKS if divide_by_chunks else 1
            return jax.tree.map(lambda w, g: w - 0.1 * g / k, p, grads), total / k

        x = SDS((batch, WIDTH), jnp.float32)
        return export(jax.jit(step, donate_argnums=(0,)), params, x, x, debug_info=True)

    return export_at


@pytest.mark.parametrize("reduce", [jnp.mean, jnp.sum], ids=["mean", "sum"])
@pytest.mark.parametrize("chunk", [chunk_by_reshape, chunk_by_slice], ids=["reshape", "slice"])
@pytest.mark.parametrize("loop", ["scan", "fori"])
def test_chunks_accumulated_in_the_step_combine_as_the_global_batch(tmp_path, reduce, chunk, loop):
    planned, _ = assert_pipelined_step_matches(
        tmp_path, accumulating_step(reduce, chunk, loop), MICROBATCH, MICROBATCHES, min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-1500:]


def test_chunk_means_added_up_undivided_combine_as_a_mean_and_are_warned(tmp_path):
    # The loss k * mean: a batch cut into k chunks whatever its size gives the global value.
    planned, _ = assert_pipelined_step_matches(
        tmp_path, accumulating_step(jnp.mean, chunk_by_reshape, "scan", divide_by_chunks=False),
        MICROBATCH, MICROBATCHES, min_stages=2)
    assert "adds up the means of the batch's chunks" in planned.stderr, planned.stderr[-1500:]


def test_a_loss_over_part_of_the_batch_is_warned(tmp_path):
    def step(w, x):
        loss = lambda w: jnp.sum(jnp.tanh(x[:2] @ w) ** 2)
        value, grad = jax.value_and_grad(loss)(w)
        return w - 0.1 * grad, value

    w, x = SDS((WIDTH, WIDTH), jnp.float32), SDS((MICROBATCH, WIDTH), jnp.float32)
    text = export(jax.jit(step, donate_argnums=(0,)), w, x, debug_info=True)
    planned = auto_shard_step(tmp_path, text, MICROBATCHES)
    assert planned.returncode == 0, planned.stderr[-3000:]
    assert "the loss is computed from part of the microbatch's examples" in planned.stderr, planned.stderr[-1500:]


@pytest.mark.parametrize("output", [lambda x: jnp.sum(x[:2]), lambda x: jnp.tanh(x[:2])], ids=["sum", "rows"])
def test_an_output_over_part_of_the_batch_is_rejected(tmp_path, output):
    def step(w, x):
        value, grad = jax.value_and_grad(lambda w: jnp.mean(jnp.tanh(x @ w) ** 2))(w)
        return w - 0.1 * grad, value, output(x)

    w, x = SDS((WIDTH, WIDTH), jnp.float32), SDS((MICROBATCH, WIDTH), jnp.float32)
    text = export(jax.jit(step, donate_argnums=(0,)), w, x, debug_info=True)
    planned = auto_shard_step(tmp_path, text, MICROBATCHES)
    assert planned.returncode != 0
    assert "result 2 of the step is computed from part of the microbatch's examples" in planned.stderr, \
        planned.stderr[-1500:]


@pytest.mark.parametrize("reduce", [jnp.mean, jnp.sum], ids=["mean", "sum"])
def test_chunks_scanned_over_as_the_scans_inputs_combine_as_the_global_batch(tmp_path, reduce):
    # lax.scan(body, init, x.reshape(k, -1, ...)): each iteration reads its chunk of the batch.
    export_at = accumulating_step(reduce, None, "scan_inputs")
    planned, _ = assert_pipelined_step_matches(tmp_path, export_at, MICROBATCH, MICROBATCHES, min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-1500:]


@pytest.mark.parametrize("reduce", [jnp.mean, jnp.sum], ids=["mean", "sum"])
def test_accumulation_across_steps_in_the_optimizers_state_combines_as_the_global_batch(tmp_path, reduce):
    # optax.MultiSteps: the step adds its gradients to the state and updates every k-th step.
    import optax

    optimizer = optax.MultiSteps(optax.adam(1e-2), every_k_schedule=2)

    def export_at(batch):
        params = {f"w{i}": SDS((WIDTH, WIDTH), jnp.float32) for i in range(LAYERS)}
        state = jax.eval_shape(optimizer.init, params)

        def step(p, s, x, y):
            value, grads = jax.value_and_grad(lambda p: reduce((tanh_layers(p, x, LAYERS) - y) ** 2))(p)
            updates, s = optimizer.update(grads, s, p)
            return optax.apply_updates(p, updates), s, value

        x = SDS((batch, WIDTH), jnp.float32)
        return export(jax.jit(step, donate_argnums=(0, 1)), params, state, x, x, debug_info=True)

    planned, _ = assert_pipelined_step_matches(tmp_path, export_at, MICROBATCH, MICROBATCHES, min_stages=2)
    assert "warning:" not in planned.stderr, planned.stderr[-1500:]

"""Why GPT-2.6B's bf16 stage 0 backward runs 2.8x its model: times the embedding gradient alone,
a scatter-add of 8 x 1024 token rows of 2560 into a 51200 x 2560 table (as in the planned
module), in f32 and bf16, beside a plain elementwise pass over the same table. On ids drawn from
the vocabulary it took under a millisecond; the slow stage's ids came from [0, 2) (README,
"Results on an H200").

Usage (on the GPU machine): python3 docs/gpu-runs/2026-11-27-h200/scatter_probe.py
"""
import time

import jax
import jax.numpy as jnp


def median_ms(fn, *args, runs=20):
    jax.block_until_ready(fn(*args))
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2] * 1e3


def main():
    key = jax.random.PRNGKey(0)
    ids = jax.random.randint(key, (8, 1024), 0, 51200)
    print(f"device: {jax.devices()[0].device_kind}, jax {jax.__version__}")
    for dtype in (jnp.float32, jnp.bfloat16):
        table = jnp.zeros((51200, 2560), dtype)
        rows = jax.random.normal(key, (8, 1024, 2560), dtype)
        scatter = jax.jit(lambda t, i, r: t.at[i].add(r))
        touch = jax.jit(lambda t: t * 2)
        s, t = median_ms(scatter, table, ids, rows), median_ms(touch, table)
        name = jnp.dtype(dtype).name
        print(f"{name:>8}: scatter-add {s:8.3f} ms, table x 2 {t:8.3f} ms, scatter / pass {s / t:6.1f}")


if __name__ == "__main__":
    main()

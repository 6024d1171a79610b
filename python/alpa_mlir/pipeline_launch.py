"""Multi-controller runs of the pipeline runtime: ``launch`` starts one worker
process per host on 127.0.0.1 (``jax.distributed`` with a free coordinator
port, CPU collectives through gloo), waits with a timeout and merges the
output pieces each worker held."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(a) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Run the plan as ``a.processes`` workers; returns (outputs, inputs)."""
    coordinator = f"127.0.0.1:{_free_port()}"
    with tempfile.TemporaryDirectory(prefix="alpa-pipeline-") as tmp:
        procs, logs = [], []
        for i in range(a.processes):
            cmd = [sys.executable, "-m", "alpa_mlir.pipeline", "worker", str(a.plan),
                   "--coordinator", coordinator, "--process-id", str(i),
                   "--processes", str(a.processes),
                   "--devices-per-process", str(a.devices_per_process),
                   "--inputs", str(a.inputs), "--out", tmp]
            if a.reference:
                cmd += ["--reference", str(a.reference)]
            env = dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count="
                                             f"{a.devices_per_process}")
            log = open(Path(tmp) / f"worker{i}.log", "w+")
            logs.append(log)
            procs.append(subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env))
        deadline = time.monotonic() + a.timeout
        failed = None
        try:
            while any(p.poll() is None for p in procs):
                if time.monotonic() > deadline:
                    failed = f"workers did not finish within {a.timeout:.0f}s"
                    break
                if any(p.poll() not in (None, 0) for p in procs):
                    failed = "a worker failed"
                    break
                time.sleep(0.1)
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                    p.wait()
        for i, log in enumerate(logs):
            log.seek(0)
            text = log.read()
            log.close()
            sys.stderr.write(text)
            if procs[i].returncode != 0 and failed is None:
                failed = f"worker {i} exited with {procs[i].returncode}"
        if failed:
            raise RuntimeError(failed)
        parts = [np.load(Path(tmp) / f"worker{i}.npz") for i in range(a.processes)]
        inputs = [parts[0][f"input{k}"] for k in range(int(parts[0]["num_inputs"]))]
        return _merge(parts), inputs


def _merge(parts) -> list[np.ndarray]:
    outputs = []
    for k in range(int(parts[0]["num_outputs"])):
        full, covered = None, None
        for p in parts:
            if f"out{k}" not in p:
                continue
            data, mask = p[f"out{k}"], p[f"mask{k}"]
            if full is None:
                full, covered = np.zeros_like(data), np.zeros(data.shape, bool)
            full[mask] = data[mask]
            covered |= mask
        if full is None or not covered.all():
            raise RuntimeError(f"output {k} is not fully held by the workers")
        outputs.append(full)
    return outputs


def worker(a) -> int:
    import jax

    jax.config.update("jax_cpu_collectives_implementation", "gloo")
    jax.distributed.initialize(a.coordinator, num_processes=a.processes,
                               process_id=a.process_id, initialization_timeout=60)
    from .pipeline import Pipeline, held_parts
    from .pipeline_cli import _inputs

    pipe = Pipeline(Path(a.plan).read_text(), enable_x64=True)
    inputs = _inputs(pipe.module.inputs, a.inputs, a.reference)
    values = pipe.run_values(inputs)
    arrays = {"num_outputs": np.array(len(values)), "num_inputs": np.array(len(inputs))}
    for k, x in enumerate(inputs):
        arrays[f"input{k}"] = x
    for k, v in enumerate(values):
        held = held_parts(v)
        if held is not None:
            arrays[f"out{k}"], arrays[f"mask{k}"] = held
    np.savez(Path(a.out) / f"worker{a.process_id}.npz", **arrays)
    jax.distributed.shutdown()
    return 0

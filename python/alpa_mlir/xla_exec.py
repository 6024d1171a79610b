"""Compile and run StableHLO modules with XLA's CPU client on virtual devices.

``XLA_FLAGS=--xla_force_host_platform_device_count=N`` must be set before JAX
is imported for N-device runs: :func:`ensure_host_devices` does that.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Sequence

from .module_info import ModuleInfo, strip_shardings

_DEVICE_FLAG = "--xla_force_host_platform_device_count"


def ensure_host_devices(n: int = 8) -> None:
    """Ask XLA's CPU client for ``n`` virtual devices, unless ``XLA_FLAGS``
    already names a count. Must run before JAX initialises its backends."""
    flags = os.environ.get("XLA_FLAGS", "")
    if _DEVICE_FLAG not in flags:
        os.environ["XLA_FLAGS"] = (flags + f" {_DEVICE_FLAG}={n}").strip()


@dataclass
class Compiled:
    executable: Any
    devices: list
    num_partitions: int

    def hlo_text(self) -> str:
        return "\n".join(m.to_string() for m in self.executable.hlo_modules())


def compile_module(module, num_devices: int, shardy: bool = False,
                   devices: Sequence | None = None) -> Compiled:
    """Compile an ``ir.Module`` for ``num_devices`` partitions (SPMD) with
    ``backend.compile_and_load`` of the CPU client (of the given devices'
    client when ``devices`` are given), as JAX itself does. Partition i runs on
    ``devices[i]`` (default: the first local CPU devices)."""
    import numpy as np
    from jax._src.lib import xla_client as xc
    from jax.extend.backend import get_backend

    if devices:
        # The devices' own client: GPU devices compile with the GPU client.
        backend = list(devices)[0].client
    else:
        backend = get_backend("cpu")
    if devices is None:
        devices = backend.local_devices()
        if len(devices) < num_devices:
            raise RuntimeError(
                f"need {num_devices} CPU devices but XLA has {len(devices)}: set "
                f"XLA_FLAGS={_DEVICE_FLAG}={num_devices} before importing jax")
    if len(devices) < num_devices:
        raise ValueError(f"{num_devices} partitions but {len(devices)} devices given")
    devices = list(devices)[:num_devices]
    opts = xc.CompileOptions()
    opts.num_replicas = 1
    opts.num_partitions = num_devices
    opts.device_assignment = xc.DeviceAssignment.create(
        np.array([[d.id for d in devices]], dtype=np.int64))
    build = opts.executable_build_options
    build.use_spmd_partitioning = num_devices > 1
    build.use_shardy_partitioner = bool(shardy)
    exe = backend.compile_and_load(module, xc.DeviceList(tuple(devices)), opts)
    return Compiled(exe, devices, num_devices)


def execute(compiled: Compiled, inputs, output_shapes: Sequence[tuple[int, ...]]):
    """Run with numpy inputs; returns the outputs as full numpy arrays
    (``output_shapes`` are the global shapes of the results of ``@main``)."""
    import jax
    import numpy as np
    from jax._src.sharding_impls import GSPMDSharding

    exe, devices = compiled.executable, compiled.devices
    if compiled.num_partitions == 1:
        args = [jax.device_put(x, devices[0]) for x in inputs]
    else:
        shardings = exe.get_parameter_shardings()
        if len(shardings) != len(inputs):
            raise RuntimeError(f"executable takes {len(shardings)} parameters, "
                               f"{len(inputs)} inputs given")
        args = []
        for x, op_sh in zip(inputs, shardings):
            sh = GSPMDSharding(devices, op_sh)
            idx = sh.devices_indices_map(x.shape)
            pieces = [jax.device_put(np.array(x[idx[d]], copy=True), d) for d in devices]
            args.append(jax.make_array_from_single_device_arrays(x.shape, sh, pieces))
    results = exe.execute_sharded(args)
    per_output = results.disassemble_into_single_device_arrays()
    if len(per_output) != len(output_shapes):
        raise RuntimeError(f"executable returned {len(per_output)} outputs, "
                           f"@main declares {len(output_shapes)}")
    if compiled.num_partitions == 1:
        return [np.asarray(shards[0]) for shards in per_output]
    outs = []
    for shards, op_sh, shape in zip(per_output, exe.get_output_shardings(), output_shapes):
        sh = GSPMDSharding(devices, op_sh)
        idx = sh.devices_indices_map(tuple(shape))
        full = None
        for s in shards:
            (d,) = s.devices()
            piece = np.asarray(s)
            if full is None:
                full = np.zeros(tuple(shape), piece.dtype)
            full[idx[d]] = piece
        outs.append(full)
    return outs


def choose_partitioner(info: ModuleInfo, requested: str = "auto") -> str:
    """``shardy`` for modules with ``sdy`` annotations, ``gspmd`` for modules
    with only ``mhlo.sharding`` ones, ``shardy`` (XLA's default) otherwise."""
    if requested in ("shardy", "gspmd"):
        return requested
    if requested != "auto":
        raise ValueError(f"unknown partitioner {requested!r}")
    if info.shardy:
        return "shardy"
    return "gspmd" if info.sharded else "shardy"


def run_on_one_device(info: ModuleInfo, inputs) -> list:
    """The module's outputs on one device, sharding annotations stripped."""
    module = strip_shardings(info) if info.sharded else info.module
    return execute(compile_module(module, 1), inputs, [o.shape for o in info.outputs])

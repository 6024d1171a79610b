"""Arrays on explicit device lists: host values placed as an executable's
parameter sharding, per-device blocks of transfer programs, and the logical
layout an ``#sdy.sharding`` names. Only this process's devices are touched
(multi-controller JAX: every process supplies its own shards)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .pipeline_module import Mesh, PipelineError, sdy_dims


@dataclass
class Remote:
    """A value living only on other processes' devices."""
    shape: tuple[int, ...]
    dtype: object
    devices: frozenset


def devices_of(ids, all_devices) -> list:
    if max(ids, default=-1) >= len(all_devices):
        raise PipelineError(f"the plan uses device {max(ids)} but only {len(all_devices)} "
                            "devices exist (--devices / --devices-per-process)")
    return [all_devices[i] for i in ids]


def is_local(devices) -> bool:
    import jax

    pid = jax.process_index()
    return any(d.process_index == pid for d in devices)


def place(x: np.ndarray, sharding):
    """A host array as a global array with ``sharding`` (this process's shards)."""
    import jax

    idx = sharding.addressable_devices_indices_map(x.shape)
    pieces = [jax.device_put(np.array(x[i], copy=True), d) for d, i in idx.items()]
    return jax.make_array_from_single_device_arrays(x.shape, sharding, pieces)


def sdy_sharding(text: str, meshes: dict[str, Mesh], devices: list, ndim: int):
    """NamedSharding of an ``#sdy.sharding`` on a stage mesh whose devices are
    ``devices`` row-major over the mesh axes."""
    from jax.sharding import Mesh as JaxMesh, NamedSharding, PartitionSpec

    mesh_name, dims = sdy_dims(text)
    mesh = meshes.get(mesh_name)
    if mesh is None:
        raise PipelineError(f"sharding names unknown mesh @{mesh_name}")
    if int(np.prod(mesh.sizes)) != len(devices):
        raise PipelineError(f"mesh @{mesh_name} has {np.prod(mesh.sizes)} devices, "
                            f"{len(devices)} given")
    if len(dims) != ndim:
        raise PipelineError(f"sharding {text} has {len(dims)} dimensions, value has {ndim}")
    jmesh = JaxMesh(np.array(devices, dtype=object).reshape(mesh.sizes), tuple(mesh.axes))
    spec = PartitionSpec(*[tuple(d) if len(d) > 1 else (d[0] if d else None) for d in dims])
    return NamedSharding(jmesh, spec)


def reshard_in_place(value, sharding):
    """``value`` laid out as ``sharding`` (same devices) by slicing each
    device's own shard, or None when some device would need elements it does
    not hold: that is data moving between devices."""
    import jax

    shape = tuple(value.shape)
    have = value.sharding.devices_indices_map(shape)
    want = sharding.devices_indices_map(shape)
    own = local_tiles(value)
    pieces = []
    for device, region in want.items():
        held = have.get(device)
        if held is None:
            return None
        within = []
        for w, h, n in zip(region, held, shape):
            (w0, w1, _), (h0, h1, _) = w.indices(n), h.indices(n)
            if w0 < h0 or w1 > h1:
                return None
            within.append(slice(w0 - h0, w1 - h0))
        if device in own:
            pieces.append(own[device][tuple(within)])
    return jax.make_array_from_single_device_arrays(shape, sharding, pieces)


def local_tiles(arr) -> dict:
    """device -> single-device array of this process's shards."""
    return {s.device: s.data for s in arr.addressable_shards}


def stack_blocks(tiles: dict, devices: list, tile_shape, dtype, sharding):
    """The (N, *tile) input of a transfer program: block i is ``tiles[devices[i]]``
    or zeros where that device holds nothing."""
    import jax

    pieces = []
    for d in devices:
        if not d.process_index == jax.process_index():
            continue
        t = tiles.get(d)
        if t is None:
            pieces.append(jax.device_put(np.zeros((1, *tile_shape), dtype), d))
        else:
            if tuple(t.shape) != tuple(tile_shape):
                raise PipelineError(f"tile on {d} is {t.shape}, the program expects {tile_shape}")
            pieces.append(t.reshape((1, *tile_shape)))
    return jax.make_array_from_single_device_arrays((len(devices), *tile_shape), sharding, pieces)


def unstack_blocks(arr, tile_shape) -> dict:
    """device -> its block of a (N, *tile) program result."""
    return {d: t.reshape(tuple(tile_shape)) for d, t in local_tiles(arr).items()}


def assemble(tiles: dict, shape, sharding):
    """The logical array whose shard on each device is ``tiles[device]``."""
    import jax

    idx = sharding.addressable_devices_indices_map(tuple(shape))
    pieces = []
    for d, index in idx.items():
        want = tuple(len(range(*s.indices(n))) for s, n in zip(index, shape))
        t = tiles.get(d)
        if t is None or tuple(t.shape) != want:
            raise PipelineError(f"device {d} should hold a {want} tile of {tuple(shape)}, "
                                f"the transfer left {None if t is None else tuple(t.shape)}")
        pieces.append(t)
    return jax.make_array_from_single_device_arrays(tuple(shape), sharding, pieces)

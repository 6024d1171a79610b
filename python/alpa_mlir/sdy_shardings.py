"""The shardings a sharded module gives its entry function's arguments and results.

Read from the module's Shardy attributes with jaxlib's MLIR bindings (``sdy.mesh`` ops and the
``sdy.sharding`` argument and result attributes), as plain data: the mesh (axis names, sizes,
device order) and, per tensor, the mesh axes each dimension is split over. No JAX sharding
objects here; :mod:`alpa_mlir.plan` builds those.
"""

from __future__ import annotations

from dataclasses import dataclass

# One tensor's sharding: for each dimension, the mesh axes it is split over (major first);
# an empty tuple leaves the dimension whole.
DimAxes = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class SdyMesh:
    axis_names: tuple[str, ...]
    axis_sizes: tuple[int, ...]
    # The device at each position of the mesh, row-major; iota when the mesh lists none.
    device_ids: tuple[int, ...]


@dataclass(frozen=True)
class EntryShardings:
    mesh: SdyMesh
    arguments: list[DimAxes]
    results: list[DimAxes]


def _mesh_from_attr(sdy, attr) -> SdyMesh:
    mesh = sdy.MeshAttr(attr)
    axes = [sdy.MeshAxisAttr(a) for a in mesh.axes]
    names = tuple(a.name for a in axes)
    sizes = tuple(int(a.size) for a in axes)
    count = 1
    for s in sizes:
        count *= s
    ids = tuple(int(i) for i in mesh.device_ids) or tuple(range(count))
    return SdyMesh(names, sizes, ids)


def _dim_axes(sdy, sharding, what: str) -> DimAxes:
    if list(sharding.unreduced_axes):
        raise ValueError(f"{what}: unreduced axes cannot be expressed as a NamedSharding")
    dims = []
    for dim in sharding.dimension_shardings:
        names = []
        for axis in sdy.DimensionShardingAttr(dim).axes:
            axis = sdy.AxisRefAttr(axis)
            if axis.sub_axis_info is not None:
                raise ValueError(f"{what}: sub-axis {axis} cannot be expressed as a NamedSharding")
            names.append(axis.name)
        dims.append(tuple(names))
    return tuple(dims)


def read_entry_shardings(text: str, entry: str = "main") -> EntryShardings:
    """The mesh and the argument and result shardings of function ``entry`` of a module that
    alpa-intra-op-shard annotated with ``format=sdy``. Raises ValueError when the entry is
    missing, a tensor has no sharding, or the shardings name more than one mesh."""
    from jax._src.interpreters import mlir as jmlir
    from jax._src.lib.mlir.dialects import sdy

    ir = jmlir.ir
    ctx = jmlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    with ctx:
        module = ir.Module.parse(text)
        meshes, func = {}, None
        for op in module.body.operations:
            op = op.operation
            name = ir.StringAttr(op.attributes["sym_name"]).value if "sym_name" in op.attributes else None
            if op.name == "sdy.mesh":
                meshes[name] = _mesh_from_attr(sdy, op.attributes["mesh"])
            elif op.name == "func.func" and name == entry:
                func = op
        if func is None:
            raise ValueError(f"the module has no function @{entry}")
        used: set = set()

        def read(key: str, count: int, what: str) -> list[DimAxes]:
            dicts = list(ir.ArrayAttr(func.attributes[key])) if key in func.attributes else []
            out = []
            for i in range(count):
                d = ir.DictAttr(dicts[i]) if i < len(dicts) else None
                if d is None or "sdy.sharding" not in d:
                    raise ValueError(f"{what} {i} of @{entry} has no sdy.sharding")
                sharding = sdy.TensorShardingAttr(d["sdy.sharding"])
                ref = sharding.mesh_or_ref
                if isinstance(ref, ir.FlatSymbolRefAttr):
                    mesh_name = ref.value
                    if mesh_name not in meshes:
                        raise ValueError(f"{what} {i} of @{entry} names no sdy.mesh @{mesh_name}")
                    used.add(meshes[mesh_name])
                else:
                    used.add(_mesh_from_attr(sdy, ref))
                out.append(_dim_axes(sdy, sharding, f"{what} {i} of @{entry}"))
            return out

        ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
        arguments = read("arg_attrs", len(ftype.inputs), "argument")
        results = read("res_attrs", len(ftype.results), "result")
    if len(used) != 1:
        raise ValueError(f"the shardings of @{entry} name {len(used)} meshes, expected one")
    return EntryShardings(used.pop(), arguments, results)

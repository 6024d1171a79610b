"""The jax/jaxlib versions the bridge supports, checked when the package is
imported (without importing JAX): the runner compiles with the CPU client's
``compile_and_load`` and reads StableHLO as jaxlib 0.10 prints it, neither of
which older releases have (jax 0.4.38 has no ``compile_and_load``).
``python/pyproject.toml`` declares the same range (a test keeps them equal)."""

from __future__ import annotations

import re

MINIMUM = (0, 10, 2)
BELOW = (0, 11, 0)
REQUIREMENT = "jax>=0.10.2,<0.11"  # and the same for jaxlib


def _parse(version: str) -> tuple[int, ...]:
    nums = re.findall(r"\d+", version.split("+")[0])[:3]
    return tuple(int(n) for n in nums) + (0,) * (3 - len(nums))


def unsupported_reason(package: str, version: str | None) -> str | None:
    """Why ``package`` at ``version`` (None: not installed) cannot be used, or None."""
    wanted = REQUIREMENT.replace("jax", package, 1)
    if version is None:
        return f"alpa_mlir needs {wanted}, but {package} is not installed"
    v = _parse(version)
    if not MINIMUM <= v < BELOW:
        return (f"alpa_mlir needs {wanted} (it compiles with the CPU client's compile_and_load "
                f"and reads jaxlib 0.10's StableHLO), but {package} {version} is installed: "
                f"pip install '{wanted}'")
    return None


def check_installed() -> None:
    from importlib import metadata

    for package in ("jax", "jaxlib"):
        try:
            version = metadata.version(package)
        except metadata.PackageNotFoundError:
            version = None
        reason = unsupported_reason(package, version)
        if reason:
            raise ImportError(reason)

"""The jax/jaxlib versions the bridge supports, checked when the package is
imported (without importing JAX): the runner compiles with the CPU client's
``compile_and_load`` and reads StableHLO as jaxlib 0.10 and 0.11 print it, neither
of which older releases have (jax 0.4.38 has no ``compile_and_load``). CI runs
0.10.2 (python/requirements.txt). The GPU images this project is timed on have
0.11.2: there every test passes but seven checks that XLA inserts exactly the
collectives the intra-op report predicts (MoE and GPT-tiny on 2x4 / 4x2), where
XLA 0.11 reshards one value by an all-gather where XLA 0.10, and the report,
use an all-to-all (README: "Modeled against measured stage latency").
``python/pyproject.toml`` declares the same range (a test keeps them equal)."""

from __future__ import annotations

import re

MINIMUM = (0, 10, 2)
BELOW = (0, 12, 0)
REQUIREMENT = "jax>=0.10.2,<0.12"  # and the same for jaxlib


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
                f"and reads jaxlib 0.10/0.11's StableHLO), but {package} {version} is installed: "
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

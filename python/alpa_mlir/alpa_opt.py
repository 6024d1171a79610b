"""Driving ``alpa-opt``: where the binary is, and the intra-op pass on a module file.

The binary is ``$ALPA_OPT`` when set, else ``alpa-opt`` on ``PATH``, else (in a checkout of
the repository) its ``target/release/alpa-opt``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Sequence

_CHECKOUT_BUILD = Path(__file__).resolve().parents[2] / "target" / "release" / "alpa-opt"


class AlpaOptError(RuntimeError):
    pass


def alpa_opt_path() -> Path:
    """``$ALPA_OPT`` (relative to the working directory when relative), else ``alpa-opt`` on
    ``PATH``, else the checkout's ``target/release/alpa-opt``. Not checked for existence."""
    env = os.environ.get("ALPA_OPT")
    if env:
        return Path(env).absolute()
    on_path = shutil.which("alpa-opt")
    return Path(on_path) if on_path else _CHECKOUT_BUILD


def shard_module(src: Path, mesh: str, fmt: str = "sdy", options: Sequence[str] = (),
                 workdir: Path | None = None, opt: Path | None = None,
                 retries: int = 3) -> tuple[str, dict, list[str]]:
    """Run ``alpa-opt --alpa-inline --alpa-intra-op-shard`` on ``src``; returns
    (annotated module text, report, the command). ``options`` are extra
    ``key=value`` pass options. Retries a few times when the binary is missing
    (it may be being rebuilt)."""
    opt = opt or alpa_opt_path()
    wd = Path(tempfile.mkdtemp(prefix="alpa-validate-")) if workdir is None else Path(workdir)
    out, rep = wd / "sharded.mlir", wd / "report.json"
    pass_opts = " ".join([f"mesh={mesh}", f"format={fmt}", *options, f"report={rep}"])
    cmd = [str(opt), str(src), "--alpa-inline", f"--alpa-intra-op-shard={pass_opts}",
           "-o", str(out)]
    for attempt in range(retries):
        if opt.exists():
            try:
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            except OSError:  # e.g. "text file busy" while being rebuilt
                r = None
            if r is not None and r.returncode == 0:
                break
            if r is not None and opt.exists():
                raise AlpaOptError(f"alpa-opt failed ({r.returncode}): {' '.join(cmd)}\n"
                                   f"{r.stderr[-4000:]}")
        time.sleep(5 * (attempt + 1))
    else:
        raise AlpaOptError(f"alpa-opt not found or not runnable at {opt} (set ALPA_OPT, put "
                           "alpa-opt on PATH, or run `cargo build --release` in the checkout)")
    return out.read_text(), json.loads(rep.read_text()), cmd


def binary_stamp(opt: Path | None = None) -> str:
    """mtime and size of alpa-opt (it may be rebuilt between runs)."""
    opt = opt or alpa_opt_path()
    try:
        st = opt.stat()
    except OSError:
        return "missing"
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(st.st_mtime)) + f" {st.st_size}B"

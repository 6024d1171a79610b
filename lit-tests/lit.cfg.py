# lit configuration for alpa-mlir's FileCheck tests.
import os

import lit.formats

config.name = "alpa-mlir"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")
config.excludes = ["inputs", "Inputs", "Output", "cmake-consumer"]

repo = os.path.dirname(config.test_source_root)
build = os.environ.get("ALPA_BUILD_DIR", os.path.join(repo, "target", "release"))
llvm_bin = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")

for tool in ("alpa-opt", "libalpa_mlir.so"):
    if not os.path.exists(os.path.join(build, tool)):
        lit_config.fatal(f"{tool} not found in {build}: run `cargo build --release` first")

config.environment["PATH"] = os.pathsep.join([build, llvm_bin, os.environ.get("PATH", "")])
config.substitutions.append(("%alpa_plugin", os.path.join(build, "libalpa_mlir.so")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "inputs")))

"""``python -m alpa_mlir.run``: the runner's command line (:mod:`alpa_mlir.runner`)."""

import sys

from .runner import main

if __name__ == "__main__":
    sys.exit(main())

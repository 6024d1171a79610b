"""``python -m alpa_mlir.validate``: the plan check's command line (:mod:`alpa_mlir.intra_check`)."""

import sys

from .intra_check import main

if __name__ == "__main__":
    sys.exit(main())

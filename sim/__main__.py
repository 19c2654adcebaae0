"""`python -m sim`: see sim.cli. Ctrl-C, even while the CLI loads, ends quietly with exit code 130."""

import sys

try:
    from sim.cli import main

    sys.exit(main())
except KeyboardInterrupt:
    sys.exit(130)

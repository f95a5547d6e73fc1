"""``python -m carcassonne``: the command line."""

import sys

from carcassonne.cli import main

if __name__ == "__main__":
    sys.exit(main())

"""``python -m sporax``: the ``sporax`` command."""
import sys

from sporax.cli import main

if __name__ == "__main__":
    sys.exit(main())

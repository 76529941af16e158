"""The ``__main__`` of processes that a ``sporax run`` script starts with spawn or forkserver.

Such a child re-imports the script as ``__mp_main__`` before it unpickles anything, and the
script imports ``mindspore``: the aliases must be in place first. ``sporax run`` names this module
as the script's ``__main__.__spec__``, so multiprocessing runs it in the child, which installs
the hook and then runs the script under ``__mp_main__`` (its ``if __name__ == "__main__"`` block
stays off, as with plain ``python``).
"""
import os
import runpy
import sys

from sporax.compat.hook import install
from sporax.core.process_setup import RUN_SCRIPT_VARIABLE

install()
if __name__ == "__mp_main__":
    _script = os.environ.get(RUN_SCRIPT_VARIABLE) or (sys.argv[0] if sys.argv else "")
    if _script:
        globals().update(runpy.run_path(_script, run_name="__mp_main__"))

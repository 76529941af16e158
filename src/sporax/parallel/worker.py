"""A launched worker: ``python -m sporax.parallel.worker SCRIPT [args...]`` (started by ``sporax launch``).

It first ties its life to the launcher's (Linux: the kernel sends SIGKILL when the launcher dies,
even by SIGKILL; if the launcher is already gone it exits), then runs SCRIPT as ``sporax run``
does, with MindSpore's import paths served by sporax.
"""
import os
import signal
import sys


def _die_with_the_launcher():
    launcher = os.getenv("SPORAX_LAUNCHER_PID")
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return  # not Linux: the launcher's SIGINT/SIGTERM handling still stops the workers
    if launcher is not None and os.getppid() != int(launcher):
        sys.exit("sporax worker: the launcher exited before this worker started; stopping.")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    _die_with_the_launcher()
    from sporax.cli import main as sporax_main

    return sporax_main(["run", *argv])


if __name__ == "__main__":
    sys.exit(main())

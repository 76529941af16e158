"""A launched worker: ``python -m sporax.parallel.worker SCRIPT [args...]`` (started by ``sporax launch``).

It first ties its life to the launcher's (Linux: the kernel sends SIGKILL when the launcher dies,
even by SIGKILL; if the launcher is already gone it exits), then runs SCRIPT as ``sporax run``
does, with MindSpore's import paths served by sporax. A script that fails (an uncaught exception,
``sys.exit(non-zero)``) ends the worker at once with that status, skipping the exit handlers: JAX's
distributed shutdown would otherwise wait for the peers, which wait for this worker.
"""
import os
import signal
import sys

from sporax.cli import main as sporax_main


def _die_with_the_launcher():
    launcher = os.getenv("SPORAX_LAUNCHER_PID")
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return  # not Linux: the launcher's SIGINT/SIGTERM handling still stops the workers
    if launcher is not None and os.getppid() != int(launcher):
        sys.exit("sporax worker: the launcher exited before this worker started; stopping.")


def _bind_cores():
    """Pin this process (and the threads it starts later) to the cores ``--bind_core`` gave it."""
    cores = os.getenv("SPORAX_BIND_CORES")
    if cores and hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {int(core) for core in cores.split(",")})
        except OSError as error:
            sys.exit(f"sporax worker: --bind_core could not bind this worker to cores {cores}: {error}")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    _die_with_the_launcher()
    _bind_cores()

    try:
        status = sporax_main(["run", *argv])
    except SystemExit as exit_request:
        status = exit_request.code
    if status not in (0, None):
        # A failed worker leaves at once: the normal exit would wait in JAX's distributed shutdown
        # barrier for peers that are themselves waiting for this worker in a collective.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status if isinstance(status, int) else 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

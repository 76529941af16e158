"""The launcher process (``python -m sporax launch``, ``sporax launch``, ``msrun``) without JAX.

The launcher only starts a job's workers and watches them; each worker imports sporax itself, and
``sporax.parallel.launch`` needs nothing but the standard library. ``sporax/__init__`` calls
:func:`run_if_launcher` before anything else: in a launcher process it runs the launch and exits, so
that process never imports JAX or the ``mindspore`` namespace (about 4 CPU s per launch). In any other
process it returns at once and ``import sporax`` goes on as usual.

Example:
    >>> launcher_arguments(["-m", "launch", "--worker_num=2", "train.py"])
    ('sporax launch', ['--worker_num=2', 'train.py'])
    >>> launcher_arguments(["/usr/bin/msrun", "--worker_num=2", "train.py"])
    ('msrun', ['--worker_num=2', 'train.py'])
    >>> launcher_arguments(["train.py", "launch"]) is None
    True
"""
import importlib.util
import os
import sys


def launcher_arguments(argv):
    """``(program name, launcher arguments)`` when ``argv`` (a ``sys.argv`` while sporax is imported) starts
    the launcher, else ``None``. Under ``python -m sporax`` the first element is ``"-m"`` at that time."""
    if not argv:
        return None
    command = os.path.splitext(os.path.basename(argv[0]))[0]
    if command == "msrun":
        return "msrun", list(argv[1:])
    if (argv[0] == "-m" or command == "sporax") and argv[1:2] == ["launch"]:
        return "sporax launch", list(argv[2:])
    return None


def run_if_launcher():
    """In a launcher process, run the launch and exit with its status; elsewhere return ``None``."""
    found = launcher_arguments(getattr(sys, "argv", None))
    if found is None:
        return
    # By its path: importing ``sporax.parallel.launch`` would run ``sporax.parallel``'s __init__ (JAX).
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "parallel", "launch.py")
    spec = importlib.util.spec_from_file_location("sporax.parallel.launch", path)
    launch = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(launch)
    program, arguments = found
    sys.exit(launch.launch(launch.parse_arguments(arguments, prog=program)))

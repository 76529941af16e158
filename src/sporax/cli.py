"""The ``sporax`` command: ``sporax run SCRIPT.py [args...]``, ``sporax launch`` (msrun), ``sporax info``.

Each subcommand is one ``_add_<name>(subparsers)`` function that declares its arguments and sets
``handler``; add a new one by writing another and listing it in ``SUBCOMMANDS``.
"""
import argparse
import atexit
import builtins
from importlib import metadata
import importlib.machinery
import io
import os
import runpy
import signal
import sys
import types
import zipfile

import jax
import jaxlib
import numpy

import sporax
from sporax.compat import install
from sporax.core import process_setup
from sporax.demo.run import add_arguments, run


def _run(options):
    """Install the MindSpore aliases and run the script as ``python SCRIPT [args...]`` would."""
    install()
    process_setup.mindspore_numpy_printing()
    return run_script(options.script, options.args)


def run_script(script, args):
    """Run a Python script file as ``__main__``, as the ``python`` command does; return the exit status.

    ``sys.argv`` is ``[script, *args]``, ``sys.path[0]`` the script's directory, ``__file__`` its
    absolute path. An uncaught exception prints its traceback (from the script's frames down,
    through ``sys.excepthook``) and gives status 1; ``SystemExit`` propagates unchanged.
    """
    path = os.path.abspath(script)
    if os.path.isdir(path) or os.path.isfile(path) and zipfile.is_zipfile(path):
        return _run_package_or_archive(script, path, args)
    try:
        with io.open_code(path) as file:
            source = file.read()
    except OSError as error:
        print(f"sporax run: can't open file {path!r}: [Errno {error.errno}] {error.strerror}",
              file=sys.stderr)
        return 2
    sys.argv[:] = [script, *args]
    sys.path[0:1] = [os.path.dirname(os.path.realpath(path))]
    # A fresh __main__ that stays in sys.modules, as for `python SCRIPT`: pickle and
    # multiprocessing find the script's classes and functions under __main__.
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__cached__ = None
    main.__builtins__ = builtins
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
    # python leaves __spec__ None for a script; naming sporax's mp_main module instead makes
    # spawn/forkserver children install the aliases before they re-import the script.
    main.__spec__ = importlib.machinery.ModuleSpec("sporax.compat.mp_main", None)
    process_setup.export_run_script(path)
    sys.modules["__main__"] = main
    code = None
    try:
        code = compile(source, path, "exec", dont_inherit=True)
        exec(code, main.__dict__)
    except SystemExit:
        raise
    except BaseException as error:  # noqa: B036 - reported exactly as the interpreter would
        return _report_uncaught(error, code)
    return 0


def _run_package_or_archive(script, path, args):
    """A directory or zip archive with a ``__main__.py``: runpy does what ``python PATH`` does."""
    sys.argv[:] = [script, *args]
    sys.path[0:1] = [path]
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit:
        raise
    except BaseException as error:  # noqa: B036
        return _report_uncaught(error, None)
    return 0


def _report_uncaught(error, code):
    """Print the traceback from the script's first frame on, and return the exit status."""
    traceback_ = error.__traceback__
    # Drop sporax's own frames, as python shows only the script's; an error before the
    # script ran (a SyntaxError from compile) keeps no frames, as python shows it.
    if code is not None:
        while traceback_ is not None and traceback_.tb_frame.f_code is not code:
            traceback_ = traceback_.tb_next
    else:
        while traceback_ is not None and _is_runner_frame(traceback_.tb_frame):
            traceback_ = traceback_.tb_next
    # The default hook prints error.__traceback__, so the trimmed one goes there too.
    error = error.with_traceback(traceback_)
    sys.excepthook(type(error), error, traceback_)
    if isinstance(error, KeyboardInterrupt):
        # python ends on an unhandled KeyboardInterrupt by dying of SIGINT, after cleanup.
        sys.stdout.flush()
        sys.stderr.flush()
        atexit._run_exitfuncs()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    return 1


def _is_runner_frame(frame):
    filename = frame.f_code.co_filename
    return filename == __file__ or os.path.basename(filename) == "runpy.py" \
        or filename.startswith("<frozen runpy")


def _add_run(subparsers):
    parser = subparsers.add_parser(
        "run", help="run a MindSpore script unchanged on sporax",
        description="Run SCRIPT as `python SCRIPT [args...]` would, with `import mindspore...` "
                    "served by sporax. Everything after SCRIPT is passed to it verbatim.")
    parser.add_argument("script", metavar="SCRIPT", help="the Python script to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, metavar="args",
                        help="arguments for the script (its sys.argv[1:])")
    parser.set_defaults(handler=_run)


def _info(options):
    """Print the versions sporax runs on and the devices JAX sees."""
    def version_of(distribution):
        try:
            return metadata.version(distribution)
        except metadata.PackageNotFoundError:
            return "not installed"

    print(f"sporax:      {sporax.__version__}")
    print(f"python:      {sys.version.split()[0]}")
    print(f"jax:         {jax.__version__}")
    print(f"jaxlib:      {jaxlib.__version__}")
    print(f"numpy:       {numpy.__version__}")
    print(f"pillow:      {version_of('pillow')}")
    print(f"safetensors: {version_of('safetensors')}")
    print(f"backend:     {jax.default_backend()}")
    devices = jax.devices()
    print(f"devices:     {len(devices)}")
    for device in devices:
        print(f"  {device.id}: {device.platform} {device.device_kind}")
    return 0


def _add_info(subparsers):
    parser = subparsers.add_parser("info", help="print versions, the JAX backend and devices")
    parser.set_defaults(handler=_info)


def _add_demo(subparsers):
    parser = subparsers.add_parser(
        "demo", help="train LeNet5 on handwritten digits (the quick-start job)",
        description="Write scikit-learn's handwritten digits as MNIST files, train LeNet5 with "
                    "Model.train in sink mode, print the test accuracy, save loss_curve.png and "
                    "the checkpoint.")
    add_arguments(parser)
    parser.set_defaults(handler=run)


def _add_launch(subparsers):
    from sporax.parallel.launch import add_arguments, launch

    parser = subparsers.add_parser(
        "launch", help="start a distributed job's workers (msrun's flags)",
        description="Start --local_worker_num workers of a --worker_num job running SCRIPT under sporax, "
                    "with logs worker_<rank>.log in --log_dir; a failing worker stops the job.")
    add_arguments(parser)
    parser.set_defaults(handler=launch)


SUBCOMMANDS = (_add_run, _add_info, _add_demo, _add_launch)


def build_parser():
    """The argument parser of the ``sporax`` command, one subparser per entry of SUBCOMMANDS."""
    parser = argparse.ArgumentParser(
        prog="sporax", description="MindSpore's programming model on JAX/XLA.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add_subcommand in SUBCOMMANDS:
        add_subcommand(subparsers)
    return parser


def _split_run_arguments(argv):
    """``run``'s own options, SCRIPT, then the script's arguments verbatim (``--`` included)."""
    rest = argv[1:]
    index = 0
    while index < len(rest) and rest[index].startswith("-") and rest[index] != "-":
        index += 1
    return ["run", *rest[:index + 1]], rest[index + 1:]


def main(argv=None):
    """Entry point of the ``sporax`` command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    script_args = None
    if argv and argv[0] == "run":
        # argparse would eat a `--` or options meant for the script: split by hand.
        argv, script_args = _split_run_arguments(argv)
    options = parser.parse_args(argv)
    if script_args is not None:
        options.args = script_args
    handler = getattr(options, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    return handler(options)

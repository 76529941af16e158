"""sporax's oneDNN kernels for XLA:CPU: compiling, loading and registering their FFI handlers.

Contract: ``library()`` is the ``ctypes`` library compiled from ``SOURCES`` (C++ files beside this
module, with ``onednn_common.h``) against Intel's ``onednn-cpu-gomp`` and ``onednn-devel-cpu-gomp``
wheels (oneDNN 3.x) and jaxlib's FFI headers, with every handler of ``TARGETS`` registered as an
XLA:CPU FFI target; it is ``None`` where that cannot be done here (not Linux on x86-64, a wheel or
the C++ compiler missing, the build failing: ``unavailable_reason()`` says which) or where
``SPORAX_ONEDNN=off`` (or 0/false/no) asks for the XLA forms, and callers then keep those. The
kernels are one library so that they share one lock (two oneDNN calls never run side by side).
The library also holds the optimizer updates' handlers (``momentum_update.cc``, ``sgd_update.cc``,
``adam_update.cc``, no oneDNN in them: ``momentum_cpu.py``, ``sgd_cpu.py``, ``adam_cpu.py``), so that they share the one build. It is built once per machine into ``~/.cache/sporax/kernels`` (``native_build``: the file name
carries a hash of the sources, the headers and the command, which names jaxlib's version) and
loaded once per process.

Threads: oneDNN runs on OpenMP (GNU libgomp), whose threads otherwise sleep between a kernel's
many short parallel regions; inside an XLA program that made the LSTM kernel 2.5x slower than
alone. ``OMP_WAIT_POLICY=active`` with a bounded ``GOMP_SPINCOUNT`` (a worker spins that many
rounds after a region, then sleeps, so the rest of the XLA program gets the cores back) is set
(``process_setup.set_openmp_defaults``) before libgomp loads, unless the user set either; a process that loaded libgomp earlier keeps its
own settings.
"""
import concurrent.futures
import ctypes
import functools
import importlib.metadata
import logging
import os
import platform
import sys

import jax
from jaxlib import version as jaxlib_version

from sporax.core import process_setup
from sporax.ops import native_build

_HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = ("lstm_onednn.cc", "conv_onednn.cc", "momentum_update.cc", "sgd_update.cc",
           "adam_update.cc")
TARGETS = {  # XLA FFI target name -> the library's handler symbol
    "sporax_onednn_lstm_forward": "SporaxLstmForward", "sporax_onednn_lstm_backward": "SporaxLstmBackward",
    "sporax_onednn_conv_forward": "SporaxConvForward",
    "sporax_onednn_conv_backward": "SporaxConvBackward",
    # Optimizer updates (no oneDNN): built here to share the one build.
    "sporax_momentum_update": "SporaxMomentumUpdate", "sporax_sgd_update": "SporaxSgdUpdate",
    "sporax_adam_update": "SporaxAdamUpdate", "sporax_adam_weight_decay_update": "SporaxAdamWeightDecayUpdate",
}
_logger = logging.getLogger("sporax")


def switched_off():
    """Whether ``SPORAX_ONEDNN`` asks for XLA's forms instead of the kernels."""
    return os.environ.get("SPORAX_ONEDNN", "").strip().lower() in ("0", "off", "false", "no")


def _wheel_file(distribution, suffix):
    """The installed file of ``distribution`` whose path ends with ``suffix``."""
    found = importlib.metadata.distribution(distribution)
    for path in found.files or ():
        if str(path).endswith(suffix):
            return os.path.realpath(found.locate_file(path))
    raise FileNotFoundError(f"{distribution} has no file ending in {suffix!r}")


def _build():
    library_file = _wheel_file("onednn-cpu-gomp", "libdnnl.so.3")
    header = _wheel_file("onednn-devel-cpu-gomp", os.path.join("oneapi", "dnnl", "dnnl.hpp"))
    include = os.path.dirname(os.path.dirname(os.path.dirname(header)))
    owner = "sporax's oneDNN kernels"
    sources = [os.path.join(_HERE, source) for source in SOURCES]
    # jaxlib's version is in the command (so in the file's hash): its FFI headers may change.
    # -fopenmp: momentum_update.cc splits a large update over two threads (the same libgomp as oneDNN's)
    # The sources compile side by side, one object each (native_build's units), then link into one library.
    command = ([native_build.find_compiler(owner), "-O2", "-std=c++17", "-shared", "-fPIC", "-fopenmp"]
               + [f"-I{_HERE}", f"-I{jax.ffi.include_dir()}", f"-I{include}", library_file,
                  f"-Wl,-rpath,{os.path.dirname(library_file)}",
                  f"-DSPORAX_JAXLIB_VERSION={jaxlib_version.__version__}"])
    folder = os.path.join(os.path.dirname(process_setup.home_cache_folder()), "kernels")
    path = native_build.build_library(owner, "onednn_kernels", command,
                                      sources + [os.path.join(_HERE, "onednn_common.h"), header], folder,
                                      units=sources)
    process_setup.set_openmp_defaults()
    library = ctypes.CDLL(path)
    library.SporaxOnednnStop.restype = None
    # A kernel still running when the process exits crashed the C++ teardown (process_setup, item 9).
    process_setup.finish_programs_at_exit(library.SporaxOnednnStop)
    library.SporaxLstmWorkspaceBytes.restype = ctypes.c_int64
    library.SporaxLstmWorkspaceBytes.argtypes = [ctypes.c_int64] * 4
    library.SporaxConvPrepare.restype = ctypes.c_int64
    library.SporaxConvPrepare.argtypes = [ctypes.POINTER(ctypes.c_int64), ctypes.c_int64]
    for target, symbol in TARGETS.items():
        jax.ffi.register_ffi_target(target, jax.ffi.pycapsule(getattr(library, symbol)), platform="cpu")
    return library


@functools.lru_cache(maxsize=1)
def _load():
    """``(library, None)``, or ``(None, why not)``."""
    if sys.platform != "linux" or platform.machine() not in ("x86_64", "AMD64"):
        return None, f"oneDNN's wheels are for Linux on x86-64, not {sys.platform}/{platform.machine()}"
    try:
        return _build(), None
    except (OSError, RuntimeError, AttributeError, importlib.metadata.PackageNotFoundError) as error:
        _logger.info("sporax's oneDNN kernels are not used (%s); XLA's forms run instead.", error)
        return None, f"{type(error).__name__}: {error}"


def library():
    """The kernels' library, or ``None`` (see the module's contract); built on the first call."""
    return None if switched_off() else _load()[0]


def unavailable_reason():
    """Why ``library()`` is ``None`` (``None`` when it is not)."""
    return "SPORAX_ONEDNN switches it off" if switched_off() else _load()[1]


@functools.lru_cache(maxsize=1)
def _preparer():
    # One thread: preparations run one after the other, never two oneDNN primitive creations side by side.
    return concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="sporax-onednn-prepare")


def in_background(function, *arguments):
    """``function(*arguments)`` on sporax's oneDNN preparation thread, returning at once (a ``Future``).

    For work a kernel's first call would otherwise do (its primitives made, its scratchpad sized) that can be
    done as soon as the call's shapes are known, while the main thread goes on tracing and XLA compiles: a
    ``ctypes`` call releases the GIL, so the work takes the core the serial trace leaves idle.
    """
    return _preparer().submit(function, *arguments)


def with_reference_derivatives(kernel, reference):
    """``kernel`` (FFI calls, which JAX cannot differentiate), differentiated in reverse mode, to any
    order, as ``reference`` (the same function written in JAX) is."""
    function = jax.custom_vjp(kernel)
    function.defvjp(lambda *args: (kernel(*args), args),
                    lambda args, cotangents: jax.vjp(reference, *args)[1](cotangents))
    return function

"""sporax's oneDNN kernels for XLA:CPU: compiling, loading and registering their FFI handlers.

Contract: ``load(source, handlers)`` returns ``(library, None)``: the ``ctypes`` library compiled
from ``source`` (a C++ file beside this module) against Intel's ``onednn-cpu-gomp`` and
``onednn-devel-cpu-gomp`` wheels (oneDNN 3.x) and jaxlib's FFI headers, with each
``(target, symbol)`` of ``handlers`` registered as an XLA:CPU FFI target; or ``(None, reason)``
where that cannot be done here (not Linux on x86-64, a wheel or the C++ compiler missing, the
build failing), and the caller keeps its XLA form. The library is built once per machine into
``~/.cache/sporax/kernels`` (``native_build``: the file name carries a hash of the source, the
oneDNN header and the command, which names jaxlib's version) and loaded once per process.
``switched_off()``: ``SPORAX_ONEDNN=off`` (or 0/false/no) asks for the XLA forms everywhere.

Threads: oneDNN runs on OpenMP (GNU libgomp), whose threads otherwise sleep between a kernel's
many short parallel regions; inside an XLA program that made the LSTM kernel 2.5x slower than
alone. ``OMP_WAIT_POLICY=active`` with a bounded ``GOMP_SPINCOUNT`` (a worker spins that many
rounds after a region, then sleeps, so the rest of the XLA program gets the cores back) is set
before libgomp loads, unless the user set either; a process that loaded libgomp earlier keeps its
own settings.
"""
import ctypes
import functools
import importlib.metadata
import logging
import os
import platform
import sys

import jax
from jaxlib import version as jaxlib_version

from sporax.core import compile_cache
from sporax.ops import native_build

_HERE = os.path.dirname(os.path.abspath(__file__))
_OPENMP_SETTINGS = {"OMP_WAIT_POLICY": "active", "GOMP_SPINCOUNT": "200000"}
_logger = logging.getLogger("sporax")


def switched_off():
    """Whether ``SPORAX_ONEDNN`` asks for XLA's forms instead of the oneDNN kernels."""
    return os.environ.get("SPORAX_ONEDNN", "").strip().lower() in ("0", "off", "false", "no")


def _wheel_file(distribution, suffix):
    """The installed file of ``distribution`` whose path ends with ``suffix``."""
    found = importlib.metadata.distribution(distribution)
    for path in found.files or ():
        if str(path).endswith(suffix):
            return os.path.realpath(found.locate_file(path))
    raise FileNotFoundError(f"{distribution} has no file ending in {suffix!r}")


def _build(source, handlers):
    library_file = _wheel_file("onednn-cpu-gomp", "libdnnl.so.3")
    header = _wheel_file("onednn-devel-cpu-gomp", os.path.join("oneapi", "dnnl", "dnnl.hpp"))
    include = os.path.dirname(os.path.dirname(os.path.dirname(header)))
    owner = f"oneDNN kernel {source}"
    source_path = os.path.join(_HERE, source)
    # jaxlib's version is in the command (so in the file's hash): its FFI headers may change.
    command = [native_build.find_compiler(owner), "-O2", "-std=c++17", "-shared", "-fPIC", source_path,
               f"-I{jax.ffi.include_dir()}", f"-I{include}", library_file,
               f"-Wl,-rpath,{os.path.dirname(library_file)}", f"-DSPORAX_JAXLIB_VERSION={jaxlib_version.__version__}"]
    folder = os.path.join(os.path.dirname(compile_cache.home_folder()), "kernels")
    path = native_build.build_library(owner, os.path.splitext(source)[0], command, [source_path, header], folder)
    for name, value in _OPENMP_SETTINGS.items():
        os.environ.setdefault(name, value)
    library = ctypes.CDLL(path)
    for target, symbol in handlers:
        jax.ffi.register_ffi_target(target, jax.ffi.pycapsule(getattr(library, symbol)), platform="cpu")
    return library


@functools.lru_cache(maxsize=None)
def load(source, handlers):
    """``(library, None)``, or ``(None, why not)`` (see the module's contract)."""
    if sys.platform != "linux" or platform.machine() not in ("x86_64", "AMD64"):
        return None, f"oneDNN's wheels are for Linux on x86-64, not {sys.platform}/{platform.machine()}"
    try:
        return _build(source, handlers), None
    except (OSError, RuntimeError, AttributeError, importlib.metadata.PackageNotFoundError) as error:
        _logger.info("oneDNN kernel %s is not used (%s); XLA's form runs instead.", source, error)
        return None, f"{type(error).__name__}: {error}"

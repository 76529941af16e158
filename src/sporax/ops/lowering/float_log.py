"""The C library's ``logf`` over a NumPy float32 array, compiled once per machine (``float_log.cc``).

Contract: ``array_logf()`` is a function ``logf(values) -> float32 array`` calling the C library's ``logf`` per
element from C, or ``None`` where it cannot be built here (no C++ compiler, a failed build: ``core.seeded_streams``
then calls ``logf`` per element through ``ctypes``). Built into ``~/.cache/sporax/kernels`` by ``native_build``
(reused while the source and command are unchanged) at the first large seeded normal draw, not at import.

Example:
    >>> import numpy as np
    >>> from sporax.ops.lowering import float_log
    >>> logf = float_log.array_logf()
    >>> logf is None or logf(np.array([1.0, 4.0], np.float32)).tolist() == [0.0, 1.3862943649291992]
    True
"""
import ctypes
import functools
import logging
import os

import numpy as np

from sporax.core import process_setup
from sporax.ops import native_build

_HERE = os.path.dirname(os.path.abspath(__file__))
_logger = logging.getLogger("sporax")


@functools.cache
def array_logf():
    """``logf(values)`` over a float32 array in C, or None (see the module's contract)."""
    owner = "sporax's float log"
    source = os.path.join(_HERE, "float_log.cc")
    try:
        command = [native_build.find_compiler(owner), "-O2", "-std=c++17", "-shared", "-fPIC", source]
        folder = os.path.join(os.path.dirname(process_setup.home_cache_folder()), "kernels")
        library = ctypes.CDLL(native_build.build_library(owner, "float_log", command, [source], folder))
    except (OSError, RuntimeError) as error:
        _logger.info("%s is not used (%s): logf runs per element through ctypes.", owner, error)
        return None
    function = library.SporaxFloatLog
    pointer = ctypes.POINTER(ctypes.c_float)
    function.restype, function.argtypes = None, [pointer, pointer, ctypes.c_int64]

    def logf(values):
        values = np.ascontiguousarray(values, np.float32)
        out = np.empty_like(values)
        function(values.ctypes.data_as(pointer), out.ctypes.data_as(pointer), values.size)
        return out
    return logf

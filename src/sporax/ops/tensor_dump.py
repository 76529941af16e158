"""``ops.TensorDump`` / ``ops.tensordump``: save a Tensor's value as a ``.npy`` file (debugging).

As in MindSpore 2.10, each dump is written to ``{file}_{dtype}_{n}.npy`` (a trailing ``.npy`` in
``file`` is dropped; ``n`` counts the dumps of the process), e.g. ``a_float32_0.npy``. Inside a
compiled program (``ms.jit``, GRAPH_MODE, a gradient) the file is written by a host callback
(``jax.debug.callback``) each time the program runs, with the run-time value.
"""
import itertools
import os
import threading

import jax
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops.primitive import Primitive

_counter = itertools.count()
_lock = threading.Lock()
_MODES = ("out", "in", "all")


def _write(stem, value):
    array = np.asarray(value)
    with _lock:
        index = next(_counter)
    np.save(f"{stem}_{array.dtype.name}_{index}.npy", array)


def tensordump(file_name, tensor, mode="out"):
    """Save ``tensor`` to ``{file_name}_{dtype}_{n}.npy``.

    Args:
        file_name (str): the path and name prefix of the file.
        tensor (Tensor): the value to save.
        mode (str): 'out', 'in' or 'all' (which side of an operator to dump; sporax dumps the value). Default: 'out'.
    """
    if not isinstance(file_name, str) or not file_name:
        raise TypeError(f"For 'tensordump', the argument 'file_name' must be a non-empty str, but got {file_name!r}.")
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For 'tensordump', the argument 'tensor' must be a Tensor, but got {type(tensor).__name__}.")
    if mode not in _MODES:
        raise ValueError(f"For 'tensordump', the argument 'mode' must be one of {_MODES}, but got {mode!r}.")
    stem = file_name[:-4] if file_name.endswith(".npy") else file_name
    directory = os.path.dirname(stem)
    if directory and not os.path.isdir(directory):
        raise ValueError(f"For 'tensordump', the directory {directory!r} of 'file_name' does not exist.")
    on_host(tensor, lambda array: _write(stem, array))


def on_host(tensor, callback):
    """``callback(array)`` with the value of ``tensor``: now in PyNative, each time a compiled program
    runs inside one (a ``jax.debug.callback``, so it sees the run-time value, not the traced one)."""
    value = tensor._value
    if isinstance(value, jax.core.Tracer):
        jax.debug.callback(callback, value)
    else:
        callback(value)


class TensorDump(Primitive):
    """Save a Tensor as a ``.npy`` file: ``TensorDump()(file, input_x)`` (see ``tensordump``).

    Args:
        input_output (str): 'out', 'in' or 'all'. Default: 'out'.

    Inputs:
        - **file** (str) -- the path and name prefix of the file.
        - **input_x** (Tensor) -- the value to save.

    Outputs:
        None.
    """

    def __init__(self, input_output="out"):
        super().__init__("TensorDump")
        if input_output not in _MODES:
            raise ValueError(f"For 'TensorDump', the argument 'input_output' must be one of {_MODES}, but got "
                             f"{input_output!r}.")
        self.input_output = input_output
        self.add_prim_attr("input_output", input_output)

    def __call__(self, file, input_x):
        tensordump(file, input_x, self.input_output)

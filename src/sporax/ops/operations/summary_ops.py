"""Summary operators: ``ScalarSummary``, ``TensorSummary``, ``ImageSummary``, ``HistogramSummary``.

Each call hands ``(tag, value)`` to a process-wide buffer that the next ``SummaryRecord.record``
collects (and empties), as MindSpore's summary operators feed its summary writer. Inside a compiled
program (``ms.jit``, GRAPH_MODE, a gradient) the value reaches the buffer through a host callback
(``jax.debug.callback``) each time the program runs, so the recorded value is the run-time one.
A tag written twice before a record keeps its latest value. As in MindSpore, the value's shape is
checked when it is recorded (a scalar has one element, images are 4-D).

Example:
    >>> import sporax as ms
    >>> from sporax import ops
    >>> ops.ScalarSummary()("loss", ms.Tensor(0.25))
"""
import threading

import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops.primitive import Primitive
from sporax.ops.tensor_dump import on_host

_lock = threading.Lock()
_buffer = {}


def _store(key, array):
    with _lock:
        _buffer.pop(key, None)
        _buffer[key] = np.asarray(array)


def take_summary_data():
    """``{(plugin, tag): numpy value}`` of the summary operators since the last call, in call order."""
    with _lock:
        data = dict(_buffer)
        _buffer.clear()
    return data


class _Summary(Primitive):
    _plugin = None

    def __init__(self):
        super().__init__(type(self).__name__)

    def __call__(self, name, value):
        op = type(self).__name__
        if not isinstance(name, str) or not name:
            raise TypeError(f"For '{op}', the 'name' must be a non-empty str, but got {name!r}.")
        if not isinstance(value, Tensor):
            raise TypeError(f"For '{op}', the 'value' must be a Tensor, but got {type(value).__name__}.")
        key = (self._plugin, name)
        on_host(value, lambda array: _store(key, array))


class ScalarSummary(_Summary):
    """Record a scalar Tensor under a tag for ``SummaryRecord``.

    Inputs:
        - **name** (str) -- the tag.
        - **value** (Tensor) -- a scalar (0-D or one element).

    Outputs:
        None.
    """

    _plugin = "scalar"


class TensorSummary(_Summary):
    """Record a Tensor under a tag for ``SummaryRecord``.

    Inputs:
        - **name** (str) -- the tag.
        - **value** (Tensor) -- any Tensor.

    Outputs:
        None.
    """

    _plugin = "tensor"


class ImageSummary(_Summary):
    """Record a batch of images (N, C, H, W with C 1 or 3) under a tag for ``SummaryRecord``.

    Inputs:
        - **name** (str) -- the tag.
        - **value** (Tensor) -- (N, C, H, W) images.

    Outputs:
        None.
    """

    _plugin = "image"


class HistogramSummary(_Summary):
    """Record the histogram of a Tensor's values under a tag for ``SummaryRecord``.

    Inputs:
        - **name** (str) -- the tag.
        - **value** (Tensor) -- any numeric Tensor.

    Outputs:
        None.
    """

    _plugin = "histogram"

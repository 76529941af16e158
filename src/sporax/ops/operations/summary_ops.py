"""Summary operators: ``ScalarSummary``, ``TensorSummary``, ``ImageSummary``, ``HistogramSummary``.

Each call hands ``(tag, value)`` to a process-wide buffer that the next ``SummaryRecord.record``
collects (and empties), as MindSpore's summary operators feed its summary writer. Inside a compiled
program (``ms.jit``, GRAPH_MODE, a gradient) the value reaches the buffer through a host callback
(``jax.debug.callback``) each time the program runs, so the recorded value is the run-time one.
A tag written twice before a record keeps its latest value. As in MindSpore, the value's shape is
checked when it is recorded (a scalar has one element, images are 4-D).

Values produced by a GRAPH_MODE program can also be read (and taken) by ``take_graph_summary_data``,
MindSpore's ``summary_record._get_summary_tensor_data``: MindSpore 2.10 only fills that cache from
graphs it compiles in GRAPH_MODE, not in PyNative (``ms.jit`` there included).

Example:
    >>> import sporax as ms
    >>> from sporax import ops
    >>> ops.ScalarSummary()("loss", ms.Tensor(0.25))
"""
import threading

import jax
import numpy as np

from sporax.core import context
from sporax.core.tensor import Tensor
from sporax.ops.primitive import Primitive
from sporax.ops.tensor_dump import on_host

_lock = threading.Lock()
_buffer = {}  # (plugin, tag) -> numpy value
_from_graph = set()  # the keys of _buffer whose latest value came from a GRAPH_MODE program
# The type suffix of MindSpore's summary cache names: ``loss[:Scalar]``.
_CACHE_SUFFIX = {"scalar": "Scalar", "tensor": "Tensor", "image": "Image", "histogram": "Histogram"}


def _store(key, array, from_graph=False):
    with _lock:
        _buffer.pop(key, None)
        _buffer[key] = np.asarray(array)
        if from_graph:
            _from_graph.add(key)
        else:
            _from_graph.discard(key)


def take_summary_data():
    """``{(plugin, tag): numpy value}`` of the summary operators since the last call, in call order."""
    with _lock:
        data = dict(_buffer)
        _buffer.clear()
        _from_graph.clear()
    return data


def take_graph_summary_data():
    """``{"tag[:Type]": Tensor}`` of the values GRAPH_MODE programs produced since the last take, in call
    order; they are taken out of the buffer (a later ``SummaryRecord.record`` no longer sees them), as
    MindSpore's ``_get_summary_tensor_data`` empties the cache its summary writer also reads."""
    with _lock:
        data = {}
        for plugin, tag in [key for key in _buffer if key in _from_graph]:
            data[f"{tag}[:{_CACHE_SUFFIX[plugin]}]"] = Tensor(_buffer.pop((plugin, tag)))
        _from_graph.clear()
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
        from_graph = context.get_context("mode") == context.GRAPH_MODE and isinstance(value._value, jax.core.Tracer)
        on_host(value, lambda array: _store(key, array, from_graph))


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

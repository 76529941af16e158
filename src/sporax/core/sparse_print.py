"""How sparse tensors print, exactly as MindSpore 2.x prints them.

``repr`` and ``str`` of a ``COOTensor``, ``CSRTensor`` or ``RowTensor`` are the same text:
``COOTensor(shape=[3, 4], dtype=Float32, indices=Tensor(...), values=Tensor(...))``. The
component tensors inside use MindSpore's element formats (those of ``repr(Tensor)``) but a
space-separated, comma-free layout, and a component of 30 or more elements prints ``[...]``.
"""
import jax
import numpy as np

from sporax.core.tensor_print import _element_formatter, _nested, _per_line, _summary_view

_ELIDED_SIZE = 30  # a component with at least this many elements prints as ``[...]``


def component_repr(tensor):
    """``Tensor(shape=[...], dtype=..., value=...)`` as it appears inside a sparse tensor's repr."""
    shape = ", ".join(str(dim) for dim in tensor.shape)
    header = f"Tensor(shape=[{shape}], dtype={tensor.dtype}, value="
    array = tensor._value
    if isinstance(array, jax.core.Tracer):
        return header + "<traced: the value exists only when the compiled function runs>)"
    values = np.asarray(array)
    if values.size >= _ELIDED_SIZE:
        return header + "[...])"
    if values.ndim == 0:
        return header + str(values.item()) + ")"
    if values.size == 0:
        return header + ("" if values.ndim == 1 else "\n") + ")"
    shown, summarised = _summary_view(values)
    format_element = _element_formatter(values.dtype, shown)
    body = _nested(shown, summarised, values.shape, format_element, _per_line(values.dtype), separator=" ")
    return header + ("" if values.ndim == 1 else "\n") + body + ")"


def sparse_repr(class_name, shape, dtype, components):
    """``Name(shape=[..], dtype=.., name=Tensor(..), ...)`` for ``components`` ``[(name, tensor)]``."""
    dims = ", ".join(str(dim) for dim in shape)
    parts = ", ".join(f"{name}={component_repr(tensor)}" for name, tensor in components)
    return f"{class_name}(shape=[{dims}], dtype={dtype}, {parts})"

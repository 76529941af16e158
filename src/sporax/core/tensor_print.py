"""How Tensors print, exactly as MindSpore 2.x prints them.

``str(t)`` (and ``print(t)``) shows the values as NumPy does (``[5. 7. 9.]``); ``repr(t)`` shows
``Tensor(shape=[3], dtype=Float32, value= [ 5.00000000e+00, ...])`` with MindSpore's fixed
per-dtype element formats. Tensors of more than 1000 elements are summarised to their first and
last three entries along each long axis. A lazily initialised tensor prints ``<uninitialized>``.
A tensor made straight from a NumPy buffer (``Tensor.from_numpy``, dataset iterators) keeps
NumPy's layout in ``repr`` (``value= [0. , 1.5]``) until it is replaced, as MindSpore's do.
Importing this module installs ``__str__``, ``__repr__`` and ``__format__`` on ``Tensor``.
"""
import weakref

import ml_dtypes
import numpy as np

from sporax.core import context
from sporax.core.host_buffer import buffer_of, current_array
from sporax.core.tensor import Tensor, concrete

_THRESHOLD = 1000  # more elements than this are summarised (NumPy's default, as MindSpore)
_EDGE_ITEMS = 3


# id(tensor) -> (the array it was made with, a weak reference dropping the entry with the tensor)
_numpy_backed = {}


def numpy_backed(values):
    """A Tensor of NumPy ``values`` whose ``repr`` uses NumPy's layout (see module docstring)."""
    return keep_numpy_layout(Tensor(values))


def keep_numpy_layout(tensor):
    """Have ``tensor``, just made from a NumPy buffer, print in NumPy's layout until it is replaced; returns it."""
    key = id(tensor)
    _numpy_backed[key] = (tensor._array, weakref.ref(tensor, lambda _, key=key: _numpy_backed.pop(key, None)))
    return tensor


def _numpy_layout(tensor):
    """True while ``tensor`` still holds the array it was made with from a NumPy buffer (or still shares one)."""
    entry = _numpy_backed.get(id(tensor))
    return entry is not None and (entry[0] is tensor._array or buffer_of(tensor) is not None)


def _header(tensor):
    shape = ", ".join(str(dim) for dim in tensor.shape)
    return f"Tensor(shape=[{shape}], dtype={tensor.dtype}, value="


def _is_tracer(array):
    """True for a value that is being compiled and has no numbers yet."""
    return concrete(array) is None


def _general(value):
    """C's ``%g``: six significant digits."""
    return "%g" % value


def _complex(value):
    return f"{value.real:g}{value.imag:+g}j"


def _element_formatter(np_dtype, shown):
    """A function formatting one element of ``repr``; ``shown`` are the elements that will print."""
    if np_dtype == np.bool_:
        return lambda value: str(bool(value)).rjust(5)
    if np_dtype.kind in "iu":
        width = max((len(str(int(v))) for v in shown.reshape(-1)), default=0)
        return lambda value: str(int(value)).rjust(width)
    if np_dtype.kind == "c":
        return _complex
    if np_dtype == np.float16:
        return lambda value: ("%.4e" % float(value)).rjust(11)
    if np_dtype in (np.float32, np.float64):
        return lambda value: ("%.8e" % float(value)).rjust(15)
    # bfloat16 and the float8 types: %g, right-aligned to the widest shown element.
    width = max((len(_general(float(v))) for v in shown.reshape(-1)), default=0)
    return lambda value: _general(float(value)).rjust(width)


def _summary_view(array):
    """The elements ``repr`` shows: a 1-D tensor is cut only past 1000 elements, a higher one on
    every axis longer than six (MindSpore's rule); a cut axis keeps its first and last three."""
    summarised = array.size > _THRESHOLD if array.ndim == 1 else True
    if not summarised:
        return array, False
    view = array
    for axis, length in enumerate(array.shape):
        if length > 2 * _EDGE_ITEMS:
            index = np.r_[0:_EDGE_ITEMS, length - _EDGE_ITEMS:length]
            view = np.take(view, index, axis=axis)
    return view, True


def _per_line(np_dtype):
    """How many elements of a 1-D tensor MindSpore writes on one line before wrapping."""
    return 24 if np_dtype.kind in "iuc" or np_dtype == ml_dtypes.bfloat16 else 12


def _row(items, per_line, separator=", "):
    """A 1-D row: ``separator``-separated, wrapped after every ``per_line`` elements as MindSpore does."""
    pieces = []
    last = len(items) - 1
    for index, item in enumerate(items):
        pieces.append(item)
        if (index + 1) % per_line == 0:
            pieces.append("\n " if index == last else separator + "\n ")
        elif index != last:
            pieces.append(separator)
    return "".join(pieces)


def _nested(array, summarised, full_shape, format_element, per_line, depth=0, separator=", "):
    """MindSpore's nested layout: ``[a, b ... y, z]`` rows joined by ``,\\n`` and indented (a sparse
    tensor's components use ``separator=" "``: no commas)."""
    cut = summarised and full_shape[depth] > 2 * _EDGE_ITEMS
    if array.ndim == 1:
        items = [format_element(value) for value in array]
        if cut:
            return ("[" + separator.join(items[:_EDGE_ITEMS]) + " ... " + separator.join(items[_EDGE_ITEMS:])
                    + "]")
        return "[" + _row(items, per_line, separator) + "]"
    indent = " " * (depth + 1)
    joiner = separator.rstrip() + "\n" + indent
    blocks = [_nested(sub, summarised, full_shape, format_element, per_line, depth + 1, separator) for sub in array]
    if cut:
        head = joiner.join(blocks[:_EDGE_ITEMS])
        tail = joiner.join(blocks[_EDGE_ITEMS:])
        return "[" + head + joiner + "...\n" + indent + tail + "]"
    return "[" + joiner.join(blocks) + "]"


def _uninitialized(tensor):
    """A tensor made with ``init`` that has no values yet; as MindSpore 2.10, on its own line from rank 2 on."""
    return _header(tensor) + ("\n" if len(tensor.shape) > 1 else "") + "<uninitialized>)"


def tensor_repr(tensor):
    """``repr(tensor)`` as MindSpore writes it."""
    header = _header(tensor)
    array = current_array(tensor)
    if array is None:
        # A dynamic-shape placeholder (``Tensor(shape=[3, None])``) has no value at all: MindSpore prints none.
        return header + "\n)" if -1 in tensor.shape else _uninitialized(tensor)
    if _is_tracer(array):
        return header + " <traced: the value exists only when the compiled function runs>)"
    values = np.asarray(concrete(array))
    if _numpy_layout(tensor):
        body = np.array2string(values, separator=", ")
        return header + ("\n" if values.ndim > 1 else " ") + body + ")"
    if values.ndim == 0:
        scalar = values.item()
        if values.dtype.kind == "c":
            text = _complex(scalar)
        elif values.dtype.kind == "f" or values.dtype in (ml_dtypes.bfloat16,):
            text = _general(float(scalar))
        else:
            text = str(scalar)
        return header + " " + text + ")"
    if values.size == 0:
        return header + (" )" if values.ndim == 1 else "\n)")
    shown, summarised = _summary_view(values)
    format_element = _element_formatter(values.dtype, shown)
    body = _nested(shown, summarised, values.shape, format_element, _per_line(values.dtype))
    return header + (" " if values.ndim == 1 else "\n") + body + ")"


def tensor_graph_text(tensor, constant=False):
    """How MindSpore's graph-mode ``print`` (the Print operator) writes a tensor.

    Args:
        tensor: the Tensor printed, with its values.
        constant: whether MindSpore's compiler knew the value (a constant, or folded from constants).

    A 0-d tensor prints its bare value as a C++ stream does (six significant digits, a bool as
    ``1``/``0``); a constant prints its values only, in ``repr``'s layout with parentheses:
    ``(1, 2)``; any other prints as ``repr`` without commas: ``Tensor(shape=[2], dtype=Int32,
    value=[1 2])``.
    """
    values = np.asarray(concrete(current_array(tensor)))
    if values.ndim == 0:
        scalar = values.item()
        if isinstance(scalar, bool):
            return str(int(scalar))
        if isinstance(scalar, complex):
            return _complex(scalar)
        return _general(scalar) if isinstance(scalar, float) else str(scalar)
    if constant and values.size:
        shown, summarised = _summary_view(values)
        body = _nested(shown, summarised, values.shape, _element_formatter(values.dtype, shown), _per_line(values.dtype))
        return body.replace("[", "(").replace("]", ")")
    if values.size == 0 or _numpy_layout(tensor):
        header = _header(tensor)
        return header + tensor_repr(tensor)[len(header):].lstrip(" ").replace(",", "")
    shown, summarised = _summary_view(values)
    body = _nested(shown, summarised, values.shape, _element_formatter(values.dtype, shown), _per_line(values.dtype),
                   separator=" ")
    return _header(tensor) + ("" if values.ndim == 1 else "\n") + body + ")"


def _str_low_precision(values):
    """bfloat16 / float8 ``str``: MindSpore prints ``%f`` elements in NumPy's layout, unaligned."""
    as_float = values.astype(np.float32)
    if values.ndim == 0:
        return "%f" % float(as_float)
    return np.array2string(as_float, formatter={"float_kind": lambda value: "%f" % value})


def tensor_str(tensor):
    """``str(tensor)``: the values as NumPy prints them (MindSpore's ``print(tensor)``)."""
    array = tensor._array
    if array is not None and _is_tracer(array) and concrete(array) is None and \
            context.jit_syntax_level() != context.LAX:
        # MindSpore's graph below LAX has no str() of a value being compiled (an f-string still formats it)
        raise AttributeError(
            "In JIT strict mode, cannot get attributes __str__ or the Tensor object has no attribute: '__str__'. "
            "Set the context's or the Cell's jit_syntax_level to LAX (MS_DEV_JIT_SYNTAX_LEVEL=2) to support it, "
            "or return the Tensor and call str() on the result.")
    return _text(tensor)


def _text(tensor):
    array = current_array(tensor)
    if array is None:
        if -1 in tensor.shape:
            # MindSpore's str() reads the values of a dynamic-shape placeholder and numpy refuses its -1.
            raise ValueError(f"negative dimensions are not allowed: str() of a dynamic-shape placeholder "
                             f"Tensor(shape={list(tensor.shape)}) has no values; print repr(tensor) or a "
                             f"Tensor with a concrete shape.")
        return _uninitialized(tensor)
    if _is_tracer(array):
        return tensor_repr(tensor)
    values = np.asarray(concrete(array))
    if values.dtype.kind == "V" or values.dtype in (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn,
                                                     ml_dtypes.float8_e5m2):
        return _str_low_precision(values)
    if values.ndim == 0:
        return str(values[()])  # a NumPy scalar prints its shortest repr: 123456790.0
    return str(values)


def tensor_format(tensor, format_spec):
    """``format(tensor, spec)``: ``str`` for an empty spec; a 0-d tensor also takes number specs."""
    if not format_spec:
        return _text(tensor)
    array = current_array(tensor)
    if tensor.ndim == 0 and array is not None and not _is_tracer(array):
        return format(np.asarray(concrete(array)).item(), format_spec)
    raise TypeError("unsupported format string passed to Tensor.__format__: a Tensor of shape "
                    f"{tensor.shape} takes no format spec ({format_spec!r}); format t.asnumpy() instead.")


Tensor.__str__ = tensor_str
Tensor.__repr__ = tensor_repr
Tensor.__format__ = tensor_format

"""How ``sporax.numpy`` (``mindspore.numpy``) functions are made: a table row onto ``jax.numpy``.

Contract: every public function of ``sporax.numpy`` takes Tensors (or Python numbers and nested
lists, as NumPy does) and returns Tensors; it carries MindSpore's signature (argument names and
defaults, readable by ``inspect.signature``) and is differentiable and traceable like any sporax
op, because it only calls ``jax.numpy`` on the arrays held by the Tensors (under ``ms.grad``,
``ms.jit`` or GRAPH mode those arrays are JAX tracers).

Algorithm of one call (``numpy_function``):
1. Bind the arguments to the MindSpore signature (a TypeError naming the function otherwise).
2. Unwrap every Tensor (also inside tuples and lists); turn the arguments that the row declares
   as arrays from Python data into arrays with MindSpore's defaults: Python ``int`` -> Int32,
   ``float`` -> Float32 (where NumPy would use 64-bit types); ``dtype`` arguments become NumPy
   dtypes.
3. Call the row's implementation with the arguments by their MindSpore names.
4. Wrap the array results as Tensors. JAX runs with 64-bit types enabled, so its defaults are
   NumPy's; a 64-bit result is narrowed to 32 bits unless an input (or the requested ``dtype``)
   was 64-bit already: ``mnp.sqrt(int32)`` is Float32 and ``mnp.arange(3)`` Int32, as in
   MindSpore, while ``mnp.sqrt(float64)`` stays Float64.
Errors raised by the implementation keep their type (ValueError for shapes, TypeError for
dtypes) and gain the function's name.
"""
import ast
import inspect
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor

_ARRAYS = (jax.Array, jax.core.Tracer)
_NARROW = {np.dtype(np.float64): np.dtype(np.float32), np.dtype(np.int64): np.dtype(np.int32),
           np.dtype(np.uint64): np.dtype(np.uint32), np.dtype(np.complex128): np.dtype(np.complex64)}


def parse_signature(text):
    """An ``inspect.Signature`` from text such as ``"(x, dtype=None)"`` (defaults are literals or
    ``mindspore.<dtype>``)."""
    definition = ast.parse(f"def f{text}: pass").body[0].args
    kind = inspect.Parameter
    parameters = []
    positional = definition.posonlyargs + definition.args
    defaults = [inspect.Parameter.empty] * (len(positional) - len(definition.defaults)) + [
        _default(node) for node in definition.defaults]
    for argument, default in zip(positional, defaults):
        parameters.append(kind(argument.arg, kind.POSITIONAL_OR_KEYWORD, default=default))
    if definition.vararg:
        parameters.append(kind(definition.vararg.arg, kind.VAR_POSITIONAL))
    for argument, default in zip(definition.kwonlyargs, definition.kw_defaults):
        parameters.append(kind(argument.arg, kind.KEYWORD_ONLY,
                               default=inspect.Parameter.empty if default is None else _default(default)))
    if definition.kwarg:
        parameters.append(kind(definition.kwarg.arg, kind.VAR_KEYWORD))
    return inspect.Signature(parameters)


def _default(node):
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "mindspore":
        return getattr(mstype, node.attr)
    return ast.literal_eval(node)


def numpy_dtype(dtype):
    """A NumPy dtype for a MindSpore dtype, NumPy dtype, Python type or None."""
    if dtype is None:
        return None
    if isinstance(dtype, mstype.Type):
        return np.dtype(mstype.to_numpy_dtype(dtype))
    if dtype in (int, float, bool):
        return np.dtype({int: np.int32, float: np.float32, bool: np.bool_}[dtype])
    return np.dtype(dtype)


def _default_dtype(value):
    """MindSpore's dtype for Python data: bool, Int32, Float32 (Complex64)."""
    kind = np.asarray(value).dtype.kind
    return {"b": np.bool_, "i": np.int32, "u": np.int32, "f": np.float32, "c": np.complex64}.get(kind)


class _Wide:
    """Whether any input of one call was 64-bit (its results then keep 64-bit types)."""
    __slots__ = ("seen",)

    def __init__(self):
        self.seen = False

    def note(self, array):
        if array.dtype.itemsize == 8 and array.dtype.kind in "fiuc" or array.dtype.itemsize == 16:
            self.seen = True
        return array


def unwrap(value, wide):
    """Tensors (also inside tuples and lists) become their arrays; other values pass through."""
    if isinstance(value, Tensor):
        return wide.note(value._value)
    if isinstance(value, _ARRAYS):
        return wide.note(value)
    if isinstance(value, (tuple, list)) and any(isinstance(item, (Tensor, tuple, list) + _ARRAYS) for item in value):
        return type(value)(unwrap(item, wide) for item in value)
    return value


def to_array(value, wide):
    """An array from a Tensor, array or Python data (MindSpore's default dtypes for Python data)."""
    value = unwrap(value, wide)
    if isinstance(value, _ARRAYS):
        return value
    if isinstance(value, np.ndarray):
        return wide.note(jnp.asarray(value))
    if isinstance(value, (tuple, list)) and any(isinstance(item, _ARRAYS + (tuple, list)) for item in value):
        return jnp.stack([to_array(item, wide) for item in value])
    if isinstance(value, (numbers.Number, np.generic, tuple, list)):
        return jnp.asarray(value, dtype=_default_dtype(value))
    raise TypeError(f"expected a Tensor, a number or a (nested) list of numbers, but got {type(value).__name__}")


class exact:
    """An implementation's result whose 64-bit dtype is MindSpore's own (``mnp.sum`` of Int32 is
    Int64), so ``wrap`` leaves it as it is."""
    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array


def wrap(value, wide):
    """Tensors around the array results (narrowed to 32 bits unless ``wide``)."""
    if isinstance(value, exact):
        return Tensor._wrap(value.array)
    if isinstance(value, _ARRAYS + (np.ndarray,)):
        if not wide and value.dtype in _NARROW:
            value = value.astype(_NARROW[value.dtype])
        return Tensor._wrap(jnp.asarray(value))
    if isinstance(value, (tuple, list)):
        return type(value)(wrap(item, wide) for item in value)
    return value


def numpy_function(name, signature, implementation, arrays="", sequences="", doc=None, module="mindspore.numpy"):
    """A ``mindspore.numpy`` function: MindSpore's ``signature`` onto ``implementation``.

    ``arrays`` names the parameters that hold one array (Python data is converted); ``sequences``
    those that hold a sequence of arrays (each item is converted); ``module`` is the MindSpore
    namespace named in errors (``sporax.mint`` defines its few jax.numpy-backed functions here too).
    ``implementation`` receives every argument by its MindSpore name, arrays as jax arrays and
    ``dtype`` as a NumPy dtype.
    """
    parsed = parse_signature(signature)
    array_names = tuple(arrays.split())
    sequence_names = tuple(sequences.split())
    qualified = f"{module}.{name}"

    def function(*args, **kwargs):
        try:
            bound = parsed.bind(*args, **kwargs)
        except TypeError as error:
            raise TypeError(f"For '{qualified}', {error}; its signature is {name}{signature}.") from None
        bound.apply_defaults()
        values = bound.arguments
        wide = _Wide()
        try:
            for key, value in values.items():
                if key in array_names:
                    values[key] = to_array(value, wide) if value is not None else None
                elif key in sequence_names:
                    values[key] = tuple(to_array(item, wide) for item in value)
                elif key == "dtype":
                    values[key] = numpy_dtype(value)
                    if values[key] is not None:
                        wide.note(np.empty(0, values[key]))
                else:
                    values[key] = unwrap(value, wide)
        except TypeError as error:
            raise TypeError(f"For '{qualified}', argument '{key}': {error}.") from None
        try:
            result = implementation(**values)
        except (TypeError, ValueError, IndexError) as error:
            raise _named(error, qualified) from None
        return wrap(result, wide.seen)

    function.__name__ = function.__qualname__ = name
    function.__module__ = module.replace("mindspore", "sporax", 1)
    function.__signature__ = parsed
    function.__doc__ = doc or f"``numpy.{name}`` on Tensors (see the module docstring).\n\n" \
                              f"Example:\n    >>> import sporax.numpy as mnp\n    >>> _ = mnp.{name}"
    return function


def table(rows, namespace, **common):
    """Define one function per row ``(name, signature, implementation[, arrays[, sequences]])``."""
    names = []
    for row in rows:
        name, signature, implementation = row[:3]
        extra = dict(common)
        if len(row) > 3:
            extra["arrays"] = row[3]
        if len(row) > 4:
            extra["sequences"] = row[4]
        namespace[name] = numpy_function(name, signature, implementation, **extra)
        names.append(name)
    return names


_SHAPE_WORDS = ("shape", "dimension", "broadcast", "axis")


def _named(error, qualified):
    """The error with the function's name in front: a ValueError for a shape problem (JAX reports
    some as TypeErrors), else the same type (the original when it cannot be rebuilt)."""
    kind = type(error)
    if kind is TypeError and any(word in str(error) for word in _SHAPE_WORDS):
        kind = ValueError
    try:
        return kind(f"For '{qualified}', {error}")
    except Exception:  # an exception type with a different constructor: keep it as it is
        return error


def cast(result, dtype):
    """``result`` (an array or a tuple of arrays) cast to ``dtype`` when one is given: MindSpore's
    ``dtype`` argument of element-wise functions overrides the output type."""
    if dtype is None:
        return result
    if isinstance(result, tuple):
        return tuple(item.astype(dtype) for item in result)
    return result.astype(dtype)

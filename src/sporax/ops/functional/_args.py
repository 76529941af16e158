"""Argument readers shared by the array, creation, random and nn ops.

Static arguments (shapes, axes, sizes, dtypes) are Python values in MindSpore's graph mode
too, so they are read here once per call with plain Python: no device work, no host sync.
A concrete Tensor passed where a shape is expected (``ops.ones(Tensor([2, 3]))``) is read
on the host, as MindSpore does in PyNative; under a trace it raises a TypeError.
"""
import math
import numbers
import os

import jax
import numpy as np

from sporax.core import jax_private
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor

_NUMPY_DTYPES = {}


def numpy_dtype(op_name, arg_name, dtype):
    """The NumPy dtype of a MindSpore dtype argument (cached per dtype object)."""
    result = _NUMPY_DTYPES.get(dtype)
    if result is None:
        try:
            result = np.dtype(mstype.to_numpy_dtype(mstype.normalize(dtype)))
        except (TypeError, NotImplementedError, KeyError):
            raise TypeError(f"For '{op_name}', '{arg_name}' must be a MindSpore number type such as "
                            f"mindspore.float32, but got {dtype!r}.") from None
        _NUMPY_DTYPES[dtype] = result
    return result


class TracedArgumentError(TypeError, RuntimeError):
    """A static argument (a shape, a size) is a Tensor whose value is being compiled. A TypeError for the
    caller; a RuntimeError naming a value "being compiled" so that a compiled Cell or function meeting it runs
    eagerly (``state.fallback``), where the value is known, as MindSpore's dynamic-shape graphs take it."""


def _concrete(op_name, arg_name, value):
    """A host NumPy value of a Tensor argument that must be static (a shape, a size)."""
    array = value._value if isinstance(value, Tensor) else value
    if isinstance(array, jax.core.Tracer):
        # a Tensor made from Python values inside the compiled function is a constant (MindSpore folds it)
        constant = jax_private.staged_constant(array)
        if constant is not None:
            return np.asarray(constant)
        raise TracedArgumentError(f"For '{op_name}', '{arg_name}' must be known when the op runs (a Python "
                        "int or tuple), but got a Tensor whose value is being compiled; pass a "
                        "Python value instead.")
    return np.asarray(array)


def static_int(op_name, arg_name, value):
    """A Python int from an int (or a concrete 0-d integer Tensor)."""
    if isinstance(value, bool):
        raise TypeError(f"For '{op_name}', '{arg_name}' must be an int, but got bool {value!r}.")
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, (Tensor, jax.Array, jax.core.Tracer)):
        array = _concrete(op_name, arg_name, value)
        if array.ndim == 0 and array.dtype.kind in "iu":
            return int(array)
    raise TypeError(f"For '{op_name}', '{arg_name}' must be an int, but got "
                    f"{type(value).__name__} {value!r}.")


def static_shape(op_name, arg_name, value):
    """A tuple of Python ints from an int, a tuple/list of ints, or a concrete 1-d Tensor."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return (int(value),)
    if isinstance(value, (Tensor, jax.Array, jax.core.Tracer, np.ndarray)):
        array = _concrete(op_name, arg_name, value)
        if array.ndim <= 1 and array.dtype.kind in "iu":
            return tuple(int(v) for v in array.reshape(-1))
    elif isinstance(value, (tuple, list)):
        dims = []
        for item in value:
            if isinstance(item, bool) or not isinstance(item, (numbers.Integral, Tensor, np.integer)):
                break
            dims.append(static_int(op_name, arg_name, item))
        else:
            return tuple(dims)
    raise TypeError(f"For '{op_name}', '{arg_name}' must be an int or a tuple/list of ints, but got "
                    f"{type(value).__name__} {value!r}.")


# Below this many bytes a tensor is created without asking how much memory the device has.
_SMALL_BYTES = 1 << 30
_memory_bytes = []


def _device_memory_bytes():
    """The default device's memory in bytes (host RAM for CPU), read once."""
    if not _memory_bytes:
        limit = None
        try:
            stats = jax.local_devices()[0].memory_stats() or {}
            limit = stats.get("bytes_limit")
        except Exception:  # noqa: BLE001 - a backend without memory_stats
            limit = None
        if not limit:
            try:
                limit = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
            except (ValueError, OSError, AttributeError):
                limit = 1 << 62
        _memory_bytes.append(int(limit))
    return _memory_bytes[0]


def const_vector(shape):
    """A shape as MindSpore's graph prints it in its errors: ``[const vector]{3, 4}``."""
    return "[const vector]{" + ", ".join(str(dim) for dim in shape) + "}"


def check_output_size(op_name, arg_name, shape, dtype=np.float32):
    """Refuse, before XLA sees it, a shape with a negative dimension or too big to allocate.

    XLA aborts the whole process on a shape whose byte size overflows 64 bits, and a merely
    huge one fails deep in the allocator: both become a ValueError that names the op.
    """
    static = all(isinstance(dim, numbers.Number) for dim in shape)
    for index, dim in enumerate(shape):
        if isinstance(dim, numbers.Number) and dim < 0:
            first = (f"For primitive[Ones], the the {index}th dimension of input shape must be greater than or equal "
                     f"to 0, but got {dim}.\n" if op_name == "ones" else "")  # MindSpore 2.10's graph text
            raise ValueError(f"{first}For '{op_name}', dimension {index} of '{arg_name}' must be at least "
                             f"0, but got {dim} (shape {tuple(shape)}).")
    if not static:
        return shape  # a symbolic dimension (an export's None batch) has no size to check
    count = math.prod(shape)
    size = count * np.dtype(dtype).itemsize
    if size > _SMALL_BYTES and size > _device_memory_bytes():
        raise ValueError(f"For '{op_name}', '{arg_name}' {tuple(shape)} gives a tensor of {count} "
                         f"elements ({size} bytes), more than the {_device_memory_bytes()} bytes of "
                         "memory of the device; it is too big to create. Check the shape.")
    return shape


def check_index_range(op_name, arg_name, array, low, high, allowed=None):
    """RuntimeError naming the op when a concrete integer array holds a value outside [low, high).

    MindSpore's kernels check indices when they run; a gather in XLA clamps or fills instead,
    which would give a silently wrong result. Values being compiled (under ``jit``) cannot be
    read, so only eager calls are checked.
    """
    if isinstance(array, jax.core.Tracer) or array.size == 0:
        return
    # on the host: inside a trace even a constant's jnp comparison would be staged
    values = np.asarray(array)
    bad = (values < low) | (values >= high)
    if allowed is not None:
        bad &= values != allowed
    if bad.any():
        value = int(values[bad].reshape(-1)[0])
        extra = "" if allowed is None else f" (or {allowed}, which is ignored)"
        raise RuntimeError(f"For '{op_name}', every value of '{arg_name}' must be in [{low}, {high})"
                           f"{extra}, but got {value}.")


def output_shape(op_name, arg_name, value, dtype=np.float32):
    """``static_shape`` of an op's output, checked by ``check_output_size``."""
    return check_output_size(op_name, arg_name, static_shape(op_name, arg_name, value), dtype)


def axis_index(op_name, arg_name, axis, ndim):
    """A non-negative axis in ``[0, ndim)`` from a possibly negative int axis."""
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        axis = static_int(op_name, arg_name, axis)
    bound = max(ndim, 1)
    if not -bound <= axis < bound:
        text = _AXIS_TEXTS.get(op_name)
        first = text.format(low=-bound, high=bound, axis=axis, rank=ndim - 1) + "\n" if text else ""
        raise ValueError(f"{first}For '{op_name}', '{arg_name}' must be in range [{-bound}, {bound}), "
                         f"but got {axis}.")
    return int(axis) % bound


# MindSpore 2.10's graph-mode texts for an axis out of range, the first line of sporax's error ('rank': the rank of
# expand_dims' input, one less than the axis range's)
_AXIS_TEXTS = {
    "transpose": "For primitive[Transpose], the perm value must be in [{low},{high}), but got {axis}.",
    "gather": "For primitive[Gather], the axis must be in [{low},{high}], but got {axis}.",
    "expand_dims": "ExpandDimserror: axis value invalid. axis: {axis}, input dims: {rank}",
    "unsqueeze": "ExpandDimserror: axis value invalid. axis: {axis}, input dims: {rank}",
    "softmax": "For primitive[Softmax], the axis must be in [{low},{high}), but got {axis}.",
}


def axes_tuple(op_name, arg_name, axes, ndim):
    """A tuple of non-negative axes from an int or a tuple/list of ints."""
    if isinstance(axes, (tuple, list)):
        return tuple(axis_index(op_name, arg_name, axis, ndim) for axis in axes)
    return (axis_index(op_name, arg_name, axes, ndim),)


def pair(op_name, arg_name, value, count=2, minimum=0):
    """``count`` ints (each at least ``minimum``) from an int or a tuple/list of ``count`` ints."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        result = (int(value),) * count
    elif isinstance(value, (tuple, list)) and len(value) == count and all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in value):
        result = tuple(int(v) for v in value)
    else:
        raise TypeError(f"For '{op_name}', '{arg_name}' must be an int or a tuple of {count} ints, "
                        f"but got {value!r}.")
    if any(v < minimum for v in result):
        raise ValueError(f"For '{op_name}', every entry of '{arg_name}' must be at least {minimum}, "
                         f"but got {value!r}.")
    return result


def check_reduction(op_name, reduction):
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"For '{op_name}', 'reduction' must be one of 'mean', 'sum' or 'none', "
                         f"but got {reduction!r}.")


def kernel(*static_argnames):
    """Compile an op's array body once per shape/dtype and static arguments.

    Composite ops (losses, norms, pools) would otherwise dispatch every primitive separately
    in PyNative mode; one jitted body is one dispatch (and one compile instead of many).
    Under an outer trace the body is inlined, so nothing changes inside ``jit``/``grad``.
    """
    def decorate(function):
        return jax.jit(function, static_argnames=static_argnames)

    return decorate

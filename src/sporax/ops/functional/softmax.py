"""Softmax and its kin: ``ops.softmax``, ``ops.log_softmax``, ``ops.softmin`` (Primitives, Cells, ``mint`` spellings).

Each is one op-table entry. The axis may be an int or a tuple of ints (MindSpore's Softmax takes both); a 0-d
input has no axis to normalise over and is refused. Float16 softmax and log-softmax are computed in Float32 and
rounded once, as MindSpore 2.10's CPU kernels (``kernel_rounding.float16_softmax``).

Example:
    >>> from sporax import ops, Tensor
    >>> ops.softmax(Tensor([0.0, 0.0])).asnumpy().tolist()
    [0.5, 0.5]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.functional._args import axis_index, numpy_dtype
from sporax.ops.functional.activation import _axis_setting
from sporax.ops.functional.kernel_rounding import float16_softmax
from sporax.ops.op_table import INT_TUPLE, CellSpec, op, spelling
from sporax.ops.samples import AXIS_SHAPES, unary, with_settings


def _softmax_reference(x, axis=-1, dtype=None):
    shifted = np.exp(x - np.max(x, axis=axis, keepdims=True)) if np.ndim(x) else np.ones_like(x)
    return shifted / np.sum(shifted, axis=axis, keepdims=True)


def _axes(op_name, axis, ndim):
    """``axis`` (an int or a tuple of ints, MindSpore's Softmax takes both) as non-negative axes."""
    if ndim == 0:
        raise ValueError(f"For '{op_name}', the input must have at least 1 dimension (the axis {axis} of a "
                         "0-d Tensor does not exist); reshape it first, e.g. x.reshape((1,)).")
    if isinstance(axis, tuple):
        return tuple(axis_index(op_name, "axis", item, ndim) for item in axis)
    return axis_index(op_name, "axis", axis, ndim)


def _softmax(array, axes):
    return float16_softmax(array, axes) if array.dtype == jnp.float16 else jax.nn.softmax(array, axes)


def _softmax_dtype(op_name, array, dtype):
    return array if dtype is None else array.astype(numpy_dtype(op_name, "dtype", dtype))


@op(mint=(spelling("softmax", "input, dim=None, dtype=None",
                   axis="(0 if input.ndim in (0, 1, 3) else 1) if dim is None else dim",
                   namespaces="mint.nn.functional"),
          spelling("softmax", "input, dim, *, dtype=None", axis="dim")),
    primitive="Softmax", primitive_attrs=("axis",), attribute_forms={"axis": INT_TUPLE},
    cells=(CellSpec("Softmax", (("axis", -1),), check=_axis_setting("Softmax")),),
    samples=with_settings(unary(shapes=AXIS_SHAPES), {"axis": 0}), reference=_softmax_reference)
def softmax(input, axis=-1, *, dtype=None):
    """``exp(input) / sum(exp(input))`` along ``axis`` (computed in ``dtype`` when given)."""
    array = _softmax_dtype("softmax", input, dtype)
    return _softmax(array, _axes("softmax", axis, array.ndim))


@op(mint=spelling("log_softmax", "input, dim=None, *, dtype=None", logits="input if dtype is None else input.astype(dtype)",
                  axis="-1 if dim is None else dim", namespaces=("mint.nn.functional", "mint.special")),
    inputs="logits", primitive="LogSoftmax", primitive_attrs=("axis",), method="log_softmax",
    cells=(CellSpec("LogSoftmax", (("axis", -1),), check=_axis_setting("LogSoftmax")),),
    samples=with_settings(unary(shapes=AXIS_SHAPES), {"axis": 0}),
    reference=lambda logits, axis=-1: np.log(_softmax_reference(logits, axis)))
def log_softmax(logits, axis=-1):
    """``log(softmax(logits))`` along ``axis``, computed stably."""
    axes = _axes("log_softmax", axis, logits.ndim)
    if logits.dtype == jnp.float16:
        # MindSpore 2.10 takes a Float16 LogSoftmax in Float32 and rounds once (recorded: all of 4001 values);
        # in Float16 the sum of exponentials and its log drift (43% of them differed by up to 4 ulp).
        return jax.nn.log_softmax(logits.astype(jnp.float32), axes).astype(logits.dtype)
    return jax.nn.log_softmax(logits, axes)


@op(inputs="x", cells=(CellSpec("Softmin", (("axis", -1),), check=_axis_setting("Softmin")),),
    samples=unary(shapes=AXIS_SHAPES),
    reference=lambda x, axis=-1, dtype=None: _softmax_reference(-x, axis))
def softmin(x, axis=-1, *, dtype=None):
    """``softmax(-x)`` along ``axis``."""
    array = _softmax_dtype("softmin", x, dtype)
    return _softmax(-array, _axes("softmin", axis, array.ndim))

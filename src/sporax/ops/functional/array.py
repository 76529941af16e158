"""Array ops that read or change a tensor's shape and layout: reshape, transpose, squeeze, broadcast (joining and
splitting are ``array_joining``'s).

Shapes and axes are static Python ints (as in MindSpore's graph mode), so every op here lowers
to one ``jnp``/``lax`` call with no host synchronisation, and works on tracers.

The layout ops are op-table entries (``sporax.ops.op_table``): the kernel below, its Primitive
(``Reshape``, ``Transpose``, ``Concat(axis)`` ...), Tensor-method and ``mint`` names, samples and a
NumPy reference. They are ``inline``: a compiled step holds the plain reshape or transpose, as
when it called ``jnp`` itself. ``shape``/``rank``/``size`` are ``eager`` entries (Python values of the
static shape); ``cast`` takes Python numbers too (a ``scalars`` input). ``dtype`` gives a MindSpore dtype
object, which the op test table cannot compare, so it stays a function.

Example:
    >>> from sporax import ops, Tensor
    >>> ops.shape(ops.reshape(Tensor([1, 2, 3, 4]), (2, -1)))
    (2, 2)
"""

import jax
import jax.export
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import wrap
from sporax.ops.casting import convert
from sporax.ops.functional._args import (
    axes_tuple, axis_index, check_output_size, const_vector, numpy_dtype, static_int, static_shape,
)
from sporax.ops.op_table import ANY, INT_TUPLE, SCALAR, Sample, op, spelling
from sporax.ops.samples import python_calls, shaped, values


# --- attributes -------------------------------------------------------------------------------
# Python values, read from the input's static shape and dtype (so also of a traced input): ``eager`` entries.
@op(inputs="input_x", dtypes=ANY, primitive="Shape", eager=True, grad_check=False,
    samples=shaped(((2, 3), {}), ((), {})), reference=np.shape)
def shape(input_x):
    """Return the shape of a Tensor as a tuple of ints."""
    return tuple(input_x.shape)


@op(inputs="input_x", dtypes=ANY, primitive="Rank", eager=True, grad_check=False,
    samples=shaped(((2, 3, 1), {}), ((), {})), reference=np.ndim)
def rank(input_x):
    """Return the number of dimensions of a Tensor (an int)."""
    return input_x.ndim


@op(inputs="input_x", dtypes=ANY, primitive="Size", eager=True, grad_check=False,
    samples=shaped(((2, 3), {}), ((), {})), reference=np.size)
def size(input_x):
    """Return the number of elements of a Tensor (an int)."""
    return int(np.prod(input_x.shape, dtype=np.int64))


@op(inputs="x", dtypes=ANY, primitive="DType", eager=True, grad_check=False, reference_dtype=True,
    samples=shaped(((2, 3), {})), reference=lambda x, dtype: dtype)
def dtype(x):
    """Return the MindSpore dtype of a Tensor (``mindspore.float32`` ...)."""
    return mstype.from_numpy_dtype(x.dtype)


def _numpy_cast(input, dtype):
    return np.asarray(input).astype(mstype.dtype_to_nptype(dtype))


# No gradient check: a cast rounds (finite differences of the reference see its steps).
@op(dtypes=ANY, scalars="input", primitive="Cast", inline=True, grad_check=False, reference=_numpy_cast,
    samples=lambda dtype: [Sample((values((5,), dtype, seed=1),), {"dtype": mstype.int32}),
                           Sample((values((3, 4), dtype),), {"dtype": mstype.float32}),
                           Sample((2.5,), {"dtype": mstype.float16})])
def cast(input, dtype):
    """Convert ``input`` (a Tensor or a Python number) to MindSpore type ``dtype``."""
    target = numpy_dtype("cast", "dtype", dtype)
    return input if getattr(input, "dtype", None) == target else convert(jnp.asarray(input), target)


# A SCALAR entry (any value, handed over as it is), as ``stop_gradient`` and ``depend`` are: MindSpore's ``identity``
# passes Tensors, tuples of them and numbers through alike.
@op(inputs="x", dtypes=SCALAR, reference=lambda x: x,
    samples=python_calls((np.array([1.5, -2.0], np.float32),), ((np.array([[1, 2]], np.int32), 3),), (2.5,)))
def identity(x):
    """Return ``x`` unchanged: a Tensor as a new Tensor around the same array; any other value (a tuple
    of gradients, a number) itself, as MindSpore's ``F.identity`` passes anything through."""
    if isinstance(x, Tensor):
        return wrap(x._value)
    return x


# --- shape changes ----------------------------------------------------------------------------
def _resolve_shape(op_name, old_shape, new_shape):
    """Fill a single -1 in ``new_shape`` and check the element count matches; a failure's first line is
    MindSpore 2.10's graph-mode text, sporax's explanation follows."""
    total = int(np.prod(old_shape, dtype=np.int64))
    unknown = [i for i, dim in enumerate(new_shape) if dim == -1]
    if len(unknown) > 1 or any(dim < -1 for dim in new_shape):
        raise ValueError(f"For primitive[Reshape], at most one component of shape can be -1, but got "
                         f"{const_vector(new_shape)}\nFor '{op_name}', the shape {new_shape} may hold at most "
                         "one -1 and no other negative size.")
    known = int(np.prod([dim for dim in new_shape if dim != -1], dtype=np.int64))
    if unknown:
        if known == 0 or total % known:
            raise ValueError(f"For '{op_name}', cannot reshape a tensor of shape {tuple(old_shape)} "
                             f"({total} elements) into {new_shape}.")
        new_shape = tuple(total // known if dim == -1 else dim for dim in new_shape)
    elif known != total:
        raise ValueError(f"For primitive[Reshape], the accumulate of x_shape must be equal to out_shape, but got "
                         f"x_shape: {const_vector(old_shape)}, and out_shape: {const_vector(new_shape)}\n"
                         f"For '{op_name}', cannot reshape a tensor of shape {tuple(old_shape)} ({total} elements) "
                         f"into {new_shape} ({known} elements).")
    return new_shape


# --- NumPy references (the op test table's oracle) --------------------------------------------
def _numpy_target_shape(array, shape):
    """``shape`` with each -1 replaced by the matching dimension of ``array`` (broadcast_to, expand)."""
    offset = len(shape) - np.ndim(array)
    return tuple(np.shape(array)[i - offset] if dim == -1 else dim for i, dim in enumerate(shape))


def _numpy_squeeze(input, axis=None):
    if axis is None or axis == ():
        return np.squeeze(input)
    axes = tuple(a % input.ndim for a in (axis if isinstance(axis, tuple) else (axis,)))
    return np.squeeze(input, tuple(a for a in axes if input.shape[a] == 1))


def _numpy_flatten(input, order="C", *, start_dim=1, end_dim=-1):
    if input.ndim == 0:
        return input.reshape(1)
    input = input.T if order == "F" else input
    start, end = start_dim % input.ndim, end_dim % input.ndim
    return input.reshape(input.shape[:start] + (-1,) + input.shape[end + 1:])


@op(view=True, dtypes=ANY, primitive="Reshape", mint="reshape", inline=True,
    samples=shaped(((2, 3, 4), {"shape": (4, -1)}), ((6,), {"shape": (2, 3)}), ((), {"shape": (1, 1)})),
    reference=lambda input, shape: np.reshape(input, shape))
def reshape(input, shape):
    """Give ``input`` a new ``shape`` (a tuple of ints, one of them may be -1)."""
    if isinstance(shape, (tuple, list)) and any(jax.export.is_symbolic_dim(dim) for dim in shape):
        # a dimension of an input exported with a None size (``x.shape[0]`` under export): JAX checks the count
        return input.reshape(tuple(dim if jax.export.is_symbolic_dim(dim) else static_int("reshape", "shape", dim)
                                   for dim in shape))
    return input.reshape(_resolve_shape("reshape", input.shape, static_shape("reshape", "shape", shape)))


def _permutation(op_name, arg_name, dims, ndim):
    axes = axes_tuple(op_name, arg_name, tuple(dims) if isinstance(dims, (tuple, list)) else dims, ndim)
    if sorted(axes) != list(range(ndim)):
        repeated = next((axis for axis in axes if axes.count(axis) > 1), None)
        first = (f"For 'Transpose', perms should all be unique dim, but{repeated} is not unique!\n"  # MindSpore 2.10
                 if op_name == "transpose" and repeated is not None else "")
        raise ValueError(f"{first}For '{op_name}', '{arg_name}' must be a permutation of the {ndim} axes, "
                         f"but got {dims!r}.")
    return axes


@op(view=True, dtypes=ANY, primitive="Transpose", inline=True,
    samples=shaped(((2, 3, 4), {"dims": (2, 0, 1)}), ((3, 4), {"dims": (1, 0)}), ((), {"dims": ()})),
    reference=lambda input, dims: np.transpose(input, dims))
def transpose(input, dims):
    """Permute the axes of ``input`` by ``dims``."""
    return jnp.transpose(input, _permutation("transpose", "dims", dims, input.ndim))


@op(view=True, mint=spelling("permute", "input, dims", axis="dims"),
    dtypes=ANY, inline=True, samples=shaped(((2, 3, 4), {"axis": (1, 2, 0)}), ((3, 4), {"axis": (1, 0)})),
    reference=lambda input, axis: np.transpose(input, axis))
def permute(input, axis):
    """Permute the axes of ``input`` by ``axis``."""
    return jnp.transpose(input, _permutation("permute", "axis", axis, input.ndim))


@op(view=True, mint=("swapaxes", spelling("transpose", "input, dim0, dim1", axis0="dim0", axis1="dim1")),
    dtypes=ANY, method="swapaxes", inline=True,
    samples=shaped(((2, 3, 4), {"axis0": 0, "axis1": 2}), ((3, 4), {"axis0": -1, "axis1": 0})),
    reference=lambda input, axis0, axis1: np.swapaxes(input, axis0, axis1))
def swapaxes(input, axis0, axis1):
    """Swap two axes of ``input``."""
    return jnp.swapaxes(input, axis_index("swapaxes", "axis0", axis0, input.ndim),
                        axis_index("swapaxes", "axis1", axis1, input.ndim))


@op(view=True, dtypes=ANY, method="swapdims", inline=True,
    samples=shaped(((2, 3, 4), {"dim0": 1, "dim1": -1})),
    reference=lambda input, dim0, dim1: np.swapaxes(input, dim0, dim1))
def swapdims(input, dim0, dim1):
    """Swap two axes of ``input`` (alias of ``swapaxes``)."""
    return jnp.swapaxes(input, axis_index("swapdims", "dim0", dim0, input.ndim),
                        axis_index("swapdims", "dim1", dim1, input.ndim))


@op(view=True, inputs="x", dtypes=ANY, method=("moveaxis", "movedim"), aliases=("movedim",), inline=True,
    samples=shaped(((2, 3, 4), {"source": 0, "destination": -1}),
                   ((2, 3, 4), {"source": (0, 1), "destination": (2, 0)})),
    reference=lambda x, source, destination: np.moveaxis(x, source, destination))
def moveaxis(x, source, destination):
    """Move axes ``source`` of ``x`` to positions ``destination``."""
    return jnp.moveaxis(x, axes_tuple("moveaxis", "source", source, x.ndim),
                        axes_tuple("moveaxis", "destination", destination, x.ndim))


movedim = moveaxis


@op(view=True, inputs="input_x", dtypes=ANY, primitive="ExpandDims", method="expand_dims", inline=True,
    samples=shaped(((3, 4), {"axis": 1}), ((7,), {"axis": -1}), ((), {"axis": 0})),
    reference=lambda input_x, axis: np.expand_dims(input_x, axis))
def expand_dims(input_x, axis):
    """Insert a dimension of size 1 at ``axis``."""
    return jnp.expand_dims(input_x, axis_index("expand_dims", "axis", axis, input_x.ndim + 1))


@op(view=True, dtypes=ANY, mint="unsqueeze", inline=True,
    samples=shaped(((3, 4), {"dim": 0}), ((7,), {"dim": -1})),
    reference=lambda input, dim: np.expand_dims(input, dim))
def unsqueeze(input, dim):
    """Insert a dimension of size 1 at ``dim``."""
    return jnp.expand_dims(input, axis_index("unsqueeze", "dim", dim, input.ndim + 1))


@op(view=True, mint=spelling("squeeze", "input, dim", axis="dim"),
    dtypes=ANY, primitive="Squeeze", primitive_attrs=(("axis", "axis", ()),), attribute_forms={"axis": INT_TUPLE},
    inline=True,
    samples=shaped(((1, 3, 1), {}), ((1, 3, 1), {"axis": 2}), ((1, 3, 1), {"axis": (0, 1)}),
                   ((2, 1), {"axis": ()})),
    reference=_numpy_squeeze)
def squeeze(input, axis=None):
    """Remove dimensions of size 1: all of them when ``axis`` is None or ``()``, else those of ``axis``
    that have size 1 (others are kept, as in MindSpore)."""
    if axis is None or axis == ():
        axes = tuple(i for i, dim in enumerate(input.shape) if dim == 1)
    else:
        axes = tuple(i for i in axes_tuple("squeeze", "axis", axis, input.ndim)
                     if input.ndim and input.shape[i] == 1)
    return jnp.squeeze(input, axes) if axes else input


@op(view=True,
    mint=spelling("flatten", "input, start_dim=0, end_dim=-1", namespaces=("mint", "mint.nn.functional")),
    dtypes=ANY, inline=True,
    samples=shaped(((2, 3, 4), {}), ((2, 3, 4), {"start_dim": 0, "end_dim": 1}), ((3, 4), {"order": "F"}),
                   ((), {})),
    reference=_numpy_flatten)
def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """Merge dimensions ``start_dim`` .. ``end_dim`` into one (a 0-d tensor becomes shape (1,))."""
    if order not in ("C", "F"):
        raise ValueError(f"For 'flatten', 'order' must be 'C' or 'F', but got {order!r}.")
    if input.ndim == 0:
        return input.reshape(1)
    if order == "F":
        input = jnp.transpose(input)
    if input.ndim == 1:
        return input
    start = axis_index("flatten", "start_dim", start_dim, input.ndim)
    end = axis_index("flatten", "end_dim", end_dim, input.ndim)
    if start > end:
        raise ValueError(f"For 'flatten', 'start_dim' ({start_dim}) must not come after 'end_dim' "
                         f"({end_dim}).")
    dims = input.shape
    merged = int(np.prod(dims[start:end + 1], dtype=np.int64))
    return input.reshape(dims[:start] + (merged,) + dims[end + 1:])


def _broadcast(op_name, arg_name, array, shape):
    target = static_shape(op_name, arg_name, shape)
    offset = len(target) - array.ndim
    if offset < 0:
        raise ValueError(f"For '{op_name}', cannot broadcast a tensor of shape {tuple(array.shape)} to the "
                         f"shorter shape {target}.")
    resolved = []
    for i, dim in enumerate(target):
        source = array.shape[i - offset] if i >= offset else None
        if dim == -1:
            if source is None:
                raise ValueError(f"For '{op_name}', -1 at position {i} of {target} has no "
                                 "matching input dimension.")
            dim = source
        if source not in (None, 1, dim):
            raise ValueError(f"For '{op_name}', cannot broadcast a tensor of shape {tuple(array.shape)} to "
                             f"{target}: dimension {source} does not match {dim}.")
        resolved.append(dim)
    check_output_size(op_name, arg_name, resolved, array.dtype)
    return jnp.broadcast_to(array, tuple(resolved))


@op(view=True, dtypes=ANY, primitive="BroadcastTo", primitive_attrs=("shape",),
    attribute_forms={"shape": INT_TUPLE}, mint="broadcast_to",
    inline=True,
    samples=shaped(((3, 1), {"shape": (2, 3, 4)}), ((4,), {"shape": (3, -1)}), ((), {"shape": (2,)})),
    reference=lambda input, shape: np.broadcast_to(input, _numpy_target_shape(input, shape)))
def broadcast_to(input, shape):
    """Broadcast ``input`` to ``shape``; a -1 in ``shape`` keeps that dimension of ``input``."""
    return _broadcast("broadcast_to", "shape", input, shape)


@op(inputs="input_x", dtypes=ANY, method="expand", inline=True,
    samples=shaped(((1, 4), {"size": (2, -1, 4)})),
    reference=lambda input_x, size: np.broadcast_to(input_x, _numpy_target_shape(input_x, size)))
def expand(input_x, size):
    """Broadcast ``input_x`` to ``size`` (a tuple or a 1-d Tensor; -1 keeps a dimension)."""
    return _broadcast("expand", "size", input_x, size)


@op(dtypes=ANY, primitive="Tile", mint="tile", inline=True,
    samples=shaped(((2, 3), {"dims": (2, 1)}), ((3,), {"dims": (2, 2)}), ((2, 3, 2), {"dims": (3,)})),
    reference=lambda input, dims: np.tile(input, dims))
def tile(input, dims):
    """Repeat ``input`` ``dims[i]`` times along each axis (``dims`` may be longer than the rank)."""
    multiples = static_shape("tile", "dims", dims)
    if any(m < 0 for m in multiples):
        raise ValueError(f"For 'tile', 'dims' must be non-negative, but got {multiples}.")
    padded = (1,) * (len(multiples) - input.ndim) + input.shape
    multiples_padded = (1,) * (input.ndim - len(multiples)) + multiples
    check_output_size("tile", "dims", [a * m for a, m in zip(padded, multiples_padded)], input.dtype)
    return jnp.tile(input, multiples)


__all__ = ["shape", "rank", "size", "dtype", "cast", "reshape", "transpose", "permute", "swapaxes",
           "swapdims", "moveaxis", "movedim", "expand_dims", "unsqueeze", "squeeze", "flatten",
           "broadcast_to", "expand", "tile"]

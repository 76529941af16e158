"""Scatter ops: ``scatter_nd``, the ``tensor_scatter_*`` family, ``tensor_scatter_elements``, ``scatter``,
``index_fill``, ``index_add`` and the in-place Parameter scatters (``scatter_add``, ``scatter_nd_update``, ...).

Index tensors may be traced. Out-of-range scatter indices are dropped.

Example:
    >>> from sporax import ops, Tensor, int32
    >>> updated = ops.tensor_scatter_add(Tensor([1.0, 2.0, 3.0]), Tensor([[2], [0]], int32), Tensor([10.0, 20.0]))
    >>> updated.asnumpy().tolist()
    [21.0, 2.0, 13.0]
"""
import inspect

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.dtype import from_numpy_dtype
from sporax.ops.functional._args import axis_index, static_shape
from sporax.ops.functional.indexing import int_array, sample_case, sample_maker
from sporax.ops.functional.runtime_checks import refuse_when_known
from sporax.ops.functional.scatter_products import multiply_at
from sporax.ops.op_table import ANY, Sample, op, spelling


# --- scatter ----------------------------------------------------------------------------------
def _nd_index(indices):
    return tuple(jnp.moveaxis(indices, -1, 0))


def numpy_apply_at(array, where, values, ufunc):
    """A copy of ``array`` with ``ufunc.at`` applied at ``where`` (None: assignment): scatter references."""
    result = np.array(array, copy=True)
    if ufunc is None:
        result[where] = values
    else:
        ufunc.at(result, where, values)
    return result


def _numpy_scatter_nd(ufunc):
    """A reference ``(input_x, indices, updates)``: ``ufunc.at`` at each index tuple (None: assignment)."""
    def reference(input_x, indices, updates):
        return numpy_apply_at(input_x, tuple(np.moveaxis(np.asarray(indices), -1, 0)), updates, ufunc)
    return reference


@op(inputs=("indices", "updates"), indices="indices", dtypes=ANY, primitive="ScatterNd",
    reference=lambda indices, updates, shape: _numpy_scatter_nd(np.add)(np.zeros(shape), indices, updates),
    samples=sample_maker(sample_case(int_array([[0, 1], [2, 3], [0, 1]]), ((3,), 0), shape=(3, 4)),
                     sample_case(int_array([[1], [0]]), ((2, 3), 1), shape=(2, 3))))
def scatter_nd(indices, updates, shape):
    """A zero tensor of ``shape`` with ``updates`` added at the index tuples ``indices``."""
    shape = static_shape("scatter_nd", "shape", shape)
    if updates.dtype == np.bool_:  # XLA adds no Bools: repeated indices OR their updates, as MindSpore's kernel
        counts = jnp.zeros(shape, np.int32).at[_nd_index(indices)].add(updates.astype(np.int32), mode="drop")
        return counts != 0
    return jnp.zeros(shape, updates.dtype).at[_nd_index(indices)].add(updates, mode="drop")


# Distinct index tuples: an assignment to one position twice has no defined order.
_TENSOR_SCATTER_SAMPLES = sample_maker(sample_case(((3, 4), 0), int_array([[0, 1], [2, 3], [1, 0]]), ((3,), 1)),
                                   sample_case(((3, 2), 2), int_array([[2], [0]]), ((2, 2), 3)))


def _scatter_divide(target, updates):
    """``target.divide(updates)``; integers divide truncating toward zero and keep their dtype (MindSpore's
    ``7 / 2 == 3``, ``-7 / 2 == -3``): by the product of their divisors, which is the same quotient. An integer
    divided by zero saturates as MindSpore's ScatterNdDiv kernel gives it (its float quotient ``±inf``/``nan``
    cast): the dtype's maximum for ``x > 0``, its minimum for ``x < 0``, 0 for ``0 / 0``."""
    if updates.dtype.kind not in "iu":
        return multiply_at(target.array, target.index, 1 / updates)
    array = target.array
    divisors = jnp.ones_like(array).at[target.index].multiply(updates, mode="drop")
    by_zero = divisors == 0
    limits = jnp.iinfo(array.dtype)
    saturated = jnp.where(array > 0, limits.max, jnp.where(array < 0, limits.min, 0)).astype(array.dtype)
    return jnp.where(by_zero, saturated, jax.lax.div(array, jnp.where(by_zero, 1, divisors).astype(array.dtype)))


def _tensor_scatter(name, primitive, method, ufunc, doc, **options):
    def kernel(input_x, indices, updates):
        target = input_x.at[_nd_index(indices)]
        updates = updates.astype(input_x.dtype)
        if method == "divide":
            return _scatter_divide(target, updates)
        if method == "multiply":
            return multiply_at(input_x, target.index, updates)
        return getattr(target, method)(updates, mode="drop")

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = f"``input_x`` with ``updates`` {doc} at the index tuples ``indices``."
    kernel.__module__ = __name__
    return op(inputs=("input_x", "indices", "updates"), indices="indices", dtypes=ANY, primitive=primitive,
              reference=_numpy_scatter_nd(ufunc), samples=options.pop("samples", _TENSOR_SCATTER_SAMPLES),
              **options)(kernel)


tensor_scatter_update = _tensor_scatter("tensor_scatter_update", "TensorScatterUpdate", "set", None, "written")
tensor_scatter_add = _tensor_scatter("tensor_scatter_add", "TensorScatterAdd", "add", np.add, "added")
tensor_scatter_sub = _tensor_scatter("tensor_scatter_sub", "TensorScatterSub", "subtract", np.subtract,
                                     "subtracted")
tensor_scatter_mul = _tensor_scatter("tensor_scatter_mul", "TensorScatterMul", "multiply", np.multiply,
                                     "multiplied in")
tensor_scatter_div = _tensor_scatter(
    "tensor_scatter_div", "TensorScatterDiv", "divide", np.divide, "divided in",
    samples=lambda dtype: [Sample((sample.arrays[0], sample.arrays[1], np.abs(sample.arrays[2]) + 1))
                           for sample in _TENSOR_SCATTER_SAMPLES(dtype)])  # divisors away from zero
tensor_scatter_max = _tensor_scatter("tensor_scatter_max", "TensorScatterMax", "max", np.maximum,
                                     "taken where larger")
tensor_scatter_min = _tensor_scatter("tensor_scatter_min", "TensorScatterMin", "min", np.minimum,
                                     "taken where smaller")

_ELEMENT_REDUCTIONS = {"none": "set", "add": "add", "mul": "multiply", "multiply": "multiply"}


def _numpy_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    result = np.array(input_x, copy=True)
    for position in np.ndindex(np.shape(indices)):
        target = list(position)
        target[axis] = indices[position]
        if reduction == "none":
            result[tuple(target)] = updates[position]
        elif reduction == "add":
            result[tuple(target)] += updates[position]
        else:
            result[tuple(target)] *= updates[position]
    return result


@op(mint=spelling("scatter_add", "input, dim, index, src", input_x="input", indices="index", updates="src", axis="dim",
                  reduction="'add'"),
    inputs=("input_x", "indices", "updates"), indices="indices", dtypes=ANY, primitive="TensorScatterElements",
    primitive_attrs=("axis", "reduction"), reference=_numpy_scatter_elements,
    samples=sample_maker(sample_case(((3, 4), 0), int_array([[1, 0, 2, 1], [2, 1, 0, 0]]), ((2, 4), 1), axis=0),
                     sample_case(((3, 4), 2), int_array([[3, 0], [1, 2], [0, 3]]), ((3, 2), 3), axis=1),
                     sample_case(((3, 4), 4), int_array([[0, 0, 2], [1, 2, 3]]), ((2, 3), 5), axis=1, reduction="add")))
def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    """``input_x`` with ``output[..index[i][j]..] = updates[i][j]`` along ``axis`` (or added)."""
    op_name = "tensor_scatter_elements"
    if reduction not in _ELEMENT_REDUCTIONS:
        raise ValueError(f"For '{op_name}', 'reduction' must be 'none', 'add' or 'mul', but got "
                         f"{reduction!r}.")
    axis = axis_index(op_name, "axis", axis, input_x.ndim)
    if indices.ndim != input_x.ndim:
        raise ValueError(f"For '{op_name}', 'indices' must have the rank of 'input_x' ({input_x.ndim}).")
    return _scatter_elements(input_x, indices, updates.astype(input_x.dtype), axis, _ELEMENT_REDUCTIONS[reduction])


def _scatter_elements(array, index, values, axis, method):
    if values.shape != index.shape:
        values = jax.lax.slice(values, (0,) * values.ndim, index.shape)
    index = jnp.where(index < 0, index + array.shape[axis], index)
    others = tuple(dim for dim in range(array.ndim) if dim != axis)
    if all(index.shape[dim] == array.shape[dim] for dim in others):
        # one index per element, batched over the other axes: the form MindIR export writes as
        # TensorScatterElements (the general form below needs an index grid)
        numbers = jax.lax.ScatterDimensionNumbers(
            update_window_dims=(), inserted_window_dims=(axis,), scatter_dims_to_operand_dims=(axis,),
            operand_batching_dims=others, scatter_indices_batching_dims=others)
        return _BATCHED_SCATTERS[method](array, index[..., None], values, numbers,
                                         mode=jax.lax.GatherScatterMode.FILL_OR_DROP)
    grid = list(jnp.indices(index.shape, sparse=True))
    grid[axis] = index
    return getattr(array.at[tuple(grid)], method)(values, mode="drop")


_BATCHED_SCATTERS = {"set": jax.lax.scatter, "add": jax.lax.scatter_add, "multiply": jax.lax.scatter_mul}


def _numpy_scatter(input, index, src, axis):
    return _numpy_scatter_elements(input, index, np.broadcast_to(src, np.shape(index)), axis % np.ndim(input))


@op(mint=spelling("scatter", "input, dim, index, src", axis="dim"),
    inputs=("input", "index", "src"), indices="index", scalars="src", dtypes=ANY, grad_check=False,
    reference=_numpy_scatter,
    samples=sample_maker(sample_case(((3, 4), 0), int_array([[1, 0, 2, 1]]), ((1, 4), 1), axis=0),
                         sample_case(((3, 4), 2), int_array([[3], [1], [0]]), 2.5, axis=-1)))
def scatter(input, axis, index, src):
    """``input`` with ``src`` written at ``index`` along ``axis`` (``src`` may be a number)."""
    axis = axis_index("scatter", "axis", axis, input.ndim)
    if index.ndim != input.ndim:
        raise ValueError(f"For 'scatter', 'index' must have the rank of 'input' ({input.ndim}).")
    values = jnp.full(index.shape, src, input.dtype) if jnp.ndim(src) == 0 else src.astype(input.dtype)
    return _scatter_elements(input, index, values, axis, "set")


def _numpy_along(axis, index):
    """The NumPy index of the entries ``index`` along ``axis``."""
    return (slice(None),) * axis + (np.reshape(index, -1),)


def _numpy_index_fill(x, index, value, axis):
    result = np.array(x, copy=True)
    result[_numpy_along(axis % result.ndim, index)] = value
    return result


@op(inputs=("x", "index", "value"), indices="index", scalars="value", dtypes=ANY, method="index_fill",
    reference=_numpy_index_fill,
    samples=sample_maker(sample_case(((3, 4), 0), int_array([0, 2]), ((), 1), axis=1),
                     sample_case(((3, 4), 2), int_array([1]), ((), 3), axis=0),
                     sample_case(((2, 3), 4), int_array([2, 0]), -1.5, axis=-1)))
def index_fill(x, axis, index, value):
    """``x`` with the entries at ``index`` along ``axis`` set to ``value``."""
    axis = axis_index("index_fill", "axis", axis, x.ndim)
    fill = jnp.asarray(value).astype(x.dtype)
    return x.at[(slice(None),) * axis + (index.reshape(-1),)].set(fill, mode="drop")


def _numpy_index_add(x, indices, y, axis, **_):
    result = np.array(x, copy=True)
    np.add.at(result, _numpy_along(axis % result.ndim, indices), y)
    return result


@op(mint=spelling("index_add", "input, dim, index, source, *, alpha=1", x="input", indices="index",
                  y="source if alpha == 1 else source * alpha", axis="dim"),
    inputs=("x", "indices", "y"), indices="indices", dtypes=ANY, primitive="IndexAdd",
    primitive_attrs=("axis", "use_lock", "check_index_bound"), reference=_numpy_index_add,
    samples=sample_maker(sample_case(((3, 4), 0), int_array([0, 2, 0]), ((3, 3), 1), axis=1),
                     sample_case(((3, 4), 2), int_array([1, 1]), ((2, 4), 3), axis=0)))
def index_add(x, indices, y, axis, use_lock=True, check_index_bound=True):
    """``x`` with the slices of ``y`` added at ``indices`` along ``axis``."""
    axis = axis_index("index_add", "axis", axis, x.ndim)
    return x.at[(slice(None),) * axis + (indices.reshape(-1),)].add(y.astype(x.dtype), mode="drop")


# --- in-place scatter on Parameters (MindSpore's ScatterAdd family) ----------------------------
def _numpy_scatter(ufunc, nd):
    """A reference ``(input_x, indices, updates)`` of an in-place scatter into rows (or index tuples)."""
    if nd:
        return lambda input_x, indices, updates, **_: _numpy_scatter_nd(ufunc)(input_x, indices, updates)

    def reference(input_x, indices, updates, **_):
        return numpy_apply_at(input_x, np.asarray(indices), updates, ufunc)
    return reference


# Distinct rows and index tuples: an assignment to one position twice has no defined order.
_ROW_SAMPLES = sample_maker(sample_case(((3, 4), 0), int_array([2, 0]), ((2, 4), 1)),
                            sample_case(((4, 2), 2), int_array(1), ((2,), 3)))
_TUPLE_SAMPLES = sample_maker(sample_case(((3, 4), 0), int_array([[0, 1], [2, 3], [1, 0]]), ((3,), 1)),
                          sample_case(((3, 2), 2), int_array([[2], [0]]), ((2, 2), 3)))


def _divisors_away_from_zero(maker):
    def make(dtype):
        return [Sample(sample.arrays[:2] + (np.abs(sample.arrays[2]) + 1,), sample.kwargs) for sample in maker(dtype)]
    return make


def _indices_in_range(name, nd):
    """MindSpore's in-place scatter kernels refuse an index outside [0, size) of its dimension of ``input_x``
    (a RuntimeError; ScatterNdUpdate's shape check a ValueError). Eagerly the indices are checked on the host; in
    a compiled program a host callback raises when the program runs (JAX reports it as a RuntimeError)."""
    primitive = "".join(part.capitalize() for part in name.split("_"))
    error = ValueError if name == "scatter_nd_update" else RuntimeError

    def check(input_x, indices, updates, **settings):
        if indices.size == 0:
            return
        columns = indices.reshape(-1, indices.shape[-1]) if nd else indices.reshape(-1, 1)
        sizes = input_x.shape[:columns.shape[1]]

        def refuse(lows, highs):
            for dimension, (low, high, size) in enumerate(zip(np.asarray(lows), np.asarray(highs), sizes)):
                if low < 0 or high >= size:
                    raise error(f"For '{primitive}', the values of 'indices' must be in [0, {size}) for dimension "
                                f"{dimension} of 'input_x' (shape {tuple(input_x.shape)}), but got "
                                f"{int(high) if high >= size else int(low)}. Check the indices.")

        refuse_when_known(refuse, jnp.min(columns, axis=0), jnp.max(columns, axis=0))
        if name == "scatter_div":  # MindSpore's ScatterDiv refuses a zero divisor of any dtype
            _refuse_zero_divisor(updates)

    return check


def _refuse_zero_divisor(updates):
    def refuse(has_zero):
        if bool(has_zero):
            raise ValueError("For 'ScatterDiv', updates must not contain 0 (MindSpore refuses a division by zero "
                             "there); check the divisors.")

    refuse_when_known(refuse, jnp.any(updates == 0))


def in_place_scatter(name, method, ufunc, nd, doc, module=__name__, use_locking=False):
    """Declare the entry ``name``: the Parameter ``input_x`` with ``updates`` applied (``method`` of ``.at``) at
    the rows (``nd``: index tuples) ``indices``, stored in place; ``use_locking`` adds MindSpore's (unused)
    argument of that name."""
    primitive = "".join(word.capitalize() for word in name.split("_"))  # scatter_nd_update: ScatterNdUpdate

    def kernel(input_x, indices, updates, use_locking=False):
        target = input_x.at[_nd_index(indices) if nd else indices]
        promoted = jnp.promote_types(input_x.dtype, updates.dtype)
        if promoted != input_x.dtype:
            # MindSpore 2.10's text: the Parameter would have to change dtype, which it refuses (both modes)
            raise TypeError(f"Data type conversion is not supported for a 'Parameter', nor for the input tensor of an "
                            f"in-place operator, the argument[input_x]'s data type of primitive[{primitive}] is "
                            f"{from_numpy_dtype(input_x.dtype)}, which cannot be converted to data type "
                            f"{from_numpy_dtype(promoted)} automatically. Cast 'updates' to the Parameter's dtype before '{name}'.")
        updates = updates.astype(input_x.dtype)
        if method == "divide":
            return _scatter_divide(target, updates)
        if method == "multiply":
            return multiply_at(input_x, target.index, updates)
        return getattr(target, method)(updates, mode="drop")

    parameters = list(inspect.signature(kernel).parameters.values())
    kernel.__signature__ = inspect.Signature(parameters if use_locking else parameters[:3])
    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = doc
    kernel.__module__ = module
    samples = _TUPLE_SAMPLES if nd else _ROW_SAMPLES
    # JAX differentiates a scatter-multiply only when its indices are known to be unique; a store in place
    # is not differentiated (MindSpore's ScatterAdd family updates Parameters outside the gradient).
    return op(inputs=("input_x", "indices", "updates"), indices="indices", writes="input_x", snapshot=True,
              dtypes=ANY, grad_check=False, reference=_numpy_scatter(ufunc, nd),
              value_check=_indices_in_range(name, nd),
              samples=_divisors_away_from_zero(samples) if method == "divide" else samples)(kernel)


_ROWS = "the rows ``indices`` of Parameter ``input_x``"
scatter_add = in_place_scatter("scatter_add", "add", np.add, False,
                               f"Add ``updates`` into {_ROWS}, in place; returns it.")
scatter_update = in_place_scatter("scatter_update", "set", None, False,
                                  f"Set {_ROWS} to ``updates``, in place; returns it.")
scatter_nd_add = in_place_scatter("scatter_nd_add", "add", np.add, True,
                                  "Add ``updates`` at the index tuples ``indices`` of Parameter ``input_x``, in place.",
                                  use_locking=True)
scatter_nd_update = in_place_scatter("scatter_nd_update", "set", None, True,
                                     "Set Parameter ``input_x`` at the index tuples ``indices`` to ``updates``, "
                                     "in place.")

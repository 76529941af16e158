"""Array manipulation of ``mindspore.numpy``: shapes, joins, splits, reordering, indexing, padding."""
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.numpy.dispatch import _default_dtype, exact, table


def _split(function):
    return lambda x, indices_or_sections, axis=0: tuple(function(x, indices_or_sections, axis))


def _split_along(axis):
    return lambda x, indices_or_sections: tuple(jnp.split(x, indices_or_sections, axis))


def _atleast(function):
    def apply(arys):
        result = function(*arys)
        # Several arrays come back as a list, as MindSpore returns them.
        return list(result) if len(arys) > 1 else result
    return apply


def _pad(arr, pad_width, mode, stat_length, constant_values, end_values, reflect_type, kwargs):
    if mode == "constant":
        options = {"constant_values": constant_values}
    elif mode in ("maximum", "mean", "median", "minimum"):
        options = {"stat_length": stat_length}
    elif mode == "linear_ramp":
        options = {"end_values": end_values}
    elif mode in ("reflect", "symmetric"):
        options = {"reflect_type": reflect_type}
    else:
        options = {}
    # A named mode ignores other keywords, as MindSpore 2.10 does (mindspore_quaternion passes a misspelt
    # ``constant_value=0``); a function given as the mode still receives them.
    return jnp.pad(arr, pad_width, mode, **options, **(kwargs if callable(mode) else {}))


def _where(condition, x, y):
    if x is None and y is None:
        return jnp.nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return jnp.where(condition, x, y)


def _tensor_call(function, array, *args, **kwargs):
    """Call a user function that works on Tensors with an array, returning an array."""
    result = function(Tensor._wrap(array), *args, **kwargs)
    return result._value if isinstance(result, Tensor) else jnp.asarray(result)


def _apply_along_axis(func1d, axis, arr, args, kwargs):
    moved = jnp.moveaxis(arr, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    results = jnp.stack([_tensor_call(func1d, row, *args, **kwargs) for row in rows])
    return results.reshape(moved.shape[:-1] + results.shape[1:])


def _apply_over_axes(func, a, axes):
    for axis in (axes if isinstance(axes, (tuple, list)) else (axes,)):
        result = _tensor_call(func, a, axis)
        a = result if result.ndim == a.ndim else jnp.expand_dims(result, axis)
    return a


def _piecewise(x, condlist, funclist, args, kw):
    conditions = [condition._value if isinstance(condition, Tensor) else jnp.asarray(condition)
                  for condition in (condlist if isinstance(condlist, (list, tuple)) else [condlist])]
    constants = [function for function in funclist if not callable(function)]
    dtype = x.dtype if len(constants) < len(funclist) else _default_dtype(constants)
    result = jnp.zeros(x.shape, dtype)
    if len(funclist) == len(conditions) + 1:
        otherwise = ~jnp.any(jnp.stack(conditions), axis=0)
        conditions, funclist = conditions + [otherwise], list(funclist)
    for condition, function in zip(conditions, funclist):
        value = _tensor_call(function, x, *args, **kw) if callable(function) else jnp.asarray(function, dtype)
        result = jnp.where(condition, value, result)
    return result


def _unique(x, return_inverse):
    # MindSpore lists the unique values in the order of their first appearance.
    values, first, inverse = jnp.unique(x.ravel(), return_index=True, return_inverse=True)
    order = jnp.argsort(first)
    values = values[order]
    if not return_inverse:
        return values
    rank = jnp.argsort(order)
    return values, rank[inverse.ravel()].reshape(x.shape).astype(np.int32)


def _size(a, axis):
    # MindSpore answers a Python int, as NumPy does.
    return a.size if axis is None else a.shape[axis]


def _repeat(a, repeats, axis):
    # jax.numpy refuses a Python list of counts; MindSpore takes one (one count per slice along axis).
    return jnp.repeat(a, np.asarray(repeats) if isinstance(repeats, (list, tuple)) else repeats, axis)


def _unravel_index(indices, shape, order):
    if order not in ("C", "F"):
        raise ValueError(f"order must be 'C' or 'F', but got {order!r}")
    if order == "C":
        return jnp.unravel_index(indices, shape)
    # Fortran order: the first axis varies fastest, i.e. C order over the reversed shape.
    return tuple(reversed(jnp.unravel_index(indices, tuple(reversed(shape)))))


_ROWS = [
    ("reshape", "(x, new_shape)", lambda x, new_shape: jnp.reshape(x, new_shape), "x"),
    ("ravel", "(x)", lambda x: jnp.ravel(x), "x"),
    ("transpose", "(a, axes=None)", lambda a, axes: jnp.transpose(a, axes), "a"),
    ("expand_dims", "(a, axis)", lambda a, axis: jnp.expand_dims(a, axis), "a"),
    ("squeeze", "(a, axis=None)", lambda a, axis: jnp.squeeze(a, axis), "a"),
    ("swapaxes", "(x, axis1, axis2)", lambda x, axis1, axis2: jnp.swapaxes(x, axis1, axis2), "x"),
    ("moveaxis", "(a, source, destination)", lambda a, source, destination: jnp.moveaxis(a, source, destination),
     "a"),
    ("rollaxis", "(x, axis, start=0)", lambda x, axis, start: jnp.rollaxis(x, axis, start), "x"),
    ("concatenate", "(arrays, axis=0)", lambda arrays, axis: jnp.concatenate(arrays, axis), "", "arrays"),
    ("stack", "(arrays, axis=0)", lambda arrays, axis: jnp.stack(arrays, axis), "", "arrays"),
    ("hstack", "(tup)", lambda tup: jnp.hstack(tup), "", "tup"),
    ("vstack", "(tup)", lambda tup: jnp.vstack(tup), "", "tup"),
    ("dstack", "(tup)", lambda tup: jnp.dstack(tup), "", "tup"),
    ("column_stack", "(tup)", lambda tup: jnp.column_stack(tup), "", "tup"),
    ("atleast_1d", "(*arys)", _atleast(jnp.atleast_1d), "", "arys"),
    ("atleast_2d", "(*arys)", _atleast(jnp.atleast_2d), "", "arys"),
    ("atleast_3d", "(*arys)", _atleast(jnp.atleast_3d), "", "arys"),
    ("split", "(x, indices_or_sections, axis=0)", _split(jnp.split), "x"),
    ("array_split", "(x, indices_or_sections, axis=0)", _split(jnp.array_split), "x"),
    ("hsplit", "(x, indices_or_sections)", _split_along(1), "x"),
    ("vsplit", "(x, indices_or_sections)", _split_along(0), "x"),
    ("dsplit", "(x, indices_or_sections)", _split_along(2), "x"),
    ("tile", "(a, reps)", lambda a, reps: jnp.tile(a, reps), "a"),
    ("repeat", "(a, repeats, axis=None)", _repeat, "a"),
    ("flip", "(m, axis=None)", lambda m, axis: jnp.flip(m, axis), "m"),
    ("fliplr", "(m)", lambda m: jnp.fliplr(m), "m"),
    ("flipud", "(m)", lambda m: jnp.flipud(m), "m"),
    ("roll", "(a, shift, axis=None)", lambda a, shift, axis: jnp.roll(a, shift, axis), "a"),
    ("rot90", "(a, k=1, axes=(0, 1))", lambda a, k, axes: jnp.rot90(a, k, axes), "a"),
    ("broadcast_to", "(array, shape)", lambda array, shape: jnp.broadcast_to(array, shape), "array"),
    ("broadcast_arrays", "(*args)", lambda args: list(jnp.broadcast_arrays(*args)), "", "args"),
    ("append", "(arr, values, axis=None)", lambda arr, values, axis: jnp.append(arr, values, axis), "arr values"),
    ("diagonal", "(a, offset=0, axis1=0, axis2=1)",
     lambda a, offset, axis1, axis2: jnp.diagonal(a, offset, axis1, axis2), "a"),
    ("take", "(a, indices, axis=None, mode='clip')",
     lambda a, indices, axis, mode: jnp.take(a, indices, axis, mode=mode), "a indices"),
    ("take_along_axis", "(arr, indices, axis)",
     lambda arr, indices, axis: jnp.take_along_axis(arr, indices, axis), "arr indices"),
    ("choose", "(a, choices, mode='clip')", lambda a, choices, mode: jnp.choose(a, choices, mode=mode), "a",
     "choices"),
    ("select", "(condlist, choicelist, default=0)",
     lambda condlist, choicelist, default: jnp.select(condlist, choicelist, default), "", "condlist choicelist"),
    ("where", "(condition, x=None, y=None)", _where, "condition x y"),
    ("pad", "(arr, pad_width, mode='constant', stat_length=None, constant_values=0, end_values=0, "
            "reflect_type='even', **kwargs)", _pad, "arr"),
    ("unique", "(x, return_inverse=False)", _unique, "x"),
    ("unravel_index", "(indices, shape, order='C')", _unravel_index, "indices"),
    ("ravel_multi_index", "(multi_index, dims, mode='clip', order='C')",
     lambda multi_index, dims, mode, order: jnp.ravel_multi_index(multi_index, dims, mode=mode, order=order)
     .astype(np.float32), "",
     "multi_index"),
    ("size", "(a, axis=None)", _size, "a"),
    ("argwhere", "(a)", lambda a: exact(jnp.argwhere(a).astype(np.int64)), "a"),
    ("apply_along_axis", "(func1d, axis, arr, *args, **kwargs)", _apply_along_axis, "arr"),
    ("apply_over_axes", "(func, a, axes)", _apply_over_axes, "a"),
    ("piecewise", "(x, condlist, funclist, *args, **kw)", _piecewise, "x"),
    ("array_str", "(a)", lambda a: np.array_str(np.asarray(a)), "a"),
]

__all__ = table(_ROWS, globals())

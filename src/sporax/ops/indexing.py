"""``tensor[index]`` and ``tensor[index] = value`` with NumPy's rules.

Indices may be ints (negative too), slices (whose bounds may be 0-d Tensors), ``...``, ``None``,
integer Tensors / NumPy arrays / lists, and boolean masks (Tensor, NumPy or list), mixed freely.
Assignment rebinds the tensor's ``_array`` slot to ``array.at[index].set(value)``, with ``value``
broadcast and cast to the tensor's dtype, so every holder of the Tensor sees it.

Under ``jax.jit`` static indices and traced integer Tensors work. A traced boolean mask selects
a value-dependent number of elements, which cannot be compiled: reading ``x[mask]`` raises a
teaching error, while ``x[mask] = scalar`` is done with ``where`` and works.
"""
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import jax_private
from sporax.core.tensor import Tensor
from sporax.state import scope, views
from sporax.state.assign import rebind
from sporax.state.fallback import ExplainedFallback

wrap = Tensor._wrap
_TRACER = jax.core.Tracer


class _TracedMask:
    """A boolean mask whose values are being compiled (kept apart: it cannot become indices)."""

    def __init__(self, array):
        self.array = array


def _component(item):
    """One index component in a form ``jnp`` indexing accepts (bool masks become host arrays)."""
    if isinstance(item, Tensor):
        item = item._value
    if item is None or item is Ellipsis or isinstance(item, (bool, np.bool_)):
        return item
    if isinstance(item, numbers.Integral):
        return int(item)
    if isinstance(item, slice):
        return slice(*(_slice_bound(bound) for bound in (item.start, item.stop, item.step)))
    if isinstance(item, (list, tuple)):
        item = np.asarray(item)
        if item.size == 0:
            item = item.astype(np.int64)
    if isinstance(item, _TRACER):
        if item.dtype == np.bool_:
            return _TracedMask(item)
        _check_integer(item.dtype)
        return item
    if isinstance(item, (np.ndarray, jax.Array)):
        if item.dtype == np.bool_:
            return np.asarray(item)
        _check_integer(item.dtype)
        return item
    if isinstance(item, float):
        first = (f"Number index of tensor must be int or bool, but got {item!r}.\n" if scope.compiling_graph() else
                 "Only support integers, slices(`:`), ellipsis(`...`), None, bool, tensor, int, list and tuple as "
                 f"index, but got {item!r} with type {type(item)}\n")
    else:
        first = (f"Unsupported Python object type received: {type(item)}. Supported types for tensor indexing are: "
                 f"list, int, float, tuple, slice, ellipsis, None, array, bool, or Tensor. Received value: {item!r}\n")
    raise IndexError(f"{first}Tensor index: only integers, slices, '...', None, and integer or boolean Tensors, "
                     f"arrays or lists are valid indices, but got {type(item).__name__} {item!r}.")


def _out_of_bounds(item, dim, size, writing, single):
    """The IndexError for int index ``item`` outside dimension ``dim`` of ``size``: MindSpore 2.10's text first, as
    its PyNative or its graph compiler (a read: StridedSlice's check) words it, then sporax's."""
    graph = scope.compiling_graph()
    if not writing:
        first = (f"For 'StridedSlice', the 'strides[{dim}]' cannot be negative number and 'begin[{dim}]' must be in "
                 f"[{-size}, {size}) when 'shrink_axis_mask' is greater than 0, but got 'strides[{dim}]': 1, "
                 f"'begin[{dim}]': {item}.") if graph else f"index {item} is out of bounds for dimension with size {size}"
    elif single:
        first = (f"'index {item} is out of bounds for axis {dim} with size {size}'" if graph
                 else f"Index {item} is out of bounds for axis {dim} with size {size}")
    else:
        first = f"{'I' if graph else 'i'}ndex {item} is out of bounds for dimension with size {size}"
    return IndexError(f"{first}\nTensor index: index {item} is out of bounds for dimension {dim} with size {size}.")


def _check_no_empty_list(index, shape):
    """MindSpore 2.10 refuses reading with an empty list (NumPy selects nothing), in its PyNative or graph words."""
    graph = scope.compiling_graph()
    if type(index) is list and not index:
        first = (f"'dimension is {shape[0] if shape else 0} but corresponding boolean dimension is 0'" if graph
                 else "When tensor is indexed by list, the list can't be empty.")
    elif type(index) is tuple and any(type(item) in (list, tuple) and not item for item in index):
        first = ("" if graph else "IndexError: ") + "The sequence element(tuple/list) in tuple index can't be empty."
    else:
        return
    raise IndexError(f"{first}\nTensor index: an empty list selects nothing; MindSpore refuses it. Use a slice "
                     "such as x[0:0] for an empty selection.")


def _check_integer(dtype):
    if np.dtype(dtype).kind not in "iu":
        raise IndexError(f"Tensor index: an index tensor must hold integers or booleans, but it holds {dtype}; "
                         "cast it first, e.g. index.astype(mindspore.int64).")


def _slice_bound(bound):
    if bound is None or isinstance(bound, numbers.Integral):
        return bound
    if isinstance(bound, Tensor):
        bound = bound._value
    if isinstance(bound, _TRACER) and jax_private.staged_constant(bound) is not None:
        # a Tensor made from a Python number inside the compiled function (``frame[0:-1:Tensor(step)]``):
        # MindSpore's graph compiler knows its value, so the slice has fixed sizes
        bound = jax_private.staged_constant(bound)
    if isinstance(bound, _TRACER):
        raise IndexError("Tensor index: a slice bound is a Tensor whose value is being compiled; slice sizes must "
                         "be known when compiling. Use a Python int, or ops.gather / ops.slice with fixed sizes.")
    array = np.asarray(bound)
    if array.size == 1 and array.dtype.kind in "iu":
        return int(array.reshape(()))
    raise IndexError(f"Tensor index: slice bounds must be integers, but got {bound!r}.")


def _components(index):
    items = index if isinstance(index, tuple) else (index,)
    return tuple(_component(item) for item in items)


def _dims_used(item):
    if item is None or item is Ellipsis or isinstance(item, (bool, np.bool_)):
        return 0
    if isinstance(item, _TracedMask):
        return item.array.ndim
    if isinstance(item, np.ndarray) and item.dtype == np.bool_:
        return item.ndim
    return 1


def _check_bounds(components, shape, writing=False):
    """IndexError for a static int outside its dimension (JAX would clamp it silently); ``writing``: a setitem."""
    used = sum(_dims_used(item) for item in components)
    if used > len(shape):
        first = "" if writing else (f"'The dim of index cannot be greater than indexed data, but got dim of index:"
                                    f"{used}, dim of data:{len(shape)}'\n")
        raise IndexError(f"{first}Tensor index: too many indices for a tensor of dimension {len(shape)}: the index "
                         f"addresses {used} dimensions.")
    dim = 0
    for position, item in enumerate(components):
        if item is Ellipsis:
            dim = len(shape) - sum(_dims_used(rest) for rest in components[position + 1:])
            continue
        if isinstance(item, int) and not isinstance(item, bool):
            size = shape[dim]
            if not -size <= item < size:
                raise _out_of_bounds(item, dim, size, writing, len(components) == 1)
        elif isinstance(item, np.ndarray) and item.dtype == np.bool_:
            if tuple(item.shape) != tuple(shape[dim:dim + item.ndim]):
                raise IndexError(f"Tensor index: the boolean mask of shape {item.shape} does not match the "
                                 f"indexed dimensions {tuple(shape[dim:dim + item.ndim])}.")
        dim += _dims_used(item)


class MaskFallback(ExplainedFallback, IndexError):
    """A boolean-mask read whose result size depends on traced values: ``ms.jit`` and GRAPH_MODE run the
    function eagerly instead (MindSpore's graph gives the mask's dynamic-shape result); where nothing
    falls back (a bare ``jax.jit``), it is the IndexError that explains it."""


def _mask_error(what):
    return MaskFallback(
        f"Tensor {what} with a boolean mask Tensor whose values are being compiled (inside ms.jit, GRAPH_MODE or a "
        "gradient): the result's size depends on the mask's values, which XLA cannot compile. Use "
        "ops.where(mask, x, 0) or ops.masked_fill(x, mask, value) for a fixed-size result, or index in PyNative mode.")


def _leading_axis(array, index):
    """``x[i]`` / ``x[a:b]`` on the first axis as one ``lax`` slice (jnp's general indexing costs ~3x more)."""
    size = array.shape[0]
    if type(index) is int:
        if not -size <= index < size:
            raise _out_of_bounds(index, 0, size, False, True)
        start = index + size if index < 0 else index
        return jax.lax.squeeze(jax.lax.slice_in_dim(array, start, start + 1, 1, 0), (0,))
    start, stop, step = index.indices(size)
    return jax.lax.slice_in_dim(array, start, max(start, stop), step, 0)


def getitem(self, index):
    """``self[index]`` as NumPy indexes."""
    array = self._value
    kind = type(index)
    if (kind is int or kind is slice and (index.step is None or type(index.step) is int and index.step > 0)
            and type(index.start) in (int, type(None)) and type(index.stop) in (int, type(None))) and array.ndim:
        if kind is int and not isinstance(array, _TRACER):  # x[i]: one compiled read for every i (lax's two ops ~37 us)
            _check_bounds((index,), array.shape)
            result = wrap(_take(array, (index,), index))
        else:  # a leading slice stays two lax ops: a loop over batches x[i:i + b] would compile one read per slice
            result = wrap(_leading_axis(array, index))
        views.record(self, result, lambda root: _leading_axis(root, index))
        return result
    if index is False or isinstance(index, np.bool_) and not index:
        # MindSpore 2.10 (PyNative and graph) refuses reading x[False], where NumPy selects nothing
        raise IndexError("When tensor is indexed by a bool object, the value only support 'True'.")
    _check_no_empty_list(index, array.shape)
    components = _components(index)
    if any(isinstance(item, _TracedMask) for item in components):
        raise _mask_error("indexing x[mask]")
    _check_bounds(components, array.shape)
    selected = components if len(components) != 1 else components[0]
    result = wrap(_take(array, components, selected))
    if all(type(item) in _BASIC for item in components):
        # ints, slices, None and ... pick a view of the storage, as in MindSpore (integer or mask indices copy)
        views.record(self, result, lambda root: root[selected])
    return result


_BASIC = (int, slice, type(None), type(Ellipsis))

# Eager reads by index structure (``_structure``): a count until the structure is met ``_COMPILE_AFTER`` times,
# then its compiled read. jnp's indexing run op by op costs 40-450 us a read (x[:, 1:3] ~85, x[i_tensor] ~450),
# its compiled form ~10; a structure read once (a one-off slice) is not worth a compile.
_READS = {}
_COMPILE_AFTER = 2
_MAX_READS = 512
_DYNAMIC_INT, _DYNAMIC_ARRAY = object(), object()


def _structure(components):
    """``(key, dynamic)``: the index's static parts as a hashable key and its run-time values (integer Tensors'
    arrays; ints too when no array index is present, so that ``x[i, 0]`` in a loop over ``i`` is one program);
    ``(None, None)`` for indices kept eager (boolean masks, NumPy or traced indices)."""
    has_array = any(isinstance(item, jax.Array) for item in components)
    parts, dynamic = [], []
    for item in components:
        kind = type(item)
        if kind is int:
            if has_array:  # beside array indices an int stays static (NumPy's advanced-index placement rules)
                parts.append(("int", item))
            else:
                parts.append(_DYNAMIC_INT)
                dynamic.append(item)
        elif kind is slice:
            parts.append(("slice", item.start, item.stop, item.step))
        elif item is None or item is Ellipsis:
            parts.append(item)
        elif isinstance(item, jax.Array) and not isinstance(item, _TRACER):
            parts.append(_DYNAMIC_ARRAY)
            dynamic.append(item)
        else:
            return None, None
    return tuple(parts), dynamic


def _compiled_read(parts):
    def read(array, *dynamic):
        values = iter(dynamic)
        index = tuple(next(values) if part is _DYNAMIC_INT or part is _DYNAMIC_ARRAY
                      else slice(*part[1:]) if type(part) is tuple and part[0] == "slice"
                      else part[1] if type(part) is tuple else part for part in parts)
        return array[index if len(index) != 1 else index[0]]
    return jax.jit(read)


def _take(array, components, selected):
    """``array[selected]``; eagerly, an index structure met before runs as one compiled read (same selection)."""
    if isinstance(array, _TRACER):
        return array[selected]
    key, dynamic = _structure(components)
    if key is None:
        return array[selected]
    known = _READS.get(key, 0)
    if type(known) is int:
        if known + 1 < _COMPILE_AFTER:
            if len(_READS) >= _MAX_READS:
                _READS.clear()
            _READS[key] = known + 1
            return array[selected]
        known = _READS[key] = _compiled_read(key)
    return known(array, *dynamic)


def _value_array(value, dtype):
    if isinstance(value, Tensor):
        value = value._value
    elif not isinstance(value, (jax.Array, _TRACER)):
        value = np.asarray(value)
        if value.dtype.kind in "USO":
            raise TypeError(f"Tensor index assignment: the value must be a number, a Tensor or an array of "
                            f"numbers, but got {value!r}.")
    return value.astype(dtype) if value.dtype != dtype else value


def setitem(self, index, value):
    """``self[index] = value``: rebind the slot to a new array with the selected elements replaced."""
    array = self._value
    if index is False or isinstance(index, np.bool_) and not index:
        return  # selects nothing (NumPy, MindSpore); jnp's .at[False] fails on an assertion
    components = _components(index)
    value = _value_array(value, array.dtype)
    masks = [item for item in components if isinstance(item, _TracedMask)]
    if masks:
        rebind(self, _masked_set(array, components, masks[0], value), "Tensor.__setitem__")
        return
    _check_bounds(components, array.shape, writing=True)
    if _needs_numpy_positions(components):
        rebind(self, _set_by_positions(array, components, value), "Tensor.__setitem__")
        return
    selected = components if len(components) != 1 else components[0]
    try:
        updated = array.at[selected].set(value)
    except ValueError as error:
        shape = array[selected].shape
        first = "" if scope.compiling_graph() else (
            "For 'BroadcastTo', in order to broadcast, each dimension pair must be equal or input dimension is 1 or "
            f"target dimension is -1. But got x_shape: ({', '.join(map(str, value.shape))}), target shape: "
            f"({', '.join(map(str, shape))}).\n")  # MindSpore 2.10 PyNative's words
        raise ValueError(f"{first}Tensor index assignment: a value of shape {tuple(value.shape)} cannot be broadcast "
                         f"to the selected shape {tuple(shape)}.") from error
    rebind(self, updated, "Tensor.__setitem__")


def _needs_numpy_positions(components):
    """Scalar booleans and ``None`` among concrete indices: ``.at[...]`` mis-counts their axes, NumPy does not."""
    special = any(item is None or isinstance(item, (bool, np.bool_)) for item in components)
    return special and len(components) > 1 and not any(isinstance(item, _TRACER) for item in components)


def _set_by_positions(array, components, value):
    """``x[index] = v`` through the flat positions NumPy selects (``True``/``None`` add unit axes, ``False`` an
    empty one, and a scalar boolean counts as an advanced index, as in NumPy and MindSpore)."""
    positions = np.arange(array.size).reshape(array.shape)[tuple(np.asarray(item) if isinstance(item, jax.Array)
                                                                 else item for item in components)]
    try:
        value = jnp.broadcast_to(value, positions.shape)
    except ValueError as error:
        raise ValueError(f"Tensor index assignment: a value of shape {tuple(value.shape)} cannot be broadcast to the "
                         f"selected shape {positions.shape}.") from error
    if positions.size == 0:
        return array
    return array.reshape(-1).at[positions.reshape(-1)].set(value.reshape(-1)).reshape(array.shape)


def _masked_set(array, components, mask, value):
    """``x[mask] = v`` under a trace: ``where(mask, v, x)`` (v a scalar or one value per trailing slot)."""
    leading = [item for item in components if item is not Ellipsis]
    if len(leading) != 1 or value.ndim > array.ndim - mask.array.ndim:
        raise _mask_error("assignment x[mask] = value (with a value per selected element)")
    condition = mask.array.reshape(mask.array.shape + (1,) * (array.ndim - mask.array.ndim))
    return jnp.where(condition, value, array)


def install():
    """Set ``__getitem__`` and ``__setitem__`` on ``Tensor``."""
    Tensor.__getitem__ = getitem
    Tensor.__setitem__ = setitem

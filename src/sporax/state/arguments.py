"""Call arguments: the static signature (cache key) and the traced arrays (DESIGN section 2.7).

Tensors, NumPy and JAX arrays are traced (their shape and dtype go into the key); Python
scalars, strings, dtypes, None, Cells and other objects are static (their value or identity
goes into the key), as MindSpore treats them; tuples, lists and dicts are walked. Values marked
by ``mutable`` are traced even when they are Python scalars. A Parameter that the compiled
function also lifts as state is passed by identity, so that inside the trace the argument *is*
the bound Parameter.
"""
import contextlib
import itertools
import threading

import jax
import numpy as np

from sporax.core import jax_private
from sporax.core.tensor import Tensor
from sporax.state.scope import in_compiled_trace


class MutableMarker:
    """Mixin marking a value made by ``mutable``: its scalars are traced, not constants."""

    __slots__ = ()


class MutableScalar(Tensor):
    """A ``mutable`` Python number inside a trace: a 0-d Tensor whose arithmetic with numbers and other such
    scalars stays one, so that a compiled function returns it as a Python number, as MindSpore's graph types
    it a scalar (``jit(lambda x, y: x + y)(mutable(1), mutable(2))`` is the int 3)."""

    __slots__ = ()

    @staticmethod
    def of(array):
        scalar = object.__new__(MutableScalar)
        scalar._array = array
        scalar._init = None
        return scalar

    def __format__(self, spec):
        if isinstance(self._array, jax.core.Tracer):
            from sporax.state.fallback import UntraceableError

            # MindSpore formats it when the graph runs; the eager run formats the number itself
            raise UntraceableError("format() of a mutable number needs its value, which exists only when the "
                                   "compiled function runs")
        return format(self._array.item(), spec)


def _scalar_operator(name):
    def operator(self, *others):
        result = getattr(Tensor, name)(self, *others)
        if isinstance(result, Tensor) and all(
                isinstance(other, MutableScalar) or (isinstance(other, (int, float)) and not isinstance(other, bool))
                for other in others):
            return MutableScalar.of(result._value)
        return result

    operator.__name__ = name
    return operator


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow"):
    for _form in ("__{}__", "__r{}__"):
        setattr(MutableScalar, _form.format(_name), _scalar_operator(_form.format(_name)))
for _name in ("lt", "le", "gt", "ge", "eq", "ne"):  # a comparison of scalars is a scalar bool (MindSpore's graph)
    setattr(MutableScalar, f"__{_name}__", _scalar_operator(f"__{_name}__"))
MutableScalar.__neg__ = _scalar_operator("__neg__")


def _scalar_augmented(name):
    # ``s += t``: MindSpore's graph keeps a scalar variable a scalar, whatever 0-d value it adds (``s = 0; for row
    # in x: s += row[0]`` returns a Python number, where ``s = s + row[0]`` returns a Tensor)
    def operator(self, other):
        result = getattr(Tensor, name)(self, other)
        if isinstance(result, Tensor) and result.ndim == 0:
            return MutableScalar.of(result._value)
        return result

    operator.__name__ = name.replace("__", "__i", 1)
    return operator


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow"):
    setattr(MutableScalar, f"__i{_name}__", _scalar_augmented(f"__{_name}__"))
MutableScalar.__hash__ = Tensor.__hash__  # defining __eq__ would drop it


def _unflatten_scalar(_, children):
    (array,) = children
    if isinstance(array, (jax.Array, np.ndarray)) and not isinstance(array, jax.core.Tracer) and np.ndim(array) == 0:
        return np.asarray(array).item()  # a compiled function's output: the Python number
    return MutableScalar.of(array)


jax.tree_util.register_pytree_node(MutableScalar, lambda scalar: ((scalar._value,), None), _unflatten_scalar)


def _scalar_array(value):
    if isinstance(value, bool):
        return np.asarray(value, np.bool_)
    if isinstance(value, int):
        return np.asarray(value, np.int64)
    return np.asarray(value, np.float32)


def _key_of(value, arrays, owned, mutable):
    if isinstance(value, Tensor):
        if owned and id(value) in owned:
            return ("state", id(value))
        array = value._value
        arrays.append(array)
        return ("T", array.shape, array.dtype)
    value_type = type(value)
    if value_type in (int, float, bool, str) or value is None:
        if mutable and value_type is not str and value is not None:
            arrays.append(_scalar_array(value))
            return ("S", value_type)
        return (value_type, value)
    if isinstance(value, MutableMarker):
        mutable = True
    if isinstance(value, (jax.Array, np.ndarray)):
        arrays.append(value)
        return ("A", value_type is np.ndarray, value.shape, value.dtype)
    if isinstance(value, (tuple, list)):
        return (value_type, tuple(_key_of(item, arrays, owned, mutable) for item in value))
    if isinstance(value, dict):
        return (value_type, tuple((name, _key_of(item, arrays, owned, mutable)) for name, item in value.items()))
    if isinstance(value, (int, float)) and mutable:
        arrays.append(_scalar_array(value))
        return ("S", value_type)
    try:
        hash(value)
    except TypeError:
        return ("id", id(value))
    return (value_type, value)


def _plain_tensors(values):
    """Whether every item is a materialised plain Tensor (no Parameter, no lazily initialised one, none sharing a
    NumPy array)."""
    for value in values:
        if type(value) is not Tensor or value._init is not None:
            return False
    return True


def plain_marks(args):
    """``(arrays, marks)`` when every argument is a materialised plain Tensor of a JAX array, or a tuple of
    them (a batch, an optimizer's gradients), else None.

    ``marks`` holds each array's aval and, before a tuple's items, its length: two calls with equal marks have
    the same ``signature`` key (the aval holds the shape and dtype). A program's outputs share their avals
    (one object per output of an executable), so comparing the marks of two steps' gradients is an identity
    test per item, where ``signature`` builds and hashes a key (``ProgramCache.lookup`` keeps the last call's).
    """
    arrays, marks = [], []
    for item in args:
        item_type = type(item)
        if item_type is Tensor:
            items = (item,)
        elif item_type is tuple:
            items = item
            marks.append(len(item))
        else:
            return None
        for tensor in items:
            if type(tensor) is not Tensor or tensor._init is not None:
                return None  # a lazily initialised Tensor, or one sharing a NumPy array: read through ``_value``
            array = tensor._array
            aval = getattr(array, "aval", None)  # None: a NumPy array, or no value yet
            if aval is None:
                return None
            arrays.append(array)
            marks.append(aval)
    return arrays, marks


def signature(args, kwargs, owned=None):
    """``(key, arrays)`` for a call: the hashable static signature and the arrays to trace."""
    arrays = []
    parts = []
    for item in args:
        item_type = type(item)
        if item_type is Tensor and item._init is None:  # the common case, inlined: a plain Tensor
            array = item._array
            arrays.append(array)
            parts.append(("T", array.shape, array.dtype))
        elif item_type is tuple and _plain_tensors(item):  # a tuple of gradients (an optimizer's input)
            items = [tensor._array for tensor in item]
            arrays.extend(items)
            try:  # a jax.Array's shape and dtype are properties over its aval: one property call, not two
                shapes = [("T", aval.shape, aval.dtype) for aval in [array.aval for array in items]]
            except AttributeError:  # a NumPy array
                shapes = [("T", array.shape, array.dtype) for array in items]
            parts.append((tuple, tuple(shapes)))
        else:
            parts.append(_key_of(item, arrays, owned, False))
    key = tuple(parts)
    if kwargs:
        key = (key, tuple((name, _key_of(item, arrays, owned, False)) for name, item in kwargs.items()))
    return key, arrays


def _rebuild(value, arrays, owned, mutable):
    if isinstance(value, Tensor):
        if owned and id(value) in owned:
            return value
        return Tensor._wrap(next(arrays))
    value_type = type(value)
    if value_type in (int, float, bool, str) or value is None:
        if mutable and value_type is not str and value is not None:
            return Tensor._wrap(next(arrays)) if value_type is bool else MutableScalar.of(next(arrays))
        return value
    if isinstance(value, MutableMarker):
        mutable = True
    if isinstance(value, np.ndarray):
        return Tensor._wrap(next(arrays))
    if isinstance(value, (jax.Array, jax.ShapeDtypeStruct)):
        return next(arrays)
    if value_type is list and not mutable and _constants_only(value):
        return value  # the caller's own list: in-place list methods in compiled code change it, as in MindSpore
    if isinstance(value, (tuple, list)):
        items = [_rebuild(item, arrays, owned, mutable) for item in value]
        if hasattr(value, "_fields"):
            return value_type(*items)
        if value_type in (tuple, list) or isinstance(value, MutableMarker):
            return value_type(items)  # a mutable sequence stays one (a gradient differentiates it in GRAPH_MODE)
        return tuple(items) if isinstance(value, tuple) else list(items)
    if isinstance(value, dict):
        items = {name: _rebuild(item, arrays, owned, mutable) for name, item in value.items()}
        return type(value)(items) if isinstance(value, MutableMarker) else items
    if isinstance(value, (int, float)) and mutable:
        return MutableScalar.of(next(arrays))
    return value


def _constants_only(items):
    """Whether a list holds only Python numbers, strings and None (no traced value)."""
    return all(type(item) in (int, float, bool, str) or item is None for item in items)


def rebuild(args, kwargs, arrays, owned=None):
    """The call's arguments with each traced array replaced, in order, by ``arrays``."""
    iterator = iter(arrays)
    new_args = tuple(_rebuild(item, iterator, owned, False) for item in args)
    new_kwargs = {name: _rebuild(item, iterator, owned, False) for name, item in kwargs.items()}
    return new_args, new_kwargs


_TENSOR_SLOT = Tensor._wrap(None)
_NUMPY_SLOT = np.empty(0, np.float32)


def skeleton(args, kwargs, owned=None):
    """The arguments with traced values replaced by placeholders of the same kind.

    A compiled program keeps this (not the first call's arrays) to rebuild arguments in a
    re-trace, so a cache entry does not hold on to a batch of data.
    """
    def strip(value):
        if isinstance(value, Tensor):
            return value if owned and id(value) in owned else _TENSOR_SLOT
        if isinstance(value, np.ndarray):
            return _NUMPY_SLOT
        if isinstance(value, jax.Array):
            return jax.ShapeDtypeStruct(value.shape, value.dtype)
        value_type = type(value)
        if value_type is list and _constants_only(value):
            return value
        if isinstance(value, (tuple, list)) and value_type in (tuple, list):
            return value_type(strip(item) for item in value)
        if isinstance(value, dict) and value_type is dict:
            return {name: strip(item) for name, item in value.items()}
        return value

    return tuple(strip(item) for item in args), {name: strip(item) for name, item in kwargs.items()}


def _tensors_in(value, owned, mutable, found):
    if isinstance(value, Tensor):
        if not (owned and id(value) in owned):
            found.append(value)
        return
    value_type = type(value)
    if value_type in (int, float, bool, str) or value is None:
        if mutable and value_type is not str and value is not None:
            found.append(None)
        return
    if isinstance(value, MutableMarker):
        mutable = True
    if isinstance(value, (jax.Array, np.ndarray, jax.ShapeDtypeStruct)):
        found.append(None)
    elif isinstance(value, (tuple, list)):
        for item in value:
            _tensors_in(item, owned, mutable, found)
    elif isinstance(value, dict):
        for item in value.values():
            _tensors_in(item, owned, mutable, found)
    elif isinstance(value, (int, float)) and mutable:
        found.append(None)


def traced_tensors(args, kwargs, owned=None):
    """One item per traced array of the call, in ``signature``'s order: the Tensor argument that holds it,
    or None (a NumPy or JAX array, a mutable scalar)."""
    found = []
    for item in itertools.chain(args, kwargs.values()):
        _tensors_in(item, owned, False, found)
    return found


class _InPlaceWrites(threading.local):
    tensors = None  # ids of the Tensors updated in place during the running ``call_rebuilt``
    compiled_only = False  # the recording scope notes only compiled code's updates (``recording_in_place``)
    bound = frozenset()  # ids of the input Tensors ``bound_inputs`` binds now
    received = frozenset()  # ids of every Tensor the differentiated function receives (``bound_inputs``' others too)


_in_place_writes = _InPlaceWrites()


def note_in_place(tensor):
    """Record that an in-place update (``x += y`` in compiled code, ``x.add_(y)``, ``ops.assign``) changed
    ``tensor``; an index assignment (``x[i] = v``) is not one: MindSpore's graph leaves the caller's
    Tensor as it was then."""
    if _in_place_writes.tensors is not None:
        if _in_place_writes.compiled_only and not in_compiled_trace():
            return
        _in_place_writes.tensors.add(id(tensor))


def noted_in_place(tensor):
    """Whether ``note_in_place(tensor)`` was recorded for the running ``call_rebuilt`` (or recording scope)."""
    noted = _in_place_writes.tensors
    return noted is not None and id(tensor) in noted


@contextlib.contextmanager
def recording_in_place():
    """Collect the ids of the Tensors that compiled code (``ms.jit``, GRAPH_MODE) updates in place while the
    block runs (a gradient's forward pass: MindSpore's graph changes such an input Tensor, PyNative does not).

    Example:
        >>> with recording_in_place() as updated:
        ...     pass
    """
    outer = _in_place_writes.tensors, _in_place_writes.compiled_only
    _in_place_writes.tensors, _in_place_writes.compiled_only = set(), True
    try:
        yield _in_place_writes.tensors
    finally:
        _in_place_writes.tensors, _in_place_writes.compiled_only = outer


def store_in_place(tensor, array):
    """Give the argument ``tensor`` the value ``array`` that compiled code stored into it in place (noted
    for an enclosing ``call_rebuilt``, which hands it back to the caller's Tensor)."""
    tensor._array = array
    tensor._init = None
    note_in_place(tensor)


def call_rebuilt(function, args, kwargs, arrays, owned, record):
    """``function`` on the call's arguments rebuilt from the traced ``arrays`` (inside a trace).

    Compiled code that updates an input Tensor in place (``x += y``, ``x.add_(y)``) changes the
    caller's Tensor in MindSpore's graph: the new values of such arguments are returned with the
    outputs, ``(outputs, tensors)``, and ``record["argument_writes"]`` lists their positions among
    the traced arrays (for ``write_arguments``); otherwise the outputs are returned as they are.
    """
    new_args, new_kwargs = rebuild(args, kwargs, arrays, owned)
    tensors = traced_tensors(new_args, new_kwargs, owned)
    outer = _in_place_writes.tensors, _in_place_writes.compiled_only
    _in_place_writes.tensors, _in_place_writes.compiled_only = set(), False
    try:
        outputs = function(*new_args, **new_kwargs)
        written = _in_place_writes.tensors
    finally:
        _in_place_writes.tensors, _in_place_writes.compiled_only = outer
    positions = tuple(position for position, tensor in enumerate(tensors)
                      if tensor is not None and id(tensor) in written and jax_private.of_current_trace(tensor._array))
    record["argument_writes"] = positions
    if not positions:
        return outputs
    return outputs, tuple(tensors[position] for position in positions)


def write_arguments(args, kwargs, owned, positions, values):
    """After a compiled call: store the new values of the Tensor arguments it updated in place (MindSpore's
    graph changes an input Tensor that ``x += y`` or an in-place method updates)."""
    holders = traced_tensors(args, kwargs, owned)
    for position, value in zip(positions, values):
        holder = holders[position]
        if holder is not None:
            holder._array = value._array
            holder._init = None


@contextlib.contextmanager
def bound_inputs(tensors, arrays, others=()):
    """The caller's input ``tensors`` hold the differentiated ``arrays`` inside the block, as in MindSpore's
    PyNative mode, where the function receives the very Tensors it was called with (``a is x``, ``id(a)``,
    a dict keyed by the Tensor, ``a.register_hook`` on the caller's Tensor); their values are restored after.
    ``others``: the function's other input Tensors, which ``is_received_input`` reports inside the block too.

    Example:
        >>> import jax.numpy as jnp
        >>> x = Tensor([1.0])
        >>> with bound_inputs([x], [jnp.full(1, 5.0)]):
        ...     inside = float(x.asnumpy()[0])
        >>> inside, float(x.asnumpy()[0])
        (5.0, 1.0)
    """
    saved = [(tensor._array, tensor._init) for tensor in tensors]
    outer, outer_received = _in_place_writes.bound, _in_place_writes.received
    _in_place_writes.bound = outer | {id(tensor) for tensor in tensors}
    _in_place_writes.received = outer_received | _in_place_writes.bound | {id(tensor) for tensor in others}
    for tensor, array in zip(tensors, arrays):
        tensor._array, tensor._init = array, None
    try:
        yield
    finally:
        for tensor, (array, init) in zip(tensors, saved):
            tensor._array, tensor._init = array, init
        _in_place_writes.bound, _in_place_writes.received = outer, outer_received


def is_received_input(tensor):
    """Whether ``tensor`` is one of the Tensors a running gradient's function received, differentiated or not
    (``others`` of ``bound_inputs``): MindSpore's PyNative grad tracks them all, so a Cell's backward hook
    sees their gradients."""
    return id(tensor) in _in_place_writes.received


def is_bound_input(tensor):
    """Whether ``tensor`` is a caller's input Tensor that ``bound_inputs`` binds now (a hook registered on it
    stays on it after the call, as on MindSpore's leaf Tensor)."""
    return id(tensor) in _in_place_writes.bound

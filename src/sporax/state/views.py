"""Views: Tensors that share their storage with the Tensor they were taken from, as in PyNative mode.

In MindSpore's PyNative mode ``x.view(...)``, ``x.reshape(...)``, ``x.transpose(...)``, ``x[0]``, ``x[:, 1:]``,
``ops.split``/``unstack``/``narrow``/``diagonal`` and the other view ops return Tensors over the same memory:
``v = x[0]; v[1] = 5`` changes ``x``, and ``x[0] = 7`` shows in ``v``. sporax's arrays are immutable, so
the sharing is kept by hand: each eager view records its root (the Tensor that owns the storage) and
``select``, the view op as a function of the root's array. Every write into a Tensor's slot (``rebind``:
``x[i] = v``, ``ops.assign``, the optimizers' updates) then goes through ``after_write``: a write into a view
scatters its values into the root (through an index map, ``select`` applied to the root's element numbers),
and a write into a root recomputes its live views.

Views of traced values (GRAPH mode, ``jit``, a differentiated call) are kept in a table of their own,
``TRACED``, which ``sporax.state.traced_views`` writes through functionally; eager links never hold a tracer.
A Parameter root whose slot a compiled program's write-back replaces (outside ``rebind``) refreshes its views
there (``sporax.state.parameter_storage``); another root keeps views holding the values they last saw until the
next write.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> x = Tensor(np.zeros((2, 3), np.float32))
    >>> row = x[0]
    >>> row[1] = 5.0
    >>> x.asnumpy().tolist()
    [[0.0, 5.0, 0.0], [0.0, 0.0, 0.0]]
"""
import weakref

import jax.numpy as jnp
import numpy as np
from jax.core import Tracer

from sporax.core import host_buffer, jax_private
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor


class Links:
    """Which Tensors are views of which root: ``EAGER`` for concrete arrays, ``TRACED`` for values being traced
    (kept apart so that a write in a trace never puts a tracer into an eager Tensor).

    ``views_of``: id(root) -> (weakref to the root, [(weakref to a view, select), ...]); ``root_of``: id(view) ->
    (weakref to the view, weakref to its root, select); the view's weakref lives there too, so that its callback
    drops the entry when the view dies even after its root's list is gone (ids are reused)."""

    __slots__ = ("views_of", "root_of")

    def __init__(self):
        self.views_of, self.root_of = {}, {}


EAGER, TRACED = Links(), Links()
_VIEWS_OF, _ROOT_OF = EAGER.views_of, EAGER.root_of
# ids of the Parameters that are (or were lately) an eager root or view: a compiled program's write-back
# (``sporax.state.parameter_storage.after_store``) looks at its states only while this is not empty
LINKED_PARAMETERS = set()
# id(view) -> (weakref to the view, its root's shape, select): the view's strides, which outlive its root (in
# MindSpore a view keeps its storage)
_LAYOUT_OF = {}


def concrete(tensor):
    """Whether ``tensor`` holds a concrete array (not a tracer, not a lazily initialised placeholder)."""
    array = getattr(tensor, "_array", None)
    return array is not None and not isinstance(array, Tracer)


def record(base, view, select):
    """Note that ``view`` (a new Tensor) shares the storage of ``base``: ``view``'s array is ``select(base's array)``.

    ``select`` must pick elements (reshape, transpose, slicing, ...), so that applying it to the element
    numbers of the root says where each element of the view lives."""
    if view is base:
        return
    if concrete(view):
        links = EAGER
    elif isinstance(getattr(view, "_array", None), Tracer) and getattr(base, "_array", None) is not None:
        links = TRACED
    else:
        return
    parent = parent_of(base, links)
    if parent is not None:
        root, outer = parent
        select = _composed(outer, select)
    else:
        root = base
    views_of, root_of = links.views_of, links.root_of
    entry = views_of.get(id(root))
    if entry is None or entry[0]() is not root:
        key = id(root)
        entry = views_of[key] = (weakref.ref(root, lambda _, key=key: views_of.pop(key, None)), [])
    views = entry[1]
    if len(views) >= 16 and len(views) & (len(views) - 1) == 0:  # drop dead views now and then
        views[:] = [item for item in views if item[0]() is not None]
    key = id(view)
    # the layout table is bound now: a view collected at interpreter exit finds the module's globals cleared
    reference = weakref.ref(view, lambda _, key=key, layouts=_LAYOUT_OF: (root_of.pop(key, None),
                                                                         layouts.pop(key, None)))
    views.append((reference, select))
    root_of[key] = (reference, entry[0], select)
    if links is EAGER:
        host_buffer.view_of(root, view, select)  # a view of a Tensor.from_numpy follows the NumPy array too
        _LAYOUT_OF[key] = (reference, tuple(root.shape), select)
        for tensor in (root, view):
            if isinstance(tensor, Parameter):
                LINKED_PARAMETERS.add(id(tensor))


def parent_of(tensor, links=EAGER):
    """``(root, select)`` of a live view in ``links``, else None (dropping an entry whose root is gone)."""
    entry = links.root_of.get(id(tensor))
    if entry is None or entry[0]() is not tensor:
        return None  # not a view (an entry is dropped by its view's weakref callback)
    root = entry[1]()
    if root is None:
        links.root_of.pop(id(tensor), None)  # its root is gone: it keeps its values
        return None
    return root, entry[2]


def _composed(outer, inner):
    return lambda array: inner(outer(array))


def layout(tensor):
    """``(strides, storage_offset)`` in elements, as MindSpore's PyNative mode reports them for ``tensor``.

    A view's layout is read off its element map (``select`` applied to the root's element numbers): a transposed,
    sliced-with-a-step or broadcast view has the strides of the root's storage it walks. A Tensor that is no view,
    or whose map is no strided walk (MindSpore copies there, e.g. reshaping a transposed view), is contiguous."""
    shape = tuple(tensor.shape)
    default = _contiguous_strides(shape)
    entry = _LAYOUT_OF.get(id(tensor)) if concrete(tensor) else None
    if entry is None or entry[0]() is not tensor:
        return default, 0
    _, root_shape, select = entry
    try:
        positions = select(jnp.arange(int(np.prod(root_shape)), dtype=jnp.int32).reshape(root_shape))
    except (TypeError, ValueError, IndexError):
        return default, 0
    if isinstance(positions, Tracer) or tuple(positions.shape) != shape or not positions.size:
        return default, 0
    positions = np.asarray(positions)
    offset = int(positions.flat[0])
    strides = [int(positions[tuple(1 if i == axis else 0 for i in range(len(shape)))]) - offset
               if size > 1 else default[axis] for axis, size in enumerate(shape)]
    walked = offset + sum(index * step for index, step in zip(np.indices(shape), strides))
    if not np.array_equal(walked, positions):
        return default, 0
    return strides, offset


def _contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(int(size), 1)
    return strides[::-1]


def is_contiguous(tensor):
    """Whether ``tensor``'s elements lie in row-major order in its storage (size-1 axes aside)."""
    strides, _ = layout(tensor)
    default = _contiguous_strides(tuple(tensor.shape))
    return all(size <= 1 or step == want for size, step, want in zip(tensor.shape, strides, default))


def after_write(tensor):
    """Propagate a new array in ``tensor``'s slot to the Tensors that share its storage."""
    parent = parent_of(tensor)
    if parent is not None:
        root, select = parent
        if not concrete(root) or not _write_into_root(root, tensor, select):
            _ROOT_OF.pop(id(tensor), None)  # no longer a view of anything: it keeps its values
            return
        refresh(root, skip=tensor)
    elif id(tensor) in _VIEWS_OF:
        refresh(tensor, skip=None)


def _write_into_root(root, view, select):
    """Scatter ``view``'s values into ``root``'s array; False where they no longer line up."""
    array = host_buffer.current_array(root)
    try:
        positions = select(jnp.arange(array.size, dtype=jnp.int32).reshape(array.shape))
    except (TypeError, ValueError, IndexError):
        return False
    values = view._array
    if isinstance(positions, Tracer) or positions.shape != values.shape:
        return False  # called inside a trace, or the view was given another shape
    # Only the elements that changed: a broadcast view holds a root element several times, and the
    # copies left alone must not write the old value back over the new one.
    values = values.astype(array.dtype)
    changed = values != select(array)
    array = array.reshape(-1).at[positions[changed]].set(values[changed]).reshape(array.shape)
    buffer = host_buffer.buffer_of(root)
    if buffer is None or not buffer.write(root, array):  # a Tensor.from_numpy root writes into its NumPy array
        root._array = array
    return True


def refresh(root, skip, links=EAGER):
    """Read ``root``'s live views in ``links`` again from its array (but ``skip``). A view that no longer fits
    (the root changed shape), or, in ``TRACED``, one holding a value of another trace, keeps its last values."""
    entry = links.views_of.get(id(root))
    if entry is None or entry[0]() is not root:
        return
    array = root._array
    eager = links is EAGER
    kept = []
    for reference, select in entry[1]:
        view = reference()
        if view is None:
            continue
        if view is not skip:
            current = view._array
            try:
                values = select(array) if eager or jax_private.of_current_trace(current) else None
            except (TypeError, ValueError, IndexError):
                values = None
            if values is None or eager and isinstance(values, Tracer) or values.shape != current.shape:
                links.root_of.pop(id(view), None)
                continue
            view._array = values.astype(current.dtype) if values.dtype != current.dtype else values
        kept.append((reference, select))
    if kept:
        entry[1][:] = kept
    else:
        links.views_of.pop(id(root), None)  # no live view left: later writes have nothing to refresh


def whole(array):
    """The ``select`` of a view that is its root's whole storage (``Parameter.data``)."""
    return array


def detach(tensor):
    """``tensor`` (a view) no longer shares its root's storage: it keeps its values, the root's writes skip it."""
    entry = _ROOT_OF.pop(id(tensor), None)
    root = None if entry is None else entry[1]()
    views = _VIEWS_OF.get(id(root))
    if views is not None and views[0]() is root:
        views[1][:] = [item for item in views[1] if item[0]() is not tensor and item[0]() is not None]


def move_views(root, array):
    """The live views of ``root`` (a Tensor whose slot gets new storage) share ``array`` from now on, as they
    shared ``root``'s old storage: writes through one show in the others, ``root`` no longer sees them.

    ``array`` is held by a hidden Tensor that only the views keep alive (their links hold it strongly)."""
    entry = _VIEWS_OF.pop(id(root), None)
    if entry is None or entry[0]() is not root:
        return
    hidden = Tensor._wrap(array)
    held = lambda: hidden  # noqa: E731 - a strong reference where links keep a weak one
    key = id(hidden)
    views = [(reference, select) for reference, select in entry[1] if reference() is not None]
    if not views:
        return
    _VIEWS_OF[key] = (weakref.ref(hidden, lambda _, key=key: _VIEWS_OF.pop(key, None)), views)
    for reference, select in views:
        _ROOT_OF[id(reference())] = (reference, held, select)


def sharing_storage(run):
    """``run`` whose eager results are recorded as views of its first argument: the op
    is re-run on the root's array to refresh a view, and on its element numbers to write a view back."""

    def run_as_view(*values):
        result = run(*values)
        base = values[0] if values else None
        if isinstance(base, Tensor) and getattr(base, "_array", None) is not None:  # concrete or traced
            settings = values[1:]
            if type(result) is tuple:
                for position, item in enumerate(result):
                    record(base, item, lambda array, position=position: run(
                        Tensor._wrap(array), *settings)[position]._value)
            elif isinstance(result, Tensor):
                record(base, result, lambda array: run(Tensor._wrap(array), *settings)._value)
        return result

    return run_as_view

"""A Parameter's storage, as MindSpore's PyNative mode shares it: ``Parameter.data``, ``set_data``, compiled writes.

MindSpore 2.10 (recorded on its CPU build; ``tests/state/test_parameter_storage.py`` pins each case):

- ``p.data`` is a new plain Tensor over ``p``'s storage at every call (``p.data is p`` is False): a write through
  either shows in the other, and so do the writes that update the storage in place, ``ops.assign``, an
  optimizer's step, a compiled train step, BatchNorm's moving statistics;
- ``p.set_data(x)``, ``p.data = x`` and ``p.assign_value(x)`` give ``p`` new storage: ``x``'s own when no cast is
  needed (``p`` and ``x`` share from then on, ``x[0] = 9`` changes ``p``), a cast copy otherwise. The Tensors
  that shared ``p``'s old storage (a held ``p.data``, ``p[0]``) keep it with its values, still share it among
  themselves, and no longer see ``p``.

sporax's arrays are immutable; the sharing is kept by the eager links of ``sporax.state.views`` (a held
``p.data`` is recorded as ``p``'s whole view). Ops that write through ``rebind`` already keep the links; here
are the other two writers: ``set_data`` (``replace``, installed into ``Parameter``) and the write-back of a
compiled program (``after_store``), which costs one test of an empty set per call while no Parameter is linked.

Example:
    >>> import numpy as np
    >>> from sporax import Parameter, Tensor
    >>> p = Parameter(Tensor(np.ones(2, np.float32)), name="p")
    >>> held = p.data
    >>> _ = p.set_data(Tensor(np.zeros(2, np.float32)))
    >>> held.asnumpy().tolist(), p.asnumpy().tolist()
    ([1.0, 1.0], [0.0, 0.0])
"""
from jax.core import Tracer

from sporax.core import parameter as parameter_module
from sporax.core.tensor import Tensor
from sporax.state import views

_LINKED = views.LINKED_PARAMETERS
_read_slot = parameter_module.read_slot


def data_of(parameter):
    """``Parameter.data``: a plain Tensor over the Parameter's storage, recorded as its whole view (MindSpore
    prints and types it as a Tensor); inside a trace, where compiled code works on values, the Parameter itself."""
    array = parameter._value
    if isinstance(array, Tracer):
        return parameter
    view = Tensor._wrap(array)
    views.record(parameter, view, views.whole)
    return view


def replace(parameter, array, source):
    """Store ``array`` as ``parameter``'s new storage (``set_data``); ``source``: the concrete Tensor whose storage
    ``array`` is (no cast was needed), else None.

    Eagerly, the Tensors sharing the old storage keep it, and ``parameter`` joins ``source``'s. Inside a trace the
    write is an in-place update (MindSpore's graph compiles ``set_data`` and ``self.weight = x`` into Assign):
    the write-back after the call reaches the views."""
    old = _read_slot(parameter)
    if not _LINKED or id(parameter) not in _LINKED or old is None or isinstance(old, Tracer) \
            or isinstance(array, Tracer):
        parameter._array = array
    else:
        views.after_write(parameter)  # a compiled write the views have not seen yet
        views.move_views(parameter, parameter._array)
        views.detach(parameter)
        parameter._array = array
    if source is not None and source is not parameter and views.concrete(source) and not isinstance(array, Tracer):
        views.record(source, parameter, views.whole)


def after_store(states):
    """After a compiled program stored new arrays into ``states`` outside ``rebind``: their views and roots see
    them, as MindSpore's in-place kernels write the storage they share (a held ``p.data`` follows the step)."""
    if not _LINKED:
        return
    for state in states:
        if id(state) in _LINKED and _still_linked(state) and not isinstance(_read_slot(state), Tracer):
            views.after_write(state)


def linked(states):
    """Whether any of ``states`` shares storage with another live Tensor (an update of it must not be held back:
    a plain Tensor's read does not apply a pending update)."""
    return bool(_LINKED) and any(id(state) in _LINKED and _still_linked(state) for state in states)


def _still_linked(state):
    """Whether ``state`` (noted in ``LINKED_PARAMETERS``) is a view of a live root or the root of a live view; the
    note is dropped when not (the Tensor it shared with is gone: ``set_data(Tensor(values))``'s temporary)."""
    if views.parent_of(state) is not None:
        return True
    entry = views.EAGER.views_of.get(id(state))
    if entry is not None and entry[0]() is state and any(reference() is not None for reference, _ in entry[1]):
        return True
    _LINKED.discard(id(state))
    return False


parameter_module.data_view = data_of
parameter_module.storage_replaced = replace


def update(parameter, array):
    """Write ``array`` (a jax array or a Tensor, cast to ``parameter``'s dtype) into ``parameter``'s storage in
    place, as MindSpore's kernels and ``ops.assign`` update state (BatchNorm's moving statistics, a learning-rate
    callback): the Tensors sharing the storage follow."""
    if isinstance(array, Tensor):
        array = array._value
    target = parameter._value.dtype
    parameter._array = array if array.dtype == target else array.astype(target)
    parameter._init = None
    if _LINKED and id(parameter) in _LINKED and not isinstance(array, Tracer):
        views.after_write(parameter)
    return parameter

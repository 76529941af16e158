"""``Tensor.register_hook``: a function called on a Tensor's gradient, which may replace it.

Two cases, as the Tensor holds either a traced value or a concrete array:

* an intermediate value inside a differentiated (or compiled) function holds a tracer: its slot
  is rebound to a ``jax.custom_vjp`` identity of itself, whose backward rule calls the hooks on
  the gradient of every later use (uses before ``register_hook`` do not pass through it);
* a leaf (an input Tensor or a Parameter, registered outside any trace) is kept in a table that
  ``grad`` consults when it binds the values it differentiates (``hooked_leaf``).

The hooks live in an ordered table read when the backward pass runs, so they chain in
registration order (each sees the previous one's result) and a hook removed before the backward
pass does not run. Inside a compiled program the hook runs while the backward pass is traced.

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    >>> handle = x.register_hook(lambda grad: grad * 2)
    >>> ms.grad(lambda a: (a * a).sum())(x)
    Tensor(shape=[2], dtype=Float32, value= [ 4.00000000e+00,  8.00000000e+00])
    >>> handle.remove()
"""
import itertools
import weakref
from collections import OrderedDict

import jax
import jax.numpy as jnp

from sporax.core.tensor import Tensor
from sporax.state.arguments import is_bound_input
from sporax.state.assign import rebind
from sporax.state.discovery import is_parameter, static_signature_changed
from sporax.state.fallback import ExplainedFallback, compiling_pynative
from sporax.state.scope import in_compiled_trace, owned_by_active_scope

_handle_ids = itertools.count()

# id(tensor) -> (weak reference to the tensor, hook table): leaf Tensors with hooks.
_leaf_tables = {}
# id(tensor) -> (weak reference, hook table, hooked array): intermediates already hooked.
_traced_tables = {}


class HookHandle:
    """Returned by ``register_hook``: ``remove()`` takes the hook off (a second call does nothing).

    Attributes:
        handle_id (int): the id of the hook (unique in the process).
    """

    __slots__ = ("handle_id", "_table", "_owner", "_also", "__weakref__")

    def __init__(self, table, owner=None):
        self.handle_id = next(_handle_ids)
        self._table = table
        self._owner = owner
        self._also = None  # the leaf table that holds the hook too (registered on an input inside its gradient)

    @property
    def id(self):
        return self.handle_id

    def remove(self):
        """Remove the hook."""
        table = self._table
        if table is not None and self.handle_id in table:
            del table[self.handle_id]
            if self._owner is not None:
                self._owner.changed()
        if self._also is not None and self._also.pop(self.handle_id, None) is not None:
            _LEAF_OWNER.changed()
        self._table = self._also = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.remove()
        return False


def check_hook(hook):
    if not callable(hook):
        raise TypeError(f"Expected a callable hook function, but got {type(hook).__name__}.")
    from sporax.graph.jit import JitFunction  # graph sits beside autodiff: import when checking

    if isinstance(hook, JitFunction):
        # A hook runs in the backward pass or around a Cell call with Python values; MindSpore refuses
        # a compiled one at registration.
        raise TypeError(f"Decorating hook function {hook.name.rsplit('.', 1)[-1]} with '@jit' is not supported. "
                        "Register the undecorated function.")


def _apply(table, gradient):
    for handle_id, hook in list(table.items()):
        if handle_id not in table:
            continue  # removed by an earlier hook of this pass: MindSpore 2.10 skips it
        result = hook(Tensor._wrap(gradient))
        if result is None:
            continue
        if not isinstance(result, Tensor):
            raise RuntimeError(f"Tensor hook should be return Tensor, but get type: {type(result).__name__}. "
                               f"(hook {getattr(hook, '__name__', hook)!r})")
        value = result._value
        if value.shape != gradient.shape:
            try:
                value = jnp.broadcast_to(value, gradient.shape)
            except ValueError:
                raise ValueError(f"The Tensor hook {getattr(hook, '__name__', hook)!r} returned a gradient of shape "
                                 f"{tuple(value.shape)} for a Tensor of shape {tuple(gradient.shape)}: return a "
                                 "gradient of the Tensor's shape.") from None
        gradient = value.astype(gradient.dtype)
    return gradient


def hooked_identity(array, table, again=False):
    """``array`` unchanged, whose gradient passes through the hooks in ``table``.

    With ``again``, a gradient of a gradient passes through them too: MindSpore 2.10 hooks an
    intermediate Tensor's node, and an outer gradient differentiates the inner backward pass,
    which reads that node's value once more (its hooks run on that gradient as well)."""
    if not jnp.issubdtype(array.dtype, jnp.inexact):
        return array  # integer values carry no gradient

    @jax.custom_vjp
    def identity(value):
        return value

    def forward(value):
        return (hooked_identity(value, table, again) if again else value), None

    def backward(_, gradient):
        return (_apply(table, gradient),)

    identity.defvjp(forward, backward)
    return identity(array)


def _forget(tables, key):
    def callback(_):
        tables.pop(key, None)
    return callback


def register_hook(tensor, hook):
    """Register ``hook(grad) -> None or new grad`` on ``tensor``; returns a ``HookHandle``."""
    check_hook(hook)
    if getattr(tensor, "requires_grad", True) is False:
        # A Parameter with requires_grad=False never receives a gradient (MindSpore 2.10's message).
        raise RuntimeError("The tensor requires grad is false, which can not register tensor hook "
                           f"(Parameter {getattr(tensor, 'name', '')!r}). Set requires_grad=True first.")
    array = tensor._value
    key = id(tensor)
    if isinstance(array, jax.core.Tracer):
        if compiling_pynative():
            # PyNative calls the hook with the gradient's value on every backward pass, and the hook may
            # keep it; a program compiled once would hand it a placeholder once.
            raise ExplainedFallback("Tensor.register_hook inside a PyNative gradient: the hook runs with the "
                                    "gradient's values on every call.")
        entry = _traced_tables.get(key)
        fresh = entry is None or entry[0]() is not tensor or entry[2] is not array
        lifted = is_parameter(tensor) and owned_by_active_scope(tensor) and not in_compiled_trace()
        if lifted or is_bound_input(tensor):  # the caller's input or a Parameter in a PyNative gradient: its
            leaf = _leaf_table(tensor)       # later calls run the hook too, as it stays on MindSpore's leaf Tensor
            # ``hooked_leaf`` bound an input through its leaf hooks, read when the backward pass runs;
            # ``leaf_gradient`` runs a Parameter's on its total gradient, after the backward pass
            if lifted or (fresh and leaf):
                handle = HookHandle(leaf, _LEAF_OWNER)
                static_signature_changed()
                leaf[handle.handle_id] = hook
                return handle
        if fresh:
            table = OrderedDict()
            hooked = hooked_identity(array, table, again=True)
            rebind(tensor, hooked, "Tensor.register_hook", through_views=False)  # same values: views keep theirs
            entry = _traced_tables[key] = (weakref.ref(tensor, _forget(_traced_tables, key)), table, hooked)
        table = entry[1]
        handle = HookHandle(table)
        if is_bound_input(tensor):
            handle._also = leaf
            leaf[handle.handle_id] = hook
            static_signature_changed()
    else:
        table = _leaf_table(tensor)
        # grad programs compiled before bind the leaf without (or with) this hook: recompile them.
        handle = HookHandle(table, _LEAF_OWNER)
        static_signature_changed()
    table[handle.handle_id] = hook
    return handle


def _leaf_table(tensor):
    """The hook table of the leaf ``tensor``, made when it has none."""
    key = id(tensor)
    entry = _leaf_tables.get(key)
    if entry is None or entry[0]() is not tensor:
        entry = _leaf_tables[key] = (weakref.ref(tensor, _forget(_leaf_tables, key)), OrderedDict())
    return entry[1]


class _LeafOwner:
    """Told when a leaf hook is removed: compiled gradient programs must be rebuilt."""

    @staticmethod
    def changed():
        static_signature_changed()


_LEAF_OWNER = _LeafOwner()


def registered_hooks(tensor):
    """The hook functions registered on ``tensor`` and not removed, in call order (``Tensor.hooks()``)."""
    array = tensor._value if tensor._array is not None else None
    tables = (_traced_tables,) if isinstance(array, jax.core.Tracer) else (_leaf_tables, _traced_tables)
    for tables_of in tables:
        entry = tables_of.get(id(tensor))
        if entry is not None and entry[0]() is tensor and (tables_of is _leaf_tables or entry[2] is array):
            return list(entry[1].values())
    return []


def leaf_gradient(tensor, gradient):
    """``gradient`` (the whole gradient of the leaf ``tensor``) through ``tensor``'s hooks, if any.

    ``grad`` applies a differentiated weight's hooks here, after the backward pass, so they run once
    with the weight's total gradient, zeros included when the output does not depend on it (as
    MindSpore calls them)."""
    if not _leaf_tables:
        return gradient
    entry = _leaf_tables.get(id(tensor))
    if entry is None or not entry[1] or entry[0]() is not tensor:
        return gradient
    return _apply(entry[1], gradient)


def hooked_leaf(tensor, array):
    """``array`` (the value ``grad`` binds for ``tensor``) through ``tensor``'s hooks, if it has any."""
    if not _leaf_tables:
        return array
    entry = _leaf_tables.get(id(tensor))
    if entry is None or not entry[1] or entry[0]() is not tensor:
        return array
    return hooked_identity(array, entry[1])


def leaf_hook_tables(args):
    """``(position, table)`` of each positional Tensor in ``args`` with leaf hooks (``()`` when none).

    ``ms.jit`` keys its programs on them and hands the tables to the Tensors it rebuilds from the
    traced values (``share_leaf_hooks``), so a gradient inside sees the caller's hooks (MindSpore)."""
    if not _leaf_tables:
        return ()
    found = []
    for position, value in enumerate(args):
        entry = _leaf_tables.get(id(value))
        if entry is not None and entry[1] and entry[0]() is value:
            found.append((position, entry[1]))
    return tuple(found)


def share_leaf_hooks(args, tables):
    """Give the rebuilt ``args`` the leaf hook ``tables`` (from ``leaf_hook_tables``) of the caller's Tensors."""
    for position, table in tables:
        tensor = args[position]
        key = id(tensor)
        _leaf_tables[key] = (weakref.ref(tensor, _forget(_leaf_tables, key)), table)


def has_leaf_hooks(values):
    """True when one of ``values`` is a Tensor with leaf hooks (one dict check when none exist)."""
    if not _leaf_tables:
        return False
    for value in values:
        entry = _leaf_tables.get(id(value))
        if entry is not None and entry[1] and entry[0]() is value:
            return True
    return False


def remove_hook_by_id(handle_id):
    """Remove the hook registered under ``handle_id`` (``Tensor.remove_hook``); returns whether one was found."""
    for tables in (_leaf_tables, _traced_tables):
        for entry in list(tables.values()):
            table = entry[1]
            if handle_id in table:
                del table[handle_id]
                if tables is _leaf_tables:
                    _LEAF_OWNER.changed()
                return True
    return False

"""Writes through views in traced code (GRAPH mode, ``ms.jit``, a differentiated call), as PyNative does them.

``x[0]``, ``x.T``, ``mint.select``, ``x.view(...)`` and the other view ops record their traced results in
``views.TRACED`` (root, and ``select``: the view op as a function of the root's array). A write into a Tensor's
slot under a trace (``rebind``: ``v[1] = 5``, ``v.add_(1)``, ``ops.assign``) then comes here:

- a write into a view scatters its new values into the root, functionally: the root's slot gets a new traced
  array (a scatter through the view's element numbers, worked out while tracing, so the program holds them as
  a constant), then the root's other live views are read again from it;
- a write into a root reads its live views again (``y.add_(1)`` shows in ``v = y[0]``).

A Parameter root is stored through ``check_store`` (the lift writes it back after the call, as any update of a
Parameter); an input Tensor root is noted as updated in place when the write into its view was one
(``v.add_(1)``, ``ops.assign``), so the compiled call hands it back to the caller's Tensor; an index assignment
``v[1] = 5`` changes it inside the function only, as ``x[1] = 5`` does. Nothing is added to a trace where no
view is written. A root that the running trace cannot rebind (a Tensor made outside the compiled function, or
outside the branch or loop body being traced) raises NotImplementedError instead of losing the write; its
message says "being compiled", so ``ms.jit`` and GRAPH_MODE run such a function eagerly (warned), with
PyNative's values, as for other Python they cannot compile (``state.fallback.is_untraceable``).

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> @ms.jit
    ... def f(x):
    ...     y = x * 1
    ...     y[0][1] = 5.0
    ...     return y
    >>> f(ms.Tensor(np.zeros((2, 2), np.float32))).asnumpy().tolist()
    [[0.0, 5.0], [0.0, 0.0]]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import jax_private
from sporax.core.parameter import Parameter
from sporax.state import views
from sporax.state.arguments import note_in_place, noted_in_place
from sporax.state.guards import check_store

_LINKS = views.TRACED


def after_write(tensor, op_name):
    """Propagate the traced array just stored in ``tensor``'s slot (by ``op_name``) to the Tensors sharing it."""
    key = id(tensor)
    if key in _LINKS.root_of:
        parent = views.parent_of(tensor, _LINKS)
        if parent is not None:
            root, select = parent
            if _write_into_root(root, tensor, select, op_name):
                views.refresh(root, tensor, _LINKS)
            return
    if key in _LINKS.views_of:
        views.refresh(tensor, None, _LINKS)


def _write_into_root(root, view, select, op_name):
    """Store ``root`` with ``view``'s values scattered in; False (the link dropped) where they no longer line up."""
    array, values = root._array, view._array
    if not jax_private.of_current_trace(array) and not isinstance(root, Parameter):
        raise NotImplementedError(
            f"For '{op_name}', the written Tensor (shape {tuple(values.shape)}) is a view of a Tensor of shape "
            f"{tuple(array.shape)} that the code being compiled cannot update: it was made outside the compiled "
            "function (a captured constant) or outside the if/loop body being traced. Write into the Tensor itself, "
            "pass it to the compiled function as an argument, or copy it first (v = x[0] * 1) if it should not change.")
    with jax.ensure_compile_time_eval():  # the element numbers are constants of the program, not traced ops
        try:
            positions = select(jnp.arange(array.size, dtype=jnp.int32).reshape(array.shape))
        except (TypeError, ValueError, IndexError):
            positions = None
    if positions is None or tuple(positions.shape) != tuple(values.shape):
        _LINKS.root_of.pop(id(view), None)  # given another shape (set_, assign_value): it keeps its values
        return False
    if isinstance(positions, jax.core.Tracer):
        raise NotImplementedError(
            f"For '{op_name}', the written Tensor (shape {tuple(values.shape)}) is a view of a Tensor of shape "
            f"{tuple(array.shape)} taken at positions that depend on values being compiled, which the compiled "
            "write cannot scatter back. Take the view with Python ints, or write into the Tensor itself.")
    positions = np.asarray(positions).reshape(-1)
    values = values.reshape(-1).astype(array.dtype)
    flat = array.reshape(-1)
    if positions.size == flat.size and np.array_equal(positions, np.arange(flat.size)):
        updated = values  # the whole root in order (reshape, view, Parameter.data)
    elif np.unique(positions).size == positions.size:
        updated = flat.at[positions].set(values, unique_indices=True)
    else:
        updated = _set_repeated(flat, positions, values, select(array).reshape(-1))
    updated = updated.reshape(array.shape)
    if isinstance(root, Parameter):
        check_store(root, updated, op_name)
    root._array = updated
    root._init = None
    if noted_in_place(view):  # an in-place update of the view is one of its root (the caller's input Tensor)
        note_in_place(root)
    return True


def _set_repeated(flat, positions, values, old):
    """A broadcast view holds a root element several times: the last copy whose value changed sets it (the copies
    left alone must not write the old value back over the new one, as the eager write keeps them)."""
    order = jnp.arange(1, values.size + 1, dtype=jnp.int32)
    last = jnp.zeros(flat.shape, jnp.int32).at[positions].max(jnp.where(values != old, order, 0))
    return jnp.where(last > 0, values[jnp.maximum(last - 1, 0)], flat)

"""``saved_tensors_hooks``: pack and unpack the tensors a gradient saves between forward and backward.

sporax differentiates with ``jax.vjp``: the forward pass returns a pullback holding the residuals
(the forward values the backward pass needs: an input of a product, the output of ``exp`` ...).
When hooks are active around a gradient call, or are entered during its forward pass (a ``with``
block or ``register_saved_tensors_hooks`` inside the differentiated function, as MindSpore's
examples do), every residual array is handed to ``pack_hook`` (as a Tensor) after the forward
pass, and the pullback runs on what ``unpack_hook`` returns for each packed object. Two
differences from MindSpore's PyNative, which packs each tensor as an op saves it, during the
forward: JAX's residuals exist only once the whole forward pass has run (so packing follows it),
and they are kept together, so hooks entered inside the function apply to every tensor it saves,
not only to those of the ops inside the ``with`` block (both pinned in the saved-tensors tests).
In PyNative a gradient whose function enters hooks runs eagerly, so the hooks see (and may keep)
the saved tensors' values on every call. Inside a compiled program (GRAPH mode, ``ms.jit``) the
hooks run on the traced values, as ``register_saved_tensors_hooks`` does there.

``pack_saved``/``unpack_saved`` are the one packing mechanism: the global hooks here and the per-Cell
``Cell.register_saved_tensors_hooks`` (across its ``jax.custom_vjp`` boundary, ``nn/cell_hooks.py``) both use them.
"""
import contextlib
import functools
import threading

import jax

from sporax.core.context import GRAPH_MODE, get_mode
from sporax.core.tensor import Tensor
from sporax.state.discovery import hooks_changed
from sporax.state.fallback import ExplainedFallback, compiling_pynative
from sporax.state.scope import in_compiled_trace

_active = threading.local()


def _stack():
    if not hasattr(_active, "hooks"):
        _active.hooks = []
    return _active.hooks


def hooks_active():
    """Whether a ``saved_tensors_hooks`` context is active in this thread."""
    return bool(getattr(_active, "hooks", None))


@contextlib.contextmanager
def forward_region():
    """Around a forward pass: yields the list of the (pack, unpack) hooks entered during it."""
    if not hasattr(_active, "regions"):
        _active.regions = []
    seen = []
    _active.regions.append(seen)
    try:
        yield seen
    finally:
        _active.regions.pop()


def check_hooks(pack_hook, unpack_hook, api):
    """Raise a TypeError naming ``api`` unless both hooks are callable."""
    for name, hook in (("pack_hook", pack_hook), ("unpack_hook", unpack_hook)):
        if not callable(hook):
            raise TypeError(f"For '{api}', the '{name}' must be callable, but got {type(hook).__name__}.")


def _is_array(value):
    return isinstance(value, (jax.Array, jax.core.Tracer))


def pack_saved(pullback, pack_hook):
    """Pack every saved tensor of ``pullback`` (its array leaves, the VJP's residuals) with ``pack_hook``.

    Returns ``(arrays, layout)``: the arrays inside what ``pack_hook`` returned (the only part that may cross a
    ``jax.custom_vjp`` boundary as a residual) and the static rest, for :func:`unpack_saved`.
    """
    leaves, pullback_tree = jax.tree_util.tree_flatten(pullback)
    saved = [_is_array(leaf) for leaf in leaves]
    packed = [pack_hook(Tensor._wrap(leaf)) for leaf, is_saved in zip(leaves, saved) if is_saved]
    packed_leaves, packed_tree = jax.tree_util.tree_flatten(packed, is_leaf=lambda value: isinstance(value, Tensor))
    is_packed_array = [isinstance(leaf, Tensor) or _is_array(leaf) for leaf in packed_leaves]
    arrays = [leaf._value if isinstance(leaf, Tensor) else leaf
              for leaf, is_array in zip(packed_leaves, is_packed_array) if is_array]
    layout = (pullback_tree, [None if is_saved else leaf for leaf, is_saved in zip(leaves, saved)],
              [(leaf.shape, leaf.dtype) for leaf, is_saved in zip(leaves, saved) if is_saved],
              packed_tree, [None if is_array else leaf for leaf, is_array in zip(packed_leaves, is_packed_array)],
              is_packed_array)
    return arrays, layout


def unpack_saved(arrays, layout, unpack_hook, api):
    """The pullback :func:`pack_saved` packed, each saved tensor restored by ``unpack_hook`` (errors name ``api``)."""
    pullback_tree, leaves, saved_avals, packed_tree, static, is_packed_array = layout
    arrays = iter(arrays)
    packed_leaves = [Tensor._wrap(next(arrays)) if is_array else leaf
                     for leaf, is_array in zip(static, is_packed_array)]
    restored = []
    for item, (shape, dtype) in zip(jax.tree_util.tree_unflatten(packed_tree, packed_leaves), saved_avals):
        unpacked = unpack_hook(item)
        if not isinstance(unpacked, Tensor):
            raise TypeError(f"For '{api}', the unpack_hook must return a Tensor, but got {type(unpacked).__name__}.")
        value = unpacked._value
        if value.shape != shape:
            raise ValueError(f"For '{api}', the unpack_hook returned a tensor of shape {value.shape} for a saved "
                             f"tensor of shape {shape}: it must restore the saved shape.")
        restored.append(value.astype(dtype))
    restored = iter(restored)
    return jax.tree_util.tree_unflatten(pullback_tree, [next(restored) if leaf is None else leaf for leaf in leaves])


def pass_through_hooks(pullback, seen=()):
    """``pullback`` with its residuals packed and unpacked by the innermost active hooks, else by the first
    hooks ``seen`` during the forward pass (as is without any)."""
    if hooks_active():
        pack_hook, unpack_hook = _stack()[-1]
    elif seen:
        pack_hook, unpack_hook = seen[0]
    else:
        return pullback
    # Every saved tensor is packed after the forward pass, then unpacked for the backward pass.
    arrays, layout = pack_saved(pullback, pack_hook)
    return unpack_saved(arrays, layout, unpack_hook, "saved_tensors_hooks")


class saved_tensors_hooks:  # noqa: N801 - MindSpore's class name
    """Context manager: the tensors gradients save inside it go through ``pack_hook``/``unpack_hook``.

    Args:
        pack_hook (Callable): ``pack_hook(tensor) -> Any``, called on each saved tensor after the forward pass.
        unpack_hook (Callable): ``unpack_hook(packed) -> Tensor``, called before the backward pass uses it.

    Example:
        >>> import numpy as np
        >>> import sporax as ms
        >>> x = ms.Tensor(np.array([1.0, 2.0], np.float32))
        >>> w = ms.Tensor(np.array([3.0, 4.0], np.float32))
        >>> with ms.saved_tensors_hooks(lambda t: t, lambda t: t * 2):
        ...     grads = ms.grad(lambda x, w: (x * w).sum(), grad_position=(0, 1))(x, w)
        >>> grads[1].asnumpy().tolist()
        [2.0, 4.0]
    """

    def __init__(self, pack_hook, unpack_hook):
        check_hooks(pack_hook, unpack_hook, "saved_tensors_hooks")
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if compiling_pynative():
            # PyNative hands pack_hook the saved tensors' values on every call (it may print or keep them);
            # a gradient program compiled once would hand it placeholders, so the gradient runs eagerly.
            raise ExplainedFallback("saved_tensors_hooks inside a PyNative gradient: its hooks run with the "
                                    "saved tensors' values on every call.")
        _stack().append((self.pack_hook, self.unpack_hook))
        hooks_changed()  # a PyNative gradient's straight path must see the hooks (sporax.autodiff.grad)
        regions = getattr(_active, "regions", None)
        if regions:
            regions[-1].append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        _stack().pop()
        hooks_changed()


def register_saved_tensors_hooks(pack_hook, unpack_hook):
    """Decorator: run the function with ``saved_tensors_hooks(pack_hook, unpack_hook)`` active.

    MindSpore's GRAPH-mode form of :class:`saved_tensors_hooks`: the hooks run on the traced values, inside an
    ``ms.jit`` function or in GRAPH_MODE; a PyNative call runs the function without them, as in MindSpore.

    Args:
        pack_hook (Callable): ``pack_hook(tensor) -> Any``.
        unpack_hook (Callable): ``unpack_hook(packed) -> Tensor``.

    Returns:
        Callable, the decorator.

    Example:
        >>> import sporax as ms
        >>> @ms.register_saved_tensors_hooks(lambda t: t, lambda t: t)
        ... def loss(x, w):
        ...     return (x * w).sum()
    """
    check_hooks(pack_hook, unpack_hook, "register_saved_tensors_hooks")

    def decorator(function):
        @functools.wraps(function)
        def hooked(*args, **kwargs):
            # MindSpore 2.10 applies the decorator's hooks in graphs alone (an ``ms.jit`` function, GRAPH_MODE):
            # a PyNative call runs the function with no hooks (the ``with`` form is PyNative's)
            if not (in_compiled_trace() or get_mode() == GRAPH_MODE):
                return function(*args, **kwargs)
            with saved_tensors_hooks(pack_hook, unpack_hook):
                return function(*args, **kwargs)

        return hooked

    return decorator


"""``swap_tensors``: exchange the contents of two Tensor objects in place (identities kept).

After ``swap_tensors(a, b)``, ``a`` holds what ``b`` held (class, value, attributes) and the other
way round, while ``id(a)`` and ``id(b)`` stay. As in MindSpore, Tensors that something holds a
weak reference to, or whose classes lay out their slots differently (a Tensor and a Parameter),
are refused. Values being traced (inside ``ms.jit`` or a gradient) are refused too: the swap would
outlive the trace.

Example:
    >>> import sporax as ms
    >>> a, b = ms.Tensor([1.0, 2.0]), ms.Tensor([3, 4, 5])
    >>> ms.swap_tensors(a, b)
    >>> a.asnumpy().tolist(), b.asnumpy().tolist()
    ([3, 4, 5], [1.0, 2.0])
"""
import weakref

import jax

from sporax.core.tensor import Tensor

_MISSING = object()


def _slot_names(cls):
    names = []
    for klass in cls.__mro__:
        for name in getattr(klass, "__slots__", ()):
            if name not in ("__weakref__", "__dict__") and name not in names:
                names.append(name)
    return names


def _layout(cls):
    return _slot_names(cls), cls.__basicsize__, cls.__dictoffset__, cls.__weakrefoffset__


def swap_tensors(t1, t2):
    """Swap the contents of two Tensors in place.

    Args:
        t1 (Tensor): the first Tensor.
        t2 (Tensor): the second Tensor.

    Raises:
        TypeError: an argument is not a Tensor.
        RuntimeError: a Tensor has weak references, their slot layouts differ, or one is traced.
    """
    for name, tensor in (("t1", t1), ("t2", t2)):
        if not isinstance(tensor, Tensor):
            raise TypeError(f"For 'swap_tensors', '{name}' must be a Tensor, but got {type(tensor).__name__}.")
        if weakref.getweakrefcount(tensor):
            raise RuntimeError(f"For 'swap_tensors', cannot swap '{name}': it has weak references.")
        if isinstance(tensor._array, jax.core.Tracer):
            raise RuntimeError(f"For 'swap_tensors', cannot swap '{name}' while it is being traced (inside ms.jit "
                               "or a gradient).")
    slots = _slot_names(type(t1))
    if _layout(type(t1)) != _layout(type(t2)):
        raise RuntimeError(f"For 'swap_tensors', the slots of {type(t1).__name__} and {type(t2).__name__} differ.")
    if t1 is t2:
        return
    t1.__class__, t2.__class__ = t2.__class__, t1.__class__
    for name in slots + (["__dict__"] if hasattr(t1, "__dict__") and hasattr(t2, "__dict__") else []):
        first, second = getattr(t1, name, _MISSING), getattr(t2, name, _MISSING)
        for target, value in ((t1, second), (t2, first)):
            if value is _MISSING:
                if hasattr(target, name):
                    delattr(target, name)
            else:
                setattr(target, name, value)

"""Shared pieces of the Tensor method table: the resolved ops (``functional``) and argument readers.

``functional`` holds the functional ops the adapters call, looked up once by ``tensor_methods.install``
in ``sporax.ops`` (then in its ``functional`` families), so a method costs one attribute lookup.
"""
import importlib
import numbers
import sys

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor

wrap = Tensor._wrap
_FAMILIES = ("arithmetic", "math", "reduce", "comparison", "array", "creation", "indexing", "linalg",
             "slicing", "sorting", "activation", "random")


class _Ops:
    """The functional ops, looked up once by ``install`` (``sporax.ops``, then its families)."""


functional = _Ops()


def _find(name):
    ops = sys.modules.get("sporax.ops")
    function = getattr(ops, name, None) if ops is not None else None
    if callable(function) and not isinstance(function, type):
        return function
    for family in _FAMILIES:
        try:
            module = importlib.import_module(f"sporax.ops.functional.{family}")
        except ImportError:
            continue
        function = getattr(module, name, None)
        if callable(function) and not isinstance(function, type):
            return function
    return None


def _shape_args(args, kwargs, name="shape"):
    """``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])`` or ``f(shape=(2, 3))`` -> a tuple of ints."""
    if name in kwargs:
        value = kwargs.pop(name)
        return (value,) if isinstance(value, numbers.Integral) else tuple(value)
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    if len(args) == 1 and isinstance(args[0], Tensor):
        return tuple(int(v) for v in args[0].asnumpy().reshape(-1))
    return tuple(args)


def _pick(kwargs, names, default=None):
    """The value of the first of ``names`` present in ``kwargs`` (MindSpore's two spellings)."""
    for name in names:
        if name in kwargs:
            return kwargs.pop(name)
    return default


def _no_more(method, kwargs):
    if "out" in kwargs and kwargs["out"] is None:
        del kwargs["out"]  # NumPy's reductions (np.any(t), np.sum(t)) call the method with out=None
    if kwargs:
        raise TypeError(f"Tensor.{method}() got unexpected keyword arguments {sorted(kwargs)}.")


def _cast(tensor, dtype):
    """``tensor`` itself when it already has ``dtype``, else ``ops.cast``'s result (the Tensor methods' casts).

    Through ``ops.cast``'s table entry, whose eager kernel is compiled once per dtype pair: a float-to-integer
    ``convert`` run op by op in PyNative is eight eager XLA calls (~180 us against ~10 us a cast).
    """
    if tensor._value.dtype == mstype.to_numpy_dtype(mstype.normalize(dtype)):
        return tensor
    return functional.cast(tensor, dtype)

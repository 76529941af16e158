"""Tensor methods name themselves ``Tensor.<name>`` in Python's own argument errors, as MindSpore's do.

MindSpore 2.10's Python-level Tensor methods are defined in the class, so a wrong call reads
``Tensor.item() takes 1 positional argument but 2 were given``; sporax's methods are the table's functions
(``item``, ``astype``, lambdas), which Python would name ``item()`` or ``<lambda>()``. ``install()`` runs
last in ``sporax.ops``: each method function gets a copy whose code is named ``Tensor.<name>`` (a copy, so
that the functional op keeps its own name in its errors).
"""
import functools
import sys
import types

from sporax.core.tensor import Tensor


def _named_copy(function, qualified):
    code = function.__code__.replace(co_qualname=qualified)
    copy = types.FunctionType(code, function.__globals__, function.__name__, function.__defaults__,
                              function.__closure__)
    functools.update_wrapper(copy, function, updated=())
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__dict__.update(function.__dict__)
    copy.__qualname__ = qualified
    return copy


def install():
    """Rename each Tensor method function's code to ``Tensor.<name>`` (idempotent)."""
    if sys.version_info < (3, 11):  # Python 3.10 names the function in these errors by its plain name only
        return
    for name, attribute in list(vars(Tensor).items()):
        qualified = f"Tensor.{name}"
        if isinstance(attribute, types.FunctionType) and attribute.__code__.co_qualname != qualified:
            setattr(Tensor, name, _named_copy(attribute, qualified))


install()

"""Resolve a MindSpore Primitive name (as a MindIR file stores it) to sporax's Primitive class.

This is the one place a Primitive name becomes a class: MindIR loading and any other reader of
MindSpore's graphs call ``primitive_class``; there is no second list of ops.

Example:
    >>> from sporax.ops.primitive_lookup import primitive_class
    >>> primitive_class("ReLU").__name__
    'ReLU'
"""
import inspect

from sporax.ops.primitive import Primitive


def primitive_class(name):
    """The Primitive subclass MindSpore calls ``name`` (``"Conv2D"``), or None when sporax has none."""
    import sporax.ops as ops_namespace
    from sporax.ops import operations

    for namespace in (operations, ops_namespace):
        candidate = getattr(namespace, name, None)
        if inspect.isclass(candidate) and issubclass(candidate, Primitive):
            return candidate
    return None

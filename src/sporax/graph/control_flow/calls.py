"""Calls in converted code: user functions run converted, MindSpore's graph errors for calls that do not fit.

``runtime`` re-exports these names: the converted code calls ``runtime.call``, ``runtime.item`` and the rest.
"""
import inspect
import sys
import types

import numpy as np

from sporax.core import context
from sporax.core.tensor import Tensor
from sporax.graph.control_flow import call_arguments, instance_creation, interpreted_calls, list_methods, switch
from sporax.graph.control_flow.sequences import SEQUENCE_BUILTINS
from sporax.graph.control_flow.transformer import INLINE_LAMBDA
from sporax.state.discovery import is_cell
from sporax.state.scope import compiled_depth


def item(value, index):
    """``value[index]`` in ``value[index](...)``: a tuple or list of Cells or functions indexed by a traced
    Tensor selects at run time (``switch``)."""
    if isinstance(value, (tuple, list)) and value and all(callable(candidate) for candidate in value):
        traced = switch.traced_index(index) if isinstance(index, Tensor) else None
        if traced is not None:
            return switch.SelectedCall(value, traced, type(value).__name__)
    return value[index]


_LIBRARY_PREFIXES = ("sporax.", "jax.", "jax", "numpy", "mindspore", "builtins", "functools", "math", "operator")


_SCALAR_BUILTINS = (float, int, complex)


def call(function, *args, **kwargs):
    """A call in converted code: user functions and methods run converted, everything else as is; arguments
    that do not fit a Python function raise MindSpore's graph errors (``call_arguments``)."""
    if type(getattr(function, "__self__", None)) is dict and getattr(function, "__name__", "") == "pop" and \
            isinstance(function, types.BuiltinMethodType):
        return list_methods.dict_pop(function, sys._getframe(1), args, kwargs)
    if type(getattr(function, "__self__", None)) is dict and getattr(function, "__name__", "") == "update" and \
            isinstance(function, types.BuiltinMethodType):
        list_methods.check_dict_update(kwargs)
    try:
        return _call(function, args, kwargs)
    except TypeError:
        error = call_arguments.graph_error(function, args, kwargs)
        if error is None:
            raise
        raise error from None


def _call(function, args, kwargs):
    instance_creation.check(function, args, kwargs)  # Parameter(...), a @jit_class of run-time values
    if function in _SCALAR_BUILTINS and len(args) == 1 and not kwargs and isinstance(args[0], np.ndarray) \
            and args[0].size == 1:
        # MindSpore's graph converts a one-element array (`float(x.asnumpy())` on shape (1,));
        # NumPy 2 refuses arrays of rank > 0 there.
        return function(args[0].reshape(()).item())
    try:
        sequence_builtin = SEQUENCE_BUILTINS.get(function)
    except TypeError:  # an unhashable callable
        sequence_builtin = None
    if sequence_builtin is not None:
        return sequence_builtin(*args, **kwargs)
    interpreted_calls.refuse_below_lax(function, args, kwargs)
    if isinstance(getattr(function, "__self__", None), str) and getattr(function, "__name__", None) == "format":
        _check_format(args, kwargs)
    owner = getattr(function, "__self__", None)
    if type(owner) is list and isinstance(function, types.BuiltinMethodType):
        name = getattr(function, "__name__", "")
        list_methods.check(name, owner, args, kwargs)
        result = function(*args, **kwargs)
        list_methods.note(name, owner)
        return list_methods.counted(name, owner, result)
    if isinstance(owner, list):
        list_methods.check(getattr(function, "__name__", ""), owner, args, kwargs)
    plain = getattr(function, "__func__", function)
    if isinstance(plain, types.FunctionType):
        module = plain.__module__ or ""
        if not (module.startswith(_LIBRARY_PREFIXES) or module == "sporax" or interpreted_calls.python_library(module)):
            from sporax.graph.control_flow.convert import converted
            from sporax.graph.helper_changes import active

            changes = active()
            if changes is not None:  # MindSpore inlines the helper, on copies of the outside lists and dicts
                return changes.call(converted(function, check_syntax=False), plain, args, kwargs)
            return converted(function, check_syntax=False)(*args, **kwargs)
    elif is_cell(function) and function._hooks is None and function._cast_type is None and \
            context.get_mode() != context.GRAPH_MODE:
        from sporax.graph.cell_jit import run_construct

        return run_construct(function, args, kwargs)  # a PyNative Cell inside ms.jit: its construct converted
    if getattr(type(function), "__ms_class__", False) and not callable(function):
        raise ValueError(f"MsClassObject: '{type(function).__name__}' has no __call__ function, please check the "
                         f"code. Define __call__ on the @jit_class class to call its instances.")
    if not callable(function):
        raise ValueError(f"The object is not callable. Please check code. ({type(function).__name__} "
                         f"{function!r:.60} is called in compiled code.)")
    return function(*args, **kwargs)


def _check_format(args, kwargs):
    """``str.format`` in MindSpore's graph: a Tensor passed by keyword is lost (KeyError) and a Cell cannot be
    formatted (TypeError), where Python would format both."""
    for position, value in enumerate(args):
        if is_cell(value):
            raise TypeError(f"Unsupported parameter type for python primitive, the parameter value is DeadNode: "
                            f"str.format() in compiled code got a Cell ({type(value).__name__}) as argument "
                            f"{position}; format its attributes instead.")
    for name, value in kwargs.items():
        if is_cell(value):
            raise TypeError(f"Unsupported parameter type for python primitive, the parameter value is DeadNode: "
                            f"str.format() in compiled code got a Cell ({type(value).__name__}) as '{name}'; "
                            "format its attributes instead.")
        if isinstance(value, Tensor):
            raise KeyError(f"{name!r}: str.format() in compiled code takes a Tensor as a positional argument only "
                           f"(MindSpore's graph loses keyword ones); write '{{0}}' and pass it first.")


def call_instance(owner, instance, *args, **kwargs):
    """``self(...)`` in a compiled method of the plain class ``owner`` (its qualified name): MindSpore's graph
    holds an instance of that class as a namespace of its members, which cannot be called (a Cell can, and
    so can another object passed in its place, or the instance when an outer compiled function, whose
    argument it is, calls the method: MindSpore inlines it there)."""
    if (not is_cell(instance) and compiled_depth() <= 1
            and any(cls.__qualname__ == owner for cls in type(instance).__mro__)):
        raise ValueError(f"The object is not callable. Please check code. (A compiled method of "
                         f"'{type(instance).__name__}' calls its instance 'self(...)': MindSpore's graph compiler "
                         "keeps an instance of a plain class as its members only; call a method instead, e.g. "
                         "self.__call__(...), or pass the object as an argument of a compiled function.)")
    return call(instance, *args, **kwargs)


def unbound_in_graph(member):
    """Whether MindSpore's graph calls the class function ``member`` without the instance: a plain function
    whose first parameter is not named ``self`` (``def func(x, y)`` in a Cell's body)."""
    if not isinstance(member, types.FunctionType):
        return False
    code = member.__code__
    if code.co_argcount == 0:
        return not code.co_flags & inspect.CO_VARARGS  # no *args: a call with no arguments fits it
    return code.co_varnames[0] != "self"


def plain_member(instance, name):
    """``instance.name`` as MindSpore's graph reads it: the class's own function, unbound, when
    ``unbound_in_graph`` says so (``self.func(a, b)`` calls ``func(a, b)``); otherwise the usual attribute."""
    raw = inspect.getattr_static(instance, name, None)
    if unbound_in_graph(raw) and name not in getattr(instance, "__dict__", {}):
        return raw
    return getattr(instance, name)


def inline_lambda(function):
    """A lambda written inside converted code, marked so that calling it skips the placement check
    MindSpore applies to lambdas from outside (``convert._check_lambda_placement``)."""
    setattr(function, INLINE_LAMBDA, True)
    return function

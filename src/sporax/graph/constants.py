"""``mutable`` (trace a value that would be a constant) and ``constexpr`` (compute at trace time)."""
import functools
import os
import sys
import types

import numpy as np

from sporax.core.tensor import Tensor
from sporax.graph.control_flow.values import Undefined
from sporax.state.discovery import is_cell
from sporax.state.fallback import python_print
from sporax.state.arguments import MutableMarker
from sporax.state.scope import compiling_graph, graph_constant_cache


class MutableTuple(MutableMarker, tuple):
    """A tuple whose scalars and Tensors are traced inputs, not constants (``mutable``)."""

    __slots__ = ()


class MutableList(MutableMarker, list):
    """A list whose scalars and Tensors are traced inputs (``mutable``)."""

    __slots__ = ()


class MutableDict(MutableMarker, dict):
    """A dict whose scalar values and Tensors are traced inputs (``mutable``)."""

    __slots__ = ()


class MutableInt(MutableMarker, int):
    """An int passed to a compiled function as a traced scalar (``mutable``)."""

    __slots__ = ()


class MutableFloat(MutableMarker, float):
    """A float passed to a compiled function as a traced scalar (``mutable``)."""

    __slots__ = ()


class MutableBool(MutableMarker, int):
    """A bool passed to a compiled function as a traced scalar (``mutable(True)``).

    Python's ``bool`` cannot be subclassed, so, as MindSpore's ``_Bool``, it is an int that reports
    ``bool`` as its class: ``isinstance(mutable(True), bool)`` holds and it prints as ``True``.
    """

    __slots__ = ()

    @property
    def __class__(self):
        return bool

    def __repr__(self):
        return "True" if self else "False"

    __str__ = __repr__

    def __and__(self, other):
        return bool(self) & other

    def __or__(self, other):
        return bool(self) | other

    def __xor__(self, other):
        return bool(self) ^ other

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__



# type(mutable(x)).__name__ is MindSpore's (_Tuple, _List, ...: scripts print it); the aliases keep each class
# findable under that name, so pickling still works.
_Tuple, _List, _Dict, _Int, _Float, _Bool = MutableTuple, MutableList, MutableDict, MutableInt, MutableFloat, MutableBool
for _class, _name in ((MutableTuple, "_Tuple"), (MutableList, "_List"), (MutableDict, "_Dict"), (MutableInt, "_Int"),
                      (MutableFloat, "_Float"), (MutableBool, "_Bool")):
    _class.__name__ = _class.__qualname__ = _name


def _in_graph():
    from sporax.graph.jit import in_eager_fallback  # jit's modules import this one

    return compiling_graph() or in_eager_fallback()


def mutable(input_data, dynamic_len=False):
    """Make a constant input of a compiled function variable: it is traced instead of baked in.

    Args:
        input_data (Union[Tensor, tuple, list, dict, bool, int, float]): the value.
        dynamic_len (bool): MindSpore's dynamic-length sequences; sporax compiles per length. Default: False.

    Returns:
        The value, marked so that changing it does not recompile.
    """
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"For 'mutable', the 'dynamic_len' must be bool, but got {type(dynamic_len).__name__}.")
    if dynamic_len and isinstance(input_data, (Tensor, bool, int, float, dict)):
        raise TypeError("For 'mutable', when the variable_len is True, the first input should be list or tuple, "
                        f"but got: {type(input_data).__name__}")
    if isinstance(input_data, Tensor):
        return input_data
    if isinstance(input_data, np.generic) and _in_graph():
        # MindSpore's graph compiler reads a NumPy scalar (an item of an ndarray argument) as the Python number;
        # eager mutable(np.int64(1)) stays a TypeError there as here
        input_data = input_data.item()
    if isinstance(input_data, bool):
        return MutableBool(input_data)
    if isinstance(input_data, int):
        return MutableInt(input_data)
    if isinstance(input_data, float):
        return MutableFloat(input_data)
    if isinstance(input_data, tuple):
        return MutableTuple(input_data)
    if isinstance(input_data, list):
        return MutableList(input_data)
    if isinstance(input_data, dict):
        return MutableDict(input_data)
    raise TypeError("For 'mutable', the 'input_data' should be one of (bool, int, float, Tensor, tuple, list, dict) "
                    f"or their nested structures with no self-reference, but got {type(input_data).__name__}: "
                    f"{input_data}.")


def _graph_constant(value):
    """What a constexpr function receives for ``value`` while a graph is built.

    MindSpore's compiler hands a constexpr function the constant value of each argument; a function,
    a method or a Cell has none there, so the function receives None (a class, a plain object, a
    Primitive, numbers, strings and Tensors pass through). Containers are converted item by item.
    """
    if isinstance(value, (tuple, list)):
        return type(value)(_graph_constant(item) for item in value)
    if isinstance(value, type):
        return value
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, types.MethodType, functools.partial)):
        return None
    if is_cell(value):
        return None
    from sporax.graph.jit import JitFunction

    if isinstance(value, JitFunction):
        return None
    return value


def constexpr(fn=None, get_instance=True, name=None, reuse_result=True, check=True):
    """Mark a function that computes constants from static inputs while compiling.

    sporax runs Python at trace time, so the function simply runs with its (static) arguments. As in
    MindSpore, while a graph is built (``ms.jit``, GRAPH_MODE) an argument that is a function or a
    Cell reaches it as None; in PyNative it gets the object itself.

    Args:
        fn (function): the function. When None, ``constexpr(...)`` returns a decorator.
        get_instance, name, reuse_result, check: MindSpore's options for the Primitive it builds;
            sporax builds none, so they do not change the result.

    Returns:
        function, called with the arguments described above.

    Example:
        >>> @constexpr
        ... def is_none(value):
        ...     return value is None
        >>> is_none(len)
        False
    """
    def decorate(function):
        @functools.wraps(function)
        def call(*args, **kwargs):
            from sporax.graph.jit import in_compiled_trace

            if not in_compiled_trace():
                return function(*args, **kwargs)
            args = tuple(_graph_constant(value) for value in args)
            kwargs = {key: _graph_constant(value) for key, value in kwargs.items()}
            with python_print():  # it runs at compile time: its prints are not the graph's Print operators
                return _evaluate_once(function, args, kwargs)

        return call

    if fn is None:
        return decorate
    return decorate(fn)


_SPORAX_DIRECTORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _signature(value):
    """A hashable stand-in for ``value`` as MindSpore's compiler specialises a graph on it: a Tensor by
    its shape and dtype, a container item by item, a hashable constant by its type and value, anything
    else (a Cell, an array) by identity."""
    if isinstance(value, (tuple, list)):
        return (type(value).__name__,) + tuple(_signature(item) for item in value)
    if isinstance(value, dict):
        return ("dict",) + tuple((key, _signature(item)) for key, item in sorted(value.items(), key=repr))
    if isinstance(value, Undefined):
        # a loop-carried name the loop assigns after the call (mindyolo's YOLOv7 loss): any attribute
        # lookup on it raises, so it stands for itself by name
        return ("undefined", value.name)
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if isinstance(shape, tuple) and dtype is not None and not isinstance(value, (int, float, bool)):
        return ("tensor", tuple(shape), str(dtype))
    try:
        hash(value)
    except TypeError:
        return ("object", id(value))
    return (type(value).__name__, value)


def _calling_frame():
    """The frame of the user's function that called the constexpr (sporax's own wrappers skipped)."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_SPORAX_DIRECTORY):
        frame = frame.f_back
    return frame


def _evaluate_once(function, args, kwargs):
    """Run a constexpr function as MindSpore's graph compiler does.

    The compiler evaluates each function graph once for each signature of its arguments (the Cell, the
    shapes and dtypes of Tensors, the values of constants), so a constexpr called by a function that
    runs twice with one signature in one graph (a Cell's forward pass and the gradient of that Cell, a
    helper called twice) runs once and both calls get its result; the calls of one run (an unrolled
    loop) each run. It matters where the function has effects: ``np.random`` draws (a WGAN-GP's
    interpolation weights) are drawn once per graph. sporax runs the Python of each call, so the
    results are kept for the outermost trace and handed out again in call order.
    """
    cache = graph_constant_cache()
    frame = _calling_frame()
    try:
        arguments = _signature((args, kwargs))
        if frame is None or cache is None:
            raise TypeError("no caller")
        frames = cache.setdefault("frames", {})
        record = frames.get(id(frame))
        if record is None or record[0] is not frame:
            code = frame.f_code
            names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
            caller = (code, _signature(tuple(frame.f_locals.get(name) for name in names)))
            record = frames[id(frame)] = [frame, caller, 0]
        key = (record[1], record[2], function, arguments)
        record[2] += 1
    except TypeError:
        return function(*args, **kwargs)
    if key not in cache:
        cache[key] = function(*args, **kwargs)
    return cache[key]


def _primexpr(fn=None, get_instance=True, name=None, reuse_result=True):
    """MindSpore's internal ``constexpr`` that also takes variables: the function runs on what it is given.

    sporax traces Python, so a call simply runs ``fn`` with its arguments (a traced Tensor stays a
    Tensor, a constant stays a constant); the options name MindSpore's Primitive and change nothing here.
    """
    def decorate(function):
        @functools.wraps(function)
        def call(*args, **kwargs):
            return function(*args, **kwargs)

        return call

    if fn is None:
        return decorate
    return decorate(fn)

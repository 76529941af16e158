"""MindSpore's functional composites: ``MultitypeFuncGraph``, ``HyperMap``, ``Map``, ``partial``.

Model-zoo optimizers and gradient reducers are written with them::

    grad_scale = ops.MultitypeFuncGraph("grad_scale")

    @grad_scale.register("Tensor", "Tensor")
    def _scale(scale, grad):
        return grad * scale

    grads = ops.HyperMap()(ops.partial(grad_scale, scale), grads)

In sporax they are ordinary Python run at trace time, so they cost nothing in a compiled step.
"""
import functools
import numbers

from sporax.core.tensor import Tensor
from sporax.ops.primitive import Primitive


def _matches(type_name, value):
    name = str(type_name).lower().rstrip("_")
    if name in ("tensor", "tensortype", "tensor_type"):
        return isinstance(value, Tensor)
    if name == "number":
        return isinstance(value, numbers.Number) and not isinstance(value, bool)
    if name in ("bool",):
        return isinstance(value, bool)
    if name in ("int", "int64", "int32"):
        return isinstance(value, int) and not isinstance(value, bool)
    if name in ("float", "float32", "float64"):
        return isinstance(value, float)
    if name in ("tuple",):
        return isinstance(value, tuple)
    if name in ("list",):
        return isinstance(value, list)
    if name in ("dictionary", "dict"):
        return isinstance(value, dict)
    if name in ("string", "str"):
        return isinstance(value, str)
    if name in ("none", "nonetype", "type_none"):
        return value is None
    if name in ("function", "func"):
        return callable(value)
    if name in ("rowtensor", "cootensor", "csrtensor", "maptensor"):
        return False
    raise TypeError(f"For 'MultitypeFuncGraph', unknown type name {type_name!r} in register(); use 'Tensor', "
                    "'Number', 'Bool', 'Int', 'Float', 'Tuple', 'List', 'Dictionary', 'String', 'None' or 'Function'.")


class MultitypeFuncGraph:
    """A function overloaded on the types of its inputs.

    Args:
        name (str): the overload set's name.
        read_value (bool): accepted for compatibility. Default: False.
    """

    def __init__(self, name, read_value=False):
        self.name = name
        self.read_value = read_value
        self.entries = []

    def register(self, *type_names):
        """Decorator: ``fn`` handles inputs of ``type_names`` (one per input)."""
        for type_name in type_names:
            _matches(type_name, None)  # validate the name now, not at the first call

        def decorate(function):
            self.entries.append((type_names, function))
            return function

        return decorate

    def __call__(self, *args):
        for type_names, function in self.entries:
            if len(type_names) == len(args) and all(_matches(t, a) for t, a in zip(type_names, args)):
                return function(*args)
        got = ", ".join(type(arg).__name__ for arg in args)
        registered = "; ".join("(" + ", ".join(map(str, names)) + ")" for names, _ in self.entries)
        raise ValueError(f"For 'MultitypeFuncGraph' '{self.name}', cannot find fn match given args ({got}). "
                         f"Registered signatures: {registered or 'none'}.")


def _map(operation, sequences, recursive, reverse):
    first = sequences[0]
    if isinstance(first, (tuple, list)):
        for other in sequences[1:]:
            if not isinstance(other, (tuple, list)) or len(other) != len(first):
                raise ValueError("For 'HyperMap'/'Map', every sequence must have the same length.")
        indices = range(len(first))
        if reverse:
            indices = reversed(indices)
        results = {}
        for index in indices:
            items = [sequence[index] for sequence in sequences]
            if recursive and isinstance(items[0], (tuple, list)):
                results[index] = _map(operation, items, recursive, reverse)
            else:
                results[index] = operation(*items)
        return tuple(results[index] for index in range(len(first)))
    return operation(*sequences)


class HyperMap:
    """Apply an operation element-wise over (nested) sequences.

    Args:
        ops (Callable): the operation; when None it is the first call argument. Default: None.
        reverse (bool): visit the elements from the last one. Default: False.
    """

    def __init__(self, ops=None, reverse=False):
        self.ops = ops
        self.reverse = reverse
        self._recursive = True

    def __call__(self, *args):
        operation, sequences = (self.ops, args) if self.ops is not None else (args[0], args[1:])
        if not sequences:
            raise TypeError(f"For '{type(self).__name__}', pass at least one sequence to map over.")
        return _map(operation, sequences, self._recursive, self.reverse)


class Map(HyperMap):
    """Apply an operation over the top-level elements of sequences (no recursion)."""

    def __init__(self, ops=None, reverse=False):
        super().__init__(ops, reverse)
        self._recursive = False


def partial(function, *args, **kwargs):
    """``function`` with its first arguments (and keyword arguments) fixed (``ops.partial``)."""
    return functools.partial(function, *args, **kwargs)


class Partial(Primitive):
    """``ops.Partial()(function, *args)``: fix the first arguments of a function.

    Inputs:
        - **function** (Callable) -- the function.
        - **args** -- its first arguments.

    Outputs:
        Callable.
    """

    def __init__(self):
        super().__init__("Partial")

    def __call__(self, function, *args):
        return functools.partial(function, *args)


def add_flags(fn=None, **flags):
    """Attach graph-compiler flags (``fn._func_graph_flags``) to a function or Cell; with no ``fn``, a decorator.

    MindSpore's compiler reads the flags; sporax keeps them on the object for code that inspects them.

    Example:
        >>> def f(x):
        ...     return x
        >>> add_flags(f, reusing=True)._func_graph_flags
        {'reusing': True}
    """
    def decorate(function):
        if "_func_graph_flags" not in getattr(function, "__dict__", {}):
            function._func_graph_flags = {}
        function._func_graph_flags.update(flags)
        return function

    return decorate if fn is None else decorate(fn)

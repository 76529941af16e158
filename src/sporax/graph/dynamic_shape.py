"""``enable_dynamic`` and ``Cell.set_inputs``: declare which argument dimensions of compiled code may vary.

MindSpore compiles one graph with symbolic dimensions for the declared arguments. XLA programs
have static shapes, so sporax compiles one program per concrete shape (cached) and keeps the
declaration as a contract: a call whose argument does not fit the declared shape (rank, fixed
dimensions, dtype) is refused with the argument named, as MindSpore refuses it. The inputs a Cell's
``set_inputs`` declares are the same contract for its GRAPH_MODE calls and a jitted ``construct``
(``check_set_inputs``).
"""
import functools
import inspect
import types

from sporax.core.tensor import Tensor

_ATTRIBUTE = "_sporax_dynamic_arguments"


def _declared(value):
    return [value] if isinstance(value, Tensor) else list(value) if isinstance(value, (tuple, list)) else None


def _check_declaration(name, value):
    tensors = _declared(value)
    if tensors is None or not tensors or not all(isinstance(tensor, Tensor) for tensor in tensors):
        raise TypeError(f"When using decorator enable_dynamic, the type of argument '{name}' must be Tensor, "
                        f"tuple[Tensor] or list[Tensor], but got {type(value).__name__}.")
    if not any(-1 in tuple(tensor.shape) or _any_rank(tensor) for tensor in tensors):
        raise TypeError(f"When using decorator enable_dynamic, the shape of argument '{name}' at least have one None.")


def _any_rank(declared):
    # Tensor(shape=None): the rank may vary too (MindSpore's dynamic rank, shape (-2,))
    return tuple(declared.shape) == (-2,)


def _fits(declared, actual):
    shape, expected = tuple(getattr(actual, "shape", ())), tuple(declared.shape)
    if _any_rank(declared):
        return True
    return len(shape) == len(expected) and all(e in (-1, s) for e, s in zip(expected, shape))


def _check_call(function_name, dynamic, bound):
    for name, declaration in dynamic.items():
        if name not in bound.arguments:
            continue
        actual = bound.arguments[name]
        declared = _declared(declaration)
        actuals = [actual] if isinstance(declaration, Tensor) else list(actual) if isinstance(actual, (tuple, list)) \
            else None
        if actuals is None or len(actuals) != len(declared):
            raise ValueError(f"For '{function_name}', argument '{name}' must be {len(declared)} Tensor(s) as "
                             f"declared by enable_dynamic, but got {type(actual).__name__}.")
        for declared_tensor, value in zip(declared, actuals):
            fits = _fits(declared_tensor, value)
            same_dtype = getattr(value, "dtype", declared_tensor.dtype) == declared_tensor.dtype
            if not fits or not same_dtype:
                shape = None if _any_rank(declared_tensor) else \
                    tuple(None if d == -1 else d for d in declared_tensor.shape)
                # MindSpore: another shape is a ValueError, another dtype a TypeError
                raise (ValueError if not fits else TypeError)(
                    f"For '{function_name}', argument '{name}' has shape {tuple(value.shape)} and dtype "
                    f"{value.dtype}, which do not fit the dynamic shape {shape} and dtype {declared_tensor.dtype} "
                    "declared by enable_dynamic. Pass a tensor of that rank and fixed dimensions, or widen the "
                    "declaration.")


def enable_dynamic(**kwargs):
    """Declare the dynamic dimensions (None) of arguments of a function compiled by ``ms.jit``.

    Args:
        kwargs (dict[str, Union[Tensor, tuple[Tensor], list[Tensor]]]): per argument name, a
            placeholder Tensor (``Tensor(shape=[None, 3], dtype=ms.float32)``) whose None
            dimensions may vary between calls.

    Returns:
        Callable, the decorator; the decorated function checks its arguments against the declaration.

    Raises:
        ValueError: no argument declared, too many, or a call that does not fit the declaration.
        TypeError: a declaration that is not a Tensor (or sequence of Tensors) with a None dimension.

    Example:
        >>> import numpy as np
        >>> import sporax as ms
        >>> @ms.jit
        ... @ms.enable_dynamic(x=ms.Tensor(shape=[None, 2], dtype=ms.float32))
        ... def double(x):
        ...     return x * 2
        >>> double(ms.Tensor(np.ones((3, 2), np.float32))).shape
        (3, 2)
    """
    if not kwargs:
        raise ValueError("When using decorator enable_dynamic, the input cannot be empty!")
    for name, value in kwargs.items():
        _check_declaration(name, value)

    def decorator(function):
        target = function
        if not isinstance(function, (types.FunctionType, types.MethodType)):
            # enable_dynamic over ms.jit (MindSpore's docstring order): the declaration is of the jitted function
            target = getattr(function, "function", None)
            if not callable(function) or not isinstance(target, (types.FunctionType, types.MethodType)):
                raise ValueError(f"Decorator enable_dynamic can only be used for function or method decorated by "
                                 f"ms.jit, but got {function}.")
        signature = inspect.signature(target)
        names = [name for name in signature.parameters if name != "self"]
        if len(kwargs) > len(names):
            raise ValueError(f"When using decorator enable_dynamic, the number of arguments {len(kwargs)} exceeds the "
                             f"number of function arguments {len(names)}.")
        unknown = [name for name in kwargs if name not in names]
        if unknown:
            raise ValueError(f"When using decorator enable_dynamic, {unknown} are not arguments of "
                             f"'{target.__qualname__}' (its arguments: {names}).")

        @functools.wraps(target)
        def checked(*args, **call_kwargs):
            _check_call(target.__qualname__, kwargs, signature.bind_partial(*args, **call_kwargs))
            return function(*args, **call_kwargs)

        setattr(checked, _ATTRIBUTE, dict(kwargs))
        return checked

    return decorator


def check_set_inputs(inputs, args):
    """Refuse a compiled Cell call whose arguments do not fit what ``Cell.set_inputs`` declared, with
    MindSpore's errors (its positions count from 1): a non-Tensor where a Tensor was declared, another
    dtype, another rank, a fixed dimension of another size. A dimension declared None (or a Symbol) and a
    shape declared None take any size.

    Args:
        inputs (tuple): what ``set_inputs`` recorded.
        args (tuple): the call's positional arguments.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, float32
        >>> declared = (Tensor(shape=[None, 3], dtype=float32),)
        >>> check_set_inputs(declared, (Tensor(np.ones((2, 4), np.float32)),))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: For set_inputs ... the shape of 1th input ..., but got expected: 3, and input: 4!
    """
    for position, (declared, actual) in enumerate(zip(inputs, args), 1):
        if not isinstance(declared, Tensor):
            continue
        if not isinstance(actual, Tensor):
            raise TypeError(f"For set_inputs or tuple(list) in set_inputs, the {position}th should be mutable one, "
                            f"but got static!")
        if actual.dtype != declared.dtype:
            raise TypeError(f"For set_inputs or tuple(list) in set_inputs, the {position}th type should be "
                            f"Tensor[{declared.dtype}], but got Tensor[{actual.dtype}]!")
        expected, shape = tuple(declared.shape), tuple(actual.shape)
        if expected == (-2,):
            continue
        if len(expected) != len(shape):
            raise ValueError(f"For set_inputs and tuple(list) in set_inputs, the dims of {position}th input must be "
                             f"the same as expected, but got expected: {len(expected)}, and input: {len(shape)}!")
        for want, got in zip(expected, shape):
            if want != -1 and want != got:
                raise ValueError(f"For set_inputs and tuple(list) in set_inputs, the shape of {position}th input "
                                 f"must be the same as expected, but got expected: {want}, and input: {got}!")

"""Calls whose arguments do not fit the callee, in compiled code.

MindSpore's graph compiler binds a Python function's arguments itself and raises its own errors where Python
raises TypeError (recorded on MindSpore 2.10: ``ops.max(x, axis=1, keep_dims=True)`` in a GRAPH-mode construct
or an ``ms.jit`` function is a RuntimeError "Got an unexpected keyword argument 'keep_dims'"; the same call in
PyNative is Python's TypeError). A Tensor method keeps Python's TypeError there, as in MindSpore.
"""
import inspect
import types

from sporax.core.tensor import Tensor

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def graph_error(function, args, kwargs):
    """The error MindSpore's graph raises for calling ``function`` with ``args`` and ``kwargs``; None where they
    fit its parameters (a TypeError raised inside the call stays as it is) or ``function`` is not a Python
    function or method (a Cell, a primitive, a Tensor method)."""
    plain = getattr(function, "__func__", function)
    if not isinstance(plain, types.FunctionType) or isinstance(getattr(function, "__self__", None), Tensor):
        return None
    try:
        signature = inspect.signature(function)
    except ValueError:
        return None  # no signature to check against
    if _fits(signature, args, kwargs):
        return None
    parameters = list(signature.parameters.values())
    kinds = {parameter.kind for parameter in parameters}
    positional = [parameter for parameter in parameters if parameter.kind in _POSITIONAL]
    required_only = all(parameter.default is parameter.empty for parameter in positional)
    if not kwargs and len(positional) == len(parameters) and required_only:
        # a function of plain positional parameters only: MindSpore compares the counts
        return TypeError(f"The parameters number of the function is {len(positional)}, but the number of provided "
                         f"arguments is {len(args)}.")
    if len(args) > len(positional) and inspect.Parameter.VAR_POSITIONAL not in kinds:
        return RuntimeError(f"Function:{plain.__name__} takes {len(positional)} positional arguments, but "
                            f"{len(args)} were given.")
    for parameter in positional[:len(args)]:
        if parameter.name in kwargs:
            return TypeError(f"Multiply values for specific argument: {parameter.name}")
    by_keyword = {parameter.name for parameter in parameters
                  if parameter.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)}
    for name in kwargs:
        if name not in by_keyword and inspect.Parameter.VAR_KEYWORD not in kinds:
            return RuntimeError(f"Got an unexpected keyword argument '{name}'")
    given = {parameter.name for parameter in positional[:len(args)]} | set(kwargs)
    for parameter in parameters:
        if parameter.default is parameter.empty and parameter.kind in (*_POSITIONAL, inspect.Parameter.KEYWORD_ONLY) \
                and parameter.name not in given:
            return RuntimeError(f"Miss argument input for parameter:{parameter.name}")
    return None


def _fits(signature, args, kwargs):
    """Whether ``args`` and ``kwargs`` bind to ``signature`` as Python would bind them."""
    try:
        signature.bind(*args, **kwargs)
    except TypeError:
        return False
    return True


def entry_error(function, args, kwargs, cell=False):
    """The error MindSpore 2.10 raises for calling a jitted ``function`` (``cell``: a GRAPH_MODE Cell's
    ``construct``) with arguments that do not bind to it; None where they bind or no rule here words it."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    if _fits(signature, args, kwargs):
        return None
    parameters = list(signature.parameters.values())
    kinds = {parameter.kind for parameter in parameters}
    positional = [parameter for parameter in parameters if parameter.kind in _POSITIONAL]
    required = [parameter for parameter in positional if parameter.default is parameter.empty]
    by_keyword = {parameter.name for parameter in parameters
                  if parameter.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)}
    for name in kwargs:
        if name not in by_keyword and inspect.Parameter.VAR_KEYWORD not in kinds:
            return TypeError(f"got an unexpected keyword argument '{name}'")
    for parameter in positional[:len(args)]:
        if parameter.name in kwargs:
            return TypeError(f"multiple values for argument '{parameter.name}'")
    head = "For 'Cell', the function construct requires" if cell else f"Function {function.__name__} needs"
    if len(args) > len(positional) and inspect.Parameter.VAR_POSITIONAL not in kinds:
        return TypeError(f"{head} {len(required)} positional argument and {len(positional) - len(required)} default "
                         f"argument, total {len(positional)}, but got {len(args)}.")
    given = {parameter.name for parameter in positional[:len(args)]} | set(kwargs)
    if any(parameter.name not in given for parameter in required) and inspect.Parameter.VAR_POSITIONAL not in kinds:
        hint = (" When using set_inputs, please make sure that all networks and loss functions are configured with "
                "set_inputs.") if cell else ""
        return TypeError(f"{head} {len(required)} positional argument, but got {len(args)}.{hint}")
    for parameter in parameters:
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY and parameter.default is parameter.empty \
                and parameter.name not in kwargs:
            return RuntimeError(f"Miss argument input for parameter:{parameter.name}")
    return None

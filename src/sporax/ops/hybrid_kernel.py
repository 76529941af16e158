"""``ops.kernel``: the decorator of MindSpore's Hybrid DSL. A decorated function runs as plain Python on
NumPy arrays with the DSL's intrinsics bound (without writing them into the caller's module), and is the
``func`` of ``ops.Custom(func, func_type='hybrid')``.
"""
import ast
import functools
import inspect
import json
import textwrap
import types

import jax

from sporax.ops import hybrid_intrinsics

KERNEL_FLAG = "ms_kernel_flag"


def bind(func, intrinsics):
    """``func`` with the DSL names resolved to ``intrinsics`` (a fresh globals mapping per call, so the
    module's own globals stay as they are and later changes to them are seen)."""
    scope = dict(func.__globals__)
    scope.update(intrinsics)
    return types.FunctionType(func.__code__, scope, func.__name__, func.__defaults__, func.__closure__)


def run_numpy(func, *arrays):
    """Run the DSL function ``func`` (undecorated) on NumPy arrays, as MindSpore does for a direct call."""
    return bind(func, hybrid_intrinsics.NUMPY)(*arrays)


def run_traced(func, *values):
    """Run the DSL function ``func`` (undecorated) on ``jax.Array`` values under tracing; loops unroll, so
    this is for differentiating kernels of modest extent. Returns a tuple of arrays."""
    buffers = [hybrid_intrinsics.TracedBuffer(value) for value in values]
    try:
        result = bind(func, hybrid_intrinsics.JAX)(*buffers)
    except jax.errors.ConcretizationTypeError:
        result = None
    if result is None:
        # raised outside the handler: a concretization error in its context would send callers to their
        # eager fallback, where the same trace fails again
        raise TypeError(f"ops.Custom(func_type='hybrid'): the automatic gradient of '{func.__name__}' traces it "
                        "with JAX, and its control flow depends on tensor values (an 'if' or a Python max/min on "
                        "elements). Pass bprop=function(*inputs, out, dout) to ops.Custom instead.")
    results = result if isinstance(result, tuple) else (result,)
    return tuple(item.value if isinstance(item, hybrid_intrinsics.TracedBuffer) else item for item in results)


def check_source(func):
    """The Hybrid DSL's static rules, checked when ``ops.Custom(func_type='hybrid')`` is built: no
    ``while``, calls only to the DSL's intrinsics, one ``return`` of names. Raises ``ValueError``/``TypeError``
    naming the function and the construct."""
    name = func.__name__
    try:
        source = textwrap.dedent(inspect.getsource(func))
    except (OSError, TypeError):
        return  # defined in an interactive session: nothing to read, the run itself will report errors
    tree = ast.parse(source)
    returns = []
    for node in ast.walk(tree):
        if isinstance(node, ast.While):
            raise TypeError(f"Keyword 'while' is not accepted in the function {name} written in the Hybrid DSL; "
                            "loop with range/serial/vectorize/parallel/reduce over a known extent.")
        if isinstance(node, ast.Call):
            called = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
            if called not in hybrid_intrinsics.NAMES and called not in ("kernel", "ms_kernel"):
                raise ValueError(f"In the function [{name}], function call id [{called}] is not in the "
                                 f"intrinsics list of the Hybrid DSL: {sorted(hybrid_intrinsics.NAMES)}.")
        if isinstance(node, ast.Return):
            returns.append(node)
    for node in returns:
        items = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
        if not all(isinstance(item, ast.Name) for item in items):
            raise TypeError(f"In the function {name} written in the Hybrid DSL, the return value must be a tensor "
                            "name or a tuple of tensor names (an input or a tensor from output_tensor).")


def kernel(fn=None, reg_info=None, compile_attrs=None):
    """The decorator of a Hybrid DSL function for ``ops.Custom``.

    The decorated function runs as plain Python on NumPy arrays (``output_tensor``, ``allocate``, the loop
    kinds ``range``/``serial``/``vectorize``/``parallel``/``reduce``/``grid`` and the math intrinsics bound
    to NumPy), and ``ops.Custom(func, func_type='hybrid')`` infers its output shapes and dtypes by itself.

    Args:
        fn (function): the Hybrid DSL function. Default: ``None`` (returns a decorator).
        reg_info (Union[str, dict, tuple]): registration information in json form. Default: ``None``.
        compile_attrs (dict): compile flags keyed by str, kept as ``compile_attrs`` (json). Default: ``None``.

    Returns:
        function: the callable kernel, or a decorator when ``fn`` is ``None``.

    Example:
        >>> import numpy as np
        >>> from sporax.ops import kernel
        >>> @kernel
        ... def scale(a):
        ...     b = output_tensor(a.shape, a.dtype)
        ...     for i in range(a.shape[0]):
        ...         b[i] = a[i] * 2.0
        ...     return b
        >>> scale(np.array([1.0, 2.0], np.float32)).tolist()
        [2.0, 4.0]
    """
    compile_attrs = {} if compile_attrs is None else compile_attrs
    if not isinstance(compile_attrs, dict):
        raise TypeError(f"The input 'compile_attrs' of @kernel must be a dict, but got {type(compile_attrs)}.")
    for key in compile_attrs:
        if not isinstance(key, str):
            raise TypeError(f"The key of 'compile_attrs' of @kernel must be a str, but got {type(key)}.")
    if reg_info is not None and not isinstance(reg_info, (str, dict, tuple)):
        raise TypeError(f"The input 'reg_info' of @kernel should be one of str, dict and tuple, "
                        f"but got {type(reg_info)}.")

    def decorate(func):
        if not inspect.isfunction(func):
            raise TypeError(f"@kernel decorates a Python function, but got {type(func).__name__}.")

        @functools.wraps(func)
        def run(*arrays):
            return run_numpy(func, *arrays)

        setattr(run, KERNEL_FLAG, True)
        run.compile_attrs = json.dumps(compile_attrs)
        if reg_info is not None:
            run.reg_info = reg_info
        return run

    return decorate if fn is None else decorate(fn)


def ms_kernel(fn=None, reg_info=None, compile_attrs=None):
    """The former name of :func:`kernel` (deprecated since MindSpore 1.8): warns, then does what ``kernel`` does.

    Example:
        >>> from sporax.ops import ms_kernel
        >>> @ms_kernel
        ... def copy(a):
        ...     b = output_tensor(a.shape, a.dtype)
        ...     for i in range(a.shape[0]):
        ...         b[i] = a[i]
        ...     return b
    """
    from sporax.log import warning
    warning("'ms_kernel' is deprecated from version 1.8 and will be removed in a future version, use 'kernel' "
            "instead.")
    return kernel(fn, reg_info, compile_attrs)

"""The Cells a training-step function reaches: AutoParallel wraps a function as a Cell of those Cells.

MindSpore's AutoParallel tutorials pass a training-step function (``jit`` or not) rather than a Cell; its
weights are those of the Cells it reaches through its closure, the globals it names and the functions,
bound methods, ``functools.partial`` and ``jit``/``grad`` wrappers it reaches in turn.

Example:
    >>> from sporax import nn
    >>> from sporax.parallel.function_cells import cells_used_by
    >>> net = nn.Dense(2, 2)
    >>> def step(x):
    ...     return net(x)
    >>> cells_used_by(step) == [net]
    True
"""
import functools
import types

from sporax.nn.cell import Cell


def cells_used_by(function):
    """The Cells a function reaches through its closure and the globals it names (through the functions, bound
    methods and ``jit`` wrappers it reaches in turn), each once, in the order found."""
    found, seen, pending = [], set(), [function]
    while pending:
        item = pending.pop(0)
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, Cell):
            found.append(item)
            continue
        if isinstance(item, (types.ModuleType, type)):
            continue
        if isinstance(item, functools.partial):
            pending.extend([item.func, *item.args, *item.keywords.values()])
            continue
        if isinstance(item, types.MethodType):
            pending.extend([item.__self__, item.__func__])
            continue
        if not isinstance(item, types.FunctionType):
            # a jit or grad wrapper object: follow the function it wraps
            pending.extend(inner for inner in (getattr(item, attribute, None) for attribute in
                                               ("function", "fn", "__wrapped__")) if callable(inner))
            continue
        pending.extend(cell.cell_contents for cell in (item.__closure__ or ()) if _filled(cell))
        names = set(item.__code__.co_names)
        for constant in item.__code__.co_consts:  # names used by the functions defined inside
            if hasattr(constant, "co_names"):
                names.update(constant.co_names)
        pending.extend(item.__globals__[name] for name in sorted(names) if name in item.__globals__)
    inside = {id(child) for cell in found for _, child in cell.cells_and_names() if child is not cell}
    return [cell for cell in found if id(cell) not in inside]


def _filled(closure_cell):
    try:
        closure_cell.cell_contents
    except ValueError:  # a closure variable not assigned yet
        return False
    return True

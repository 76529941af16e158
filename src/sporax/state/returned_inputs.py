"""Compiled code that returns one of its inputs untouched gives back that input object, as MindSpore's graph does.

MindSpore 2.10 (GRAPH_MODE and ``ms.jit``, recorded on CPU): a graph whose one output is one of its inputs,
unchanged, returns the input object itself: ``return self.w`` gives the Parameter (``out is net.w``; it shows
later ``set_data``/``assign``), ``return x`` the caller's Tensor. A tuple or list of them, a print, a write
(``ops.assign(self.w, x); return self.w``), ``ops.depend`` or a branch or loop on a tensor before the return
give a new Tensor. ``build_program`` notes such a program (``Program.returned_input``); the compiled call's
caller (``sporax.graph.jit``, ``sporax.graph.cell_jit``) hands back the object.

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
    >>> @ms.jit
    ... def weight(x):
    ...     return w
    >>> weight(ms.Tensor(np.ones(2, np.float32))) is w
    True
"""
from sporax.state.arguments import traced_tensors

_CONTROL_FLOW = frozenset(("cond", "while", "scan"))


def _branches_or_loops(jaxpr):
    """Whether ``jaxpr`` (or a jaxpr nested in its equations) holds a compiled branch or loop."""
    for equation in jaxpr.eqns:
        if equation.primitive.name in _CONTROL_FLOW:
            return True
        for param in equation.params.values():
            inner = getattr(param, "jaxpr", param)
            if hasattr(inner, "eqns") and _branches_or_loops(inner):
                return True
    return False


def input_returned(closed, count):
    """``("state", i)`` or ``("argument", i)`` when the trace's one output is its ``i``-th state or traced
    argument as it came in, with no side effect, branch or loop in the trace; else None.

    MindSpore's graph whose output is one of its inputs, untouched (dead code aside), returns that input
    object itself: the Parameter (``return self.w``) or the caller's Tensor (``return x``). A print, a
    write, a branch or a loop on a tensor makes the output another node, a new Tensor."""
    jaxpr = closed.jaxpr
    if closed.effects or _branches_or_loops(jaxpr):
        return None
    output = jaxpr.outvars[0]
    for position, var in enumerate(jaxpr.invars):
        if var is output:
            return ("state", position) if position < count else ("argument", position - count)
    return None


def returned_input(program, outputs, args, kwargs, owned):
    """``outputs`` of a compiled call, or the input object they are (``Program.returned_input``): the
    Parameter itself, or the caller's Tensor argument itself."""
    kind, index = program.returned_input
    if kind == "state":
        return program.states[index]
    holder = traced_tensors(args, kwargs, owned)[index]
    return outputs if holder is None else holder

"""``ops.PyExecute``: the node MindSpore's graph compiler writes for Python it runs on the host (JIT Fallback).

MindSpore's static-graph compiler turns Python it cannot compile into a ``PyExecute(script, keys, values)`` node
that the host evaluates while the graph runs; the Primitive cannot be called by itself (MindSpore 2.10 raises
``RuntimeError: Invalid primitive:PyExecute`` in PyNative mode). sporax's compiled functions run such Python
eagerly instead (``sporax.state.fallback``), so the Primitive is kept with MindSpore's attributes and the same
refusal, which says what to do instead.

Example:
    >>> from sporax import ops
    >>> ops.PyExecute().attrs
    {'side_effect_io': True, 'primitive_target': 'CPU'}
"""
from sporax.ops.primitive import Primitive, prim_attr_register


class PyExecute(Primitive):
    """Evaluate a Python expression on the host, as a node of a compiled graph.

    Inputs:
        - **script** (str) - the Python expression.
        - **keys** (tuple[str]) - the names of the local variables it reads.
        - **values** (tuple) - their values.

    Outputs:
        None: it cannot be called outside a graph MindSpore compiled (RuntimeError, as MindSpore's).
    """

    @prim_attr_register
    def __init__(self):
        self.add_prim_attr("side_effect_io", True)
        self.add_prim_attr("primitive_target", "CPU")

    def __call__(self, script, keys=(), values=()):
        raise RuntimeError(
            "Invalid primitive:PyExecute. PyExecute is the node MindSpore's graph compiler writes for Python it "
            f"evaluates on the host ({script!r}); it cannot be called by itself. Write the Python itself: sporax's "
            "ms.jit and GRAPH_MODE run what they cannot compile eagerly.")

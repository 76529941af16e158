"""Python control flow on tensors compiled into XLA control flow (GRAPH_MODE and ``ms.jit``).

Modules: ``convert`` (source -> converted function, cached per function), ``analysis`` (assigned
names, jumps, unsupported syntax), ``transformer`` (the syntax-tree rewrite), ``runtime`` (what
converted code calls: Python or lax, decided per call), ``tracing`` (branches traced once with
the lifted state; ``lax.cond``), ``loops`` (``lax.while_loop``/``lax.scan``), ``values``
(undefined names; merging branch results).
"""
from sporax.graph.control_flow.convert import conversion_problem, converted, set_conversion
from sporax.graph.control_flow.tracing import ControlFlowFallback
from sporax.graph.control_flow.values import Undefined

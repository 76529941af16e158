"""Python control flow on tensors compiled into XLA control flow (GRAPH_MODE and ``ms.jit``).

Contract:

* What is converted: the ``construct`` of every user Cell traced in GRAPH_MODE or by ``ms.jit``,
  every function ``ms.jit`` compiles, the function a GRAPH_MODE gradient differentiates, and —
  transitively — user functions, methods and sub-Cells they call. Once per function, cached.
* Semantics: each ``if``/``while``/``for``, conditional expression and ``and``/``or``/``not``
  decides at run time. A Python value, or a Tensor whose value is known while tracing, runs plain
  Python (constant branches and Python-bounded loops unroll, as in MindSpore's static graph). A
  traced boolean becomes ``lax.cond`` (``if``, conditional expressions), ``lax.while_loop``
  (``while``, ``for i in range(tensor)``) or ``lax.scan`` (``for row in tensor``).
  ``break``/``continue``/``return`` inside them are lowered to flags first. Calling
  ``cells[i](...)`` for a ``CellList``/``SequentialCell``/tuple of Cells or functions with a traced
  ``i`` becomes ``lax.switch`` (``switch``).
* Variables: a branch or loop body is a function of the variables it assigns. Values merged
  from two branches must agree in structure and shape (numbers become scalar Tensors, a float a float32
  one, that a compiled function returns as Python numbers, as MindSpore's graph does); a variable
  assigned in one branch only is undefined afterwards, and using it raises UnboundLocalError.
* State: the Parameters and RNG state the enclosing trace lifts are inputs and outputs of every
  branch and loop body (``sporax.state.lifting.Lift``), so ``ops.assign``,
  BatchNorm statistics, optimizer updates and ``self.param = value`` inside them update the
  Parameters as any other write.
* Gradients: ``cond`` and ``scan`` are differentiable in both modes; Python-bounded loops with a
  tensor ``break`` unroll into conds (exact). A ``while`` on a traced condition is differentiable
  in reverse mode too (``reverse``: a masked ``scan`` up to a trip bound found while tracing, or a
  ``while_loop`` with a checkpointed custom VJP).
* Python numbers: arithmetic on Python floats computes in float32 and float comparisons compare float32
  values, as in MindSpore's graph (``scalars``); a float passed through unchanged comes back exact when
  within 1e-6 of its float32 value, else as that float32 value.
* Module globals: ``global h`` stores are dropped and ``h += x`` on a global Tensor updates it in
  place at every call (an eager run), as MindSpore's graph does (``module_globals``).
* Fallback: what cannot be converted (host reads such as ``asnumpy()``, a ``nonlocal``
  declaration, a Python side effect inside a traced branch or loop) raises an
  ``UntraceableError`` or the tracer's own error; the caller then runs the function eagerly with
  one EagerFallbackWarning that names the line and the construct.

Modules: ``convert`` (source -> converted function), ``analysis`` (assigned names, jumps,
unsupported syntax, side effects), ``transformer`` (the syntax-tree rewrite), ``runtime`` (what
converted code calls), ``tracing`` (branches traced once with the lifted state; ``lax.cond``),
``loops`` (``lax.while_loop``/``lax.scan``), ``reverse`` (reverse-mode rules for ``while``),
``bound`` (trip bounds found while tracing), ``switch`` (a Cell or function chosen by a traced
index), ``values`` (undefined names; merging branch results), ``module_globals`` (``global``
declarations and augmented assignments on module globals), ``scalars`` (Python numbers as the graph computes
them), ``dict_keys`` (missing and traced dict keys raise MindSpore's errors), ``with_contexts`` (``with`` enters
``@jit_class`` instances only), ``item_assignment`` (``y[i] = v``, ``m.append(v)`` bind a new value to that name
only; ``a, b = (1, 2, 3)`` takes the first items), ``instance_creation`` (``Parameter()`` and a ``@jit_class`` of
run-time values refused as MindSpore refuses them).
"""
from sporax.graph.control_flow.convert import conversion_problem, converted, set_conversion
from sporax.graph.control_flow.values import ControlFlowFallback, Undefined

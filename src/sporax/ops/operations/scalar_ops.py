"""MindSpore's Primitives of Python values (``ScalarAdd``, ``ScalarCast``, ``TupleGetItem``, ``BoolNot`` ...).

Each is generated from its op-table entry (``sporax.ops.functional.scalar``, ``graph_builtins``,
``sequence``: the ``SCALAR`` rule), so ``ScalarAdd()(2, 3.5)`` is ``ops.scalar_add(2, 3.5)``. MindSpore
exports ``ScalarCast``, ``ScalarToArray`` and ``TensorToTuple`` from ``ops``; the others live in its private modules
(``ops.operations._scalar_ops``) or only in the files it exports (MindIR names ``TupleGetItem``,
``sequence_len``): they are attributes of ``sporax.ops.operations`` for those paths and for the Primitive-name
lookup, not part of ``mindspore.ops``.

Example:
    >>> from sporax.ops.operations.scalar_ops import ScalarAdd, ScalarMax
    >>> ScalarAdd()(2, 3.5), ScalarMax()(3, 2.0)
    (5.5, 3)
"""
from sporax.ops.faces import primitive_classes
from sporax.ops.functional import compiler_values, graph_builtins, scalar, sequence
from sporax.ops.op_table import entries

# (``StopGradient`` and ``Depend`` are made beside their ops, in ``functional.dependencies``: ``sporax.autodiff``
# imports them while ``sporax.ops.operations`` may still be loading.)
_MODULES = {module.__name__ for module in (compiler_values, graph_builtins, scalar, sequence)}
CLASSES = primitive_classes([entry for entry in entries() if entry.module in _MODULES], __name__)
globals().update(CLASSES)
ScalarCast, ScalarToArray, TensorToTuple = CLASSES["ScalarCast"], CLASSES["ScalarToArray"], CLASSES["TensorToTuple"]
__all__ = sorted(CLASSES)

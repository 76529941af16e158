"""MindSpore's Primitives of Python values (``ScalarAdd``, ``ScalarCast``, ``TupleGetItem``, ``BoolNot`` ...).

Each is generated from its op-table entry (``sporax.ops.functional.scalar``, ``graph_builtins``,
``sequence``: the ``SCALAR`` rule), so ``ScalarAdd()(2, 3.5)`` is ``ops.scalar_add(2, 3.5)``. MindSpore
exports ``ScalarCast`` and ``ScalarToArray`` from ``ops``; the others live in its private modules
(``ops.operations._scalar_ops``) or only in the files it exports (MindIR names ``TupleGetItem``,
``sequence_len``): they are attributes of ``sporax.ops.operations`` for those paths and for the Primitive-name
lookup, not part of ``mindspore.ops``.

Example:
    >>> from sporax.ops.operations.scalar_ops import ScalarAdd, ScalarMax
    >>> ScalarAdd()(2, 3.5), ScalarMax()(3, 2.0)
    (5.5, 3)
"""
from sporax.ops import functional  # noqa: F401 -- declares the entries below
from sporax.ops.faces import primitive_classes
from sporax.ops.op_table import SCALAR, entries

CLASSES = primitive_classes([entry for entry in entries() if entry.dtypes == SCALAR], __name__)
globals().update(CLASSES)
ScalarCast, ScalarToArray = CLASSES["ScalarCast"], CLASSES["ScalarToArray"]
__all__ = sorted(CLASSES)

"""MindSpore's CSR Primitives (``mindspore.ops.operations._csr_ops``): ``COO2CSR``, ``CSR2COO``, ``CSRGather``,
``CSRMul``, ``CSRDiv``, ``CSRMV``, ``CSRReduceSum``, ``CSRMM``, generated from their op-table entries.

They take a CSR matrix as its components (``indptr``, ``indices``, ``values``, ``dense_shape``). As in MindSpore,
they live only under that private path: ``mindspore.ops`` and ``mindspore.ops.operations`` do not export them.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.csr_ops import CSRMV
    >>> CSRMV()(Tensor([0, 1, 1]), Tensor([1]), Tensor([2.0]), (2, 2), Tensor(np.ones((2, 1), np.float32))).asnumpy().tolist()
    [[2.0], [0.0]]
"""
from sporax.ops.faces import primitive_class
from sporax.ops.functional import csr_arithmetic, sparse  # noqa: F401 - declare the entries below
from sporax.ops.op_table import PRIMITIVES
from sporax.ops.primitive import Primitive  # noqa: F401 - MindSpore's module has it too

_NAMES = ("COO2CSR", "CSR2COO", "CSRGather", "CSRMul", "CSRDiv", "CSRMV", "CSRReduceSum", "CSRMM")
for _name in _NAMES:  # each generated from its op-table entry
    globals()[_name] = primitive_class(PRIMITIVES[_name], __name__)
del _name

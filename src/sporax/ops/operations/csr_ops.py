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
from sporax.ops.functional import sparse  # noqa: F401 - declares the entries below
from sporax.ops.op_table import PRIMITIVES
from sporax.ops.primitive import Primitive  # noqa: F401 - MindSpore's module has it too

COO2CSR = primitive_class(PRIMITIVES["COO2CSR"], __name__)
CSR2COO = primitive_class(PRIMITIVES["CSR2COO"], __name__)
CSRGather = primitive_class(PRIMITIVES["CSRGather"], __name__)
CSRMul = primitive_class(PRIMITIVES["CSRMul"], __name__)
CSRDiv = primitive_class(PRIMITIVES["CSRDiv"], __name__)
CSRMV = primitive_class(PRIMITIVES["CSRMV"], __name__)
CSRReduceSum = primitive_class(PRIMITIVES["CSRReduceSum"], __name__)
CSRMM = primitive_class(PRIMITIVES["CSRMM"], __name__)

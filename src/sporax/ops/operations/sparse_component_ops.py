"""MindSpore's ``ops.operations.sparse_ops``: the sparse Primitives on component Tensors, generated from their
op-table entries (``sporax.ops.functional.sparse_components``), beside the sparse Primitives that
``sporax.ops.operations`` exports (``SparseToDense``, ``SparseTensorDenseMatmul``, ``SparseReorder`` ...: any other
name is looked up there). As in MindSpore, the generated ones are not exported by ``ops`` or ``ops.operations``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.sparse_component_ops import SparseMatrixNNZ
    >>> pointers = Tensor(np.array([0, 2, 3], np.int64))
    >>> rows = Tensor(np.array([0, 1, 2, 0, 0, 1], np.int64))
    >>> SparseMatrixNNZ()((2, 2, 3), pointers, rows, Tensor(np.array([2, 0, 1])), Tensor([1.0, 2.0, 3.0])).asnumpy().tolist()
    [2, 1]
"""
from sporax.ops import operations
from sporax.ops.faces import primitive_class
from sporax.ops.functional import (  # noqa: F401 - declare the entries
    sparse_components, sparse_matrices, sparse_unions, sparse_value_sized)
from sporax.ops.op_table import PRIMITIVES
from sporax.ops.primitive import Primitive  # noqa: F401 - MindSpore's module has it too

_NAMES = ("SparseDenseCwiseAdd", "SparseDenseCwiseMul", "SparseDenseCwiseDiv", "SparseToDenseV2", "SparseAddmm",
          "SparseMatrixNNZ", "CSRSparseMatrixToDense", "CSRSparseMatrixToSparseTensor",
          "SparseTensorToCSRSparseMatrix", "DenseToCSRSparseMatrix", "SparseMatrixTranspose", "SparseMatrixMatMul",
          "SparseSegmentSumWithNumSegments", "SparseSegmentMeanWithNumSegments", "SparseSegmentSqrtNWithNumSegments",
          "SparseSoftmax", "SparseSparseMinimum", "SparseSparseMaximum", "SparseAdd", "SparseReshape",
          "SparseCountSparseOutput", "SparseMatrixSoftmax", "RaggedTensorToSparse", "SparseMatrixAdd")
for _name in _NAMES:  # each generated from its op-table entry
    globals()[_name] = primitive_class(PRIMITIVES[_name], __name__)
del _name


def __getattr__(name):
    # MindSpore's sparse_ops also holds the sparse Primitives ops.operations exports: one object each
    try:
        return getattr(operations, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None

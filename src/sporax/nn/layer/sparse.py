"""Sparse Cells of ``mindspore.nn``: ``SparseToDense`` and ``SparseTensorDenseMatmul``."""
from sporax.core.sparse import COOTensor
from sporax.nn.cell import Cell
from sporax.ops.functional import sparse


class SparseToDense(Cell):
    """The dense Tensor of a ``COOTensor``.

    Inputs:
        - **sparse_tensor** (COOTensor).

    Outputs:
        Tensor of ``sparse_tensor.shape``.

    Example:
        >>> import sporax as ms
        >>> coo = ms.COOTensor(ms.Tensor([[0, 1]], ms.int32), ms.Tensor([2.0]), (2, 2))
        >>> ms.nn.SparseToDense()(coo).asnumpy().tolist()
        [[0.0, 2.0], [0.0, 0.0]]
    """

    def construct(self, sparse_tensor):
        if not isinstance(sparse_tensor, COOTensor):
            raise TypeError(f"For 'SparseToDense', the input must be a COOTensor, but got "
                            f"{type(sparse_tensor).__name__}.")
        return sparse.sparse_to_dense(sparse_tensor.indices, sparse_tensor.values, sparse_tensor.shape)


class SparseTensorDenseMatmul(Cell):
    """``op(S) @ op(dense)`` for a 2-D sparse ``S`` given as ``(indices, values, sparse_shape)``.

    Args:
        adjoint_st (bool): use the (conjugate) transpose of ``S``. Default: ``False``.
        adjoint_dt (bool): use the (conjugate) transpose of ``dense``. Default: ``False``.

    Inputs:
        - **indices** (Tensor) - (N, 2) int32/int64. **values** (Tensor) - (N,).
        - **sparse_shape** (tuple(int)) - the shape of ``S``. **dense** (Tensor) - 2-D.

    Outputs:
        Tensor: the 2-D product.
    """

    def __init__(self, adjoint_st=False, adjoint_dt=False):
        super().__init__()
        for name, value in (("adjoint_st", adjoint_st), ("adjoint_dt", adjoint_dt)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'SparseTensorDenseMatmul', '{name}' must be a bool, but got "
                                f"{type(value).__name__}.")
        self.adjoint_st = adjoint_st
        self.adjoint_dt = adjoint_dt

    def construct(self, indices, values, sparse_shape, dense):
        return sparse.sparse_tensor_dense_matmul(indices, values, sparse_shape, dense, self.adjoint_st,
                                                 self.adjoint_dt)

"""``nn.MatMul``: the Cell form of a broadcasting matrix product (MindSpore's legacy ``nn.MatMul``)."""
from sporax.nn.cell import Cell
from sporax.ops import functional
from sporax.ops._dispatch import array_of


class MatMul(Cell):
    """``x1 @ x2`` with NumPy's matmul rules (1-D operands, broadcast batch dimensions).

    Args:
        transpose_x1 (bool): swap the last two dimensions of ``x1`` first. Default: ``False``.
        transpose_x2 (bool): swap the last two dimensions of ``x2`` first. Default: ``False``.

    Inputs:
        - **x1** (Tensor) - (*, N, C) (or (C,)).
        - **x2** (Tensor) - (*, C, M) (or (C,)), the same dtype as ``x1``.

    Outputs:
        Tensor, (*, N, M) with the batch dimensions broadcast; a scalar for two vectors.

    Example:
        >>> import numpy as np
        >>> from sporax import nn, Tensor
        >>> nn.MatMul(transpose_x2=True)(Tensor(np.ones((2, 3, 4), np.float32)), Tensor(np.ones((5, 4), np.float32))).shape
        (2, 3, 5)
    """

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        for name, value in (("transpose_x1", transpose_x1), ("transpose_x2", transpose_x2)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'MatMul', '{name}' must be a bool, but got {type(value).__name__}.")
        self.transpose_x1, self.transpose_x2 = transpose_x1, transpose_x2

    def construct(self, x1, x2):
        first, second = array_of("MatMul", "x1", x1), array_of("MatMul", "x2", x2)
        if first.dtype != second.dtype:
            raise TypeError(f"For 'MatMul', the type of 'x2' should be same as 'x1', but got 'x1' with type "
                            f"{x1.dtype} and 'x2' with type {x2.dtype}. Cast one of them first.")
        if self.transpose_x1 and first.ndim > 1:
            x1 = functional.swapaxes(x1, -1, -2)
        if self.transpose_x2 and second.ndim > 1:
            x2 = functional.swapaxes(x2, -1, -2)
        return functional.matmul(x1, x2)

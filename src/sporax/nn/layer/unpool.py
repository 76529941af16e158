"""``nn.MaxUnpool1d/2d/3d``: Cells over ``ops.max_unpool*d``.

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> unpool = ms.nn.MaxUnpool1d(2)
    >>> unpool(ms.Tensor(np.array([[2.0, 4.0]], np.float32)), ms.Tensor(np.array([[1, 3]]))).shape
    (1, 4)
"""
from sporax.nn.cell import Cell
from sporax.ops.functional import unpool


class _MaxUnpool(Cell):
    _function = None

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def construct(self, x, indices, output_size=None):
        return type(self)._function(x, indices, self.kernel_size, self.stride, self.padding, output_size)


class MaxUnpool1d(_MaxUnpool):
    """Scatter (N, C, L) values to their max-pooling positions (``ops.max_unpool1d``).

    Args:
        kernel_size (Union[int, tuple[int]]), stride (Union[int, tuple[int]]): those of the pooling;
            stride defaults to kernel_size. padding (Union[int, tuple[int]]): Default: 0.

    Inputs:
        - **x** (Tensor), **indices** (Tensor) - same shape; **output_size** (tuple) - optional.

    Outputs:
        Tensor (N, C, L_out).
    """

    _function = staticmethod(unpool.max_unpool1d)


class MaxUnpool2d(_MaxUnpool):
    """The 2-D ``MaxUnpool1d`` over (N, C, H, W) (``ops.max_unpool2d``)."""

    _function = staticmethod(unpool.max_unpool2d)


class MaxUnpool3d(_MaxUnpool):
    """The 3-D ``MaxUnpool1d`` over (N, C, D, H, W) (``ops.max_unpool3d``)."""

    _function = staticmethod(unpool.max_unpool3d)

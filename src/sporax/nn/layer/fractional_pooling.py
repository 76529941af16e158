"""``nn.FractionalMaxPool2d`` and ``nn.FractionalMaxPool3d``: Cells over ``ops.fractional_max_pool2d/3d``.

Fractional max pooling (Graham, 2014) pools with ``kernel_size`` windows whose start positions are
pseudo-random (drawn per batch and channel, or given as ``_random_samples`` in [0, 1)), so the
output size (``output_size``, or ``output_ratio`` times the input size) need not divide the input.
"""
from sporax.nn.cell import Cell
from sporax.ops.functional.fractional_pooling import fractional_max_pool2d, fractional_max_pool3d


class _FractionalMaxPool(Cell):
    _function = None
    _dims = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        name = type(self).__name__
        if output_size is None and output_ratio is None:
            raise ValueError(f"For '{name}', 'output_size' or 'output_ratio' must be given (the size of the output, "
                             "or its ratio to the input size), but both are None.")
        if output_size is not None and output_ratio is not None:
            raise ValueError(f"For '{name}', only one of 'output_size' and 'output_ratio' can be given, but got both.")
        if not isinstance(return_indices, bool):
            raise TypeError(f"For '{name}', 'return_indices' must be bool, but got {type(return_indices).__name__}.")
        self.kernel_size = kernel_size
        self.output_size = output_size
        self.output_ratio = output_ratio
        self.return_indices = return_indices
        self._random_samples = _random_samples

    def construct(self, input):
        return type(self)._function(input, self.kernel_size, self.output_size, self.output_ratio,
                                    self.return_indices, self._random_samples)

    def extend_repr(self):
        return (f"kernel_size={self.kernel_size}, output_size={self.output_size}, "
                f"output_ratio={self.output_ratio}, return_indices={self.return_indices}")


class FractionalMaxPool2d(_FractionalMaxPool):
    """Fractional max pooling over (N, C, H, W) or (C, H, W) inputs.

    Args:
        kernel_size (Union[int, tuple[int]]): the pooling window (kH, kW).
        output_size (Union[int, tuple[int]]): the output (oH, oW). Default: ``None``.
        output_ratio (Union[float, tuple[float]]): output size / input size, in (0, 1). Default: ``None``.
        return_indices (bool): also return the Int64 indices of the maxima (flat over H*W). Default: ``False``.
        _random_samples (Tensor): (N, C, 2) samples in [0, 1) fixing the window positions. Default: ``None``.

    Inputs:
        - **input** (Tensor) -- (N, C, H, W) or (C, H, W).

    Outputs:
        Tensor, or (Tensor, Tensor) with ``return_indices``.

    Example:
        >>> import numpy as np, sporax as ms
        >>> x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
        >>> pool = ms.nn.FractionalMaxPool2d(2, output_size=(2, 2), _random_samples=ms.Tensor(np.full((1, 1, 2), 0.5, np.float32)))
        >>> pool(x).shape
        (1, 1, 2, 2)
    """

    _function = staticmethod(fractional_max_pool2d)


class FractionalMaxPool3d(_FractionalMaxPool):
    """Fractional max pooling over (N, C, D, H, W) or (C, D, H, W) inputs; see ``FractionalMaxPool2d``
    (``_random_samples`` is (N, C, 3), indices are flat over D*H*W).

    Args:
        kernel_size (Union[int, tuple[int]]): the pooling window (kD, kH, kW).
        output_size (Union[int, tuple[int]]): the output (oD, oH, oW). Default: ``None``.
        output_ratio (Union[float, tuple[float]]): output size / input size, in (0, 1). Default: ``None``.
        return_indices (bool): also return the Int64 indices of the maxima. Default: ``False``.
        _random_samples (Tensor): (N, C, 3) samples in [0, 1). Default: ``None``.

    Inputs:
        - **input** (Tensor) -- (N, C, D, H, W) or (C, D, H, W).

    Outputs:
        Tensor, or (Tensor, Tensor) with ``return_indices``.

    Example:
        >>> import numpy as np, sporax as ms
        >>> x = ms.Tensor(np.random.rand(1, 1, 4, 4, 4).astype(np.float32))
        >>> ms.nn.FractionalMaxPool3d(2, output_ratio=0.5)(x).shape
        (1, 1, 2, 2, 2)
    """

    _function = staticmethod(fractional_max_pool3d)

"""``mindspore.mint.nn`` normalisation Cells with PyTorch's arguments and parameter names."""
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.mint.nn import functional
from sporax import ops
from sporax.nn.cell import Cell

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "GroupNorm"]


def _vector(value, size, dtype, name):
    return Parameter(Tensor(np.full((size,), value, mstype.to_numpy_dtype(dtype))), name=name,
                     requires_grad=name in ("weight", "bias"))


class _BatchNorm(Cell):
    _ranks = (2, 3, 4, 5)

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, dtype=None):
        super().__init__()
        dtype = dtype or mstype.float32
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        self.weight = _vector(1.0, num_features, dtype, "weight") if affine else None
        self.bias = _vector(0.0, num_features, dtype, "bias") if affine else None
        if track_running_stats:
            self.running_mean = _vector(0.0, num_features, dtype, "running_mean")
            self.running_var = _vector(1.0, num_features, dtype, "running_var")
            self.num_batches_tracked = Parameter(Tensor(np.zeros((), np.int64)), name="num_batches_tracked",
                                                 requires_grad=False)
        else:
            self.running_mean = self.running_var = self.num_batches_tracked = None

    def construct(self, input):
        name = type(self).__name__
        if input.ndim not in self._ranks:
            raise ValueError(f"For '{name}', the input must have rank {' or '.join(map(str, self._ranks))}, "
                             f"but got shape {input.shape}.")
        if input.shape[1] != self.num_features:
            raise ValueError(f"For '{name}', expected {self.num_features} channels (dimension 1), got {input.shape}.")
        use_batch = self.training or not self.track_running_stats
        if self.training and self.track_running_stats:
            ops.assign(self.num_batches_tracked, self.num_batches_tracked + 1)
        if self.running_mean is None:
            zeros = ops.zeros((self.num_features,), input.dtype)
            return functional.batch_norm(input, zeros, ops.ones_like(zeros), self.weight, self.bias, True, 0.0,
                                         self.eps)
        return functional.batch_norm(input, self.running_mean, self.running_var, self.weight, self.bias, use_batch,
                                     self.momentum, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of an (N, C) or (N, C, L) input.

    Args:
        num_features (int): C.
        eps (float): Default: 1e-5.
        momentum (float): running = (1 - momentum) * running + momentum * batch. Default: 0.1.
        affine (bool): learn ``weight`` and ``bias``. Default: True.
        track_running_stats (bool): keep running statistics for evaluation. Default: True.
        dtype (mindspore.dtype): Default: Float32.

    Inputs:
        - **input** (Tensor): (N, C) or (N, C, L).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.BatchNorm1d(3)(ms.Tensor(np.ones((2, 3), np.float32)))
    """

    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of an (N, C, H, W) input.

    Args, Outputs: as ``BatchNorm1d``.

    Inputs:
        - **input** (Tensor): (N, C, H, W).

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.BatchNorm2d(2)(ms.Tensor(np.ones((1, 2, 3, 3), np.float32)))
    """

    _ranks = (4,)


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of an (N, C, D, H, W) input.

    Args, Outputs: as ``BatchNorm1d``.

    Inputs:
        - **input** (Tensor): (N, C, D, H, W).

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.BatchNorm3d(2)(ms.Tensor(np.ones((1, 2, 2, 2, 2), np.float32)))
    """

    _ranks = (5,)


class GroupNorm(Cell):
    """Group normalisation over ``num_groups`` groups of channels.

    Args:
        num_groups (int): groups; must divide num_channels.
        num_channels (int): C.
        eps (float): Default: 1e-5.
        affine (bool): learn per-channel ``weight`` and ``bias``. Default: True.
        dtype (mindspore.dtype): Default: Float32.

    Inputs:
        - **input** (Tensor): (N, C, ...).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.GroupNorm(1, 2)(ms.Tensor(np.ones((1, 2, 3), np.float32)))
    """

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, dtype=None):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups}).")
        dtype = dtype or mstype.float32
        self.num_groups, self.num_channels, self.eps = num_groups, num_channels, eps
        self.weight = _vector(1.0, num_channels, dtype, "weight") if affine else None
        self.bias = _vector(0.0, num_channels, dtype, "bias") if affine else None

    def construct(self, input):
        return ops.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

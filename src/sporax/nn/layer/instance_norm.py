"""``InstanceNorm1d/2d/3d``: normalise each sample's channels over their own spatial axes.

The output always uses the statistics of each (sample, channel) slice, in training and in
evaluation. In training the moving statistics still update, as MindSpore's InstanceNorm kernel
does it: ``moving = (1 - momentum) * moving + momentum * batch``, where ``batch`` is the mean over
the samples of each slice's mean and unbiased variance. (MindSpore 2.10 runs InstanceNorm on GPU
and Ascend only; sporax runs it everywhere.)
"""
import numbers

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor, tensor_array
from sporax.nn.cell import Cell
from sporax.nn.layer.basic import make_parameter
from sporax.nn.layer.normalization import statistics_repr
from sporax.ops.functional.normalization import _group_norm_kernel, instance_statistics
from sporax.state import parameter_storage


class _InstanceNorm(Cell):
    _rank = 4

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        for argument, value, kind in (("num_features", num_features, int), ("eps", eps, float),
                                      ("momentum", momentum, float), ("affine", affine, bool)):
            if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
                raise TypeError(f"For '{name}', the '{argument}' must be {kind.__name__}, but got "
                                f"{type(value).__name__}.")
        if num_features < 1:
            raise ValueError(f"For '{name}', the 'num_features' must be at least 1, but got {num_features}.")
        if not 0 <= momentum <= 1:
            raise ValueError(f"For '{name}', the 'momentum' must be a number in range [0, 1], but got {momentum}.")
        for argument, value in (("gamma_init", gamma_init), ("beta_init", beta_init)):
            if not isinstance(value, (Tensor, str, numbers.Number)) and not hasattr(value, "_initialize"):
                raise TypeError(f"For '{name}', the '{argument}' must be a Tensor, str, Initializer or number, "
                                f"but got {type(value).__name__}.")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        shape = (num_features,)
        self.moving_mean = make_parameter(name, "moving_mean", "zeros", shape, dtype, "mean", False)
        self.moving_variance = make_parameter(name, "moving_variance", "ones", shape, dtype, "variance", False)
        self.gamma = make_parameter(name, "gamma_init", gamma_init, shape, dtype, "gamma", affine)
        self.beta = make_parameter(name, "beta_init", beta_init, shape, dtype, "beta", affine)

    def construct(self, x):
        name = type(self).__name__
        array = tensor_array(x, cell_name=name)
        if array.ndim != self._rank:
            raise ValueError(f"For '{name}', the in_shape must have {self._rank} dims, but got {array.ndim}.")
        if array.shape[1] != self.num_features:
            raise ValueError(f"For '{name}', the input must have {self.num_features} channels on axis 1, but got "
                             f"shape {tuple(array.shape)}.")
        if self.training:
            mean, variance = instance_statistics(array)
            keep = 1.0 - self.momentum
            parameter_storage.update(self.moving_mean, keep * self.moving_mean._value + self.momentum * mean)
            parameter_storage.update(self.moving_variance,
                                     keep * self.moving_variance._value + self.momentum * variance)
        return Tensor._wrap(_group_norm_kernel(array, self.gamma._value, self.beta._value, self.num_features,
                                               float(self.eps)))

    extend_repr = statistics_repr


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization over (N, C, L) inputs: each (sample, channel) row normalised alone.

    Args:
        num_features (int): C.
        eps (float): added to the variance. Default: 1e-5.
        momentum (float): weight of the new statistics in the moving ones. Default: 0.1.
        affine (bool): whether gamma and beta are trainable. Default: True.
        gamma_init, beta_init (Union[Tensor, str, Initializer, numbers.Number]): Defaults: 'ones', 'zeros'.
        dtype (mindspore.dtype): the dtype of the Parameters. Default: float32.

    Inputs:
        - **x** (Tensor) -- (N, C, L).

    Outputs:
        Tensor, same shape and dtype.

    Example:
        >>> import numpy as np, sporax as ms
        >>> ms.nn.InstanceNorm1d(2)(ms.Tensor(np.ones((1, 2, 3), np.float32))).shape
        (1, 2, 3)
    """

    _rank = 3


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization over (N, C, H, W) inputs (Args as ``InstanceNorm1d``).

    Inputs:
        - **x** (Tensor) -- (N, C, H, W).

    Outputs:
        Tensor, same shape and dtype.
    """

    _rank = 4


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization over (N, C, D, H, W) inputs (Args as ``InstanceNorm1d``).

    Inputs:
        - **x** (Tensor) -- (N, C, D, H, W).

    Outputs:
        Tensor, same shape and dtype.
    """

    _rank = 5

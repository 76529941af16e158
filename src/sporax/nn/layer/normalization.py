"""Normalization layers: ``BatchNorm1d/2d/3d``, ``LayerNorm``, ``GroupNorm``, ``InstanceNorm2d``.

BatchNorm follows MindSpore: the moving statistics update as
``moving = momentum * moving + (1 - momentum) * batch`` (so momentum=0.9 keeps 90% of the old
value), the batch variance normalises with the biased estimate and enters the moving variance
unbiased, and ``use_batch_statistics`` (None: follow ``set_train``) chooses which statistics run.
"""
import numbers

from sporax.core import dtype as mstype
from sporax.core import world
from sporax.core.tensor import Tensor, tensor_array
from sporax.nn.cell import Cell
from sporax.nn.layer.basic import _check_positive_int, make_parameter
from sporax.ops.functional.normalization import _batch_norm, _layer_norm_kernel, group_norm
from sporax.ops import layer_forms
from sporax.state import parameter_storage


def statistics_repr(cell, momentum=None):
    """``extend_repr`` of the norms with moving statistics (BatchNorm, InstanceNorm); ``momentum`` as constructed."""
    momentum = cell.momentum if momentum is None else momentum
    return (f"num_features={cell.num_features}, eps={cell.eps}, momentum={momentum}, gamma={cell.gamma}, "
            f"beta={cell.beta}, moving_mean={cell.moving_mean}, moving_variance={cell.moving_variance}")


class _BatchNorm(Cell):
    """Normalise over every axis but the channel axis 1, with learnable scale/shift and moving statistics."""

    _ranks = (4,)
    _channels_last = False  # BatchNorm2d also runs MindSpore's GPU layout, NHWC
    _rank_message = "the in_shape must have 4 dims"

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, data_format="NCHW",
                 dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        self.num_features = _check_positive_int(name, "num_features", num_features)
        if isinstance(momentum, bool) or not isinstance(momentum, numbers.Real) or not 0 <= momentum <= 1:
            raise ValueError(f"For '{name}', the 'momentum' must be a number in range [0, 1], but got {momentum}.")
        if isinstance(eps, bool) or not isinstance(eps, numbers.Real) or eps <= 0:
            raise ValueError(f"For '{name}', the 'eps' must be a positive number, but got {eps!r}.")
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise TypeError(f"For '{name}', the 'use_batch_statistics' must be bool or None, but got "
                            f"{type(use_batch_statistics).__name__}.")
        layer_forms.check_data_format(name, data_format, ("NCHW", "NHWC"), channels_last=self._channels_last)
        # As MindSpore, the attribute holds the weight of the *new* statistics (1 - momentum), the
        # BatchNorm primitive's convention; its primitive is built here, so setting the attribute later does
        # not change the update (``_keep``, the weight of the old statistics, is what construct uses).
        self.eps, self.momentum, self.affine = eps, 1.0 - momentum, affine
        self._keep = float(momentum)
        self.use_batch_statistics = use_batch_statistics
        self.format = data_format
        shape = (num_features,)
        self.moving_mean = make_parameter(name, "moving_mean_init", moving_mean_init, shape, dtype, "mean", False)
        self.moving_variance = make_parameter(name, "moving_var_init", moving_var_init, shape, dtype, "variance",
                                              False)
        self.gamma = make_parameter(name, "gamma_init", gamma_init, shape, dtype, "gamma", affine)
        self.beta = make_parameter(name, "beta_init", beta_init, shape, dtype, "beta", affine)

    def _check_rank(self, array):
        if array.ndim not in self._ranks:
            raise ValueError(f"For '{type(self).__name__}', {self._rank_message}, but got {array.ndim}.")

    def construct(self, x):
        array = tensor_array(x, cell_name=type(self).__name__)
        self._check_rank(array)
        if array.dtype.kind != "f" and str(array.dtype) != "bfloat16":
            raise TypeError(f"For '{type(self).__name__}', the input must be a float Tensor, but got "
                            f"{x.dtype}; cast it first, e.g. ops.cast(x, mindspore.float32).")
        axis = 3 if self.format == "NHWC" else 1
        if array.shape[axis] != self.num_features:
            raise ValueError(f"For '{type(self).__name__}', the input must have {self.num_features} channels on "
                             f"axis {axis}, but got shape {tuple(array.shape)}.")
        use_batch = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        # MindSpore's GPU layout (data_format='NHWC'): the channels are the input's own last axis.
        values, channel_axis = (array, 3) if self.format == "NHWC" else layer_forms.channel_layout(x)
        output, new_mean, new_variance = _batch_norm(values, self.gamma._value, self.beta._value,
                                                     self.moving_mean._value, self.moving_variance._value,
                                                     float(self.eps), self._keep, bool(use_batch),
                                                     channel_axis)
        if use_batch:
            # in place, as MindSpore's kernel: a held moving_mean.data follows
            parameter_storage.update(self.moving_mean, new_mean)
            parameter_storage.update(self.moving_variance, new_variance)
        if self.format == "NHWC":
            return Tensor._wrap(output)
        return layer_forms.like_input(output, channel_axis)

    def extend_repr(self):
        return statistics_repr(self, 1.0 - self.momentum)


class BatchNorm2d(_BatchNorm):
    """Batch normalization over (N, C, H, W) inputs.

    Args:
        num_features (int): C.
        eps (float): added to the variance. Default: 1e-5.
        momentum (float): weight of the old moving statistics. Default: 0.9.
        affine (bool): whether gamma and beta are trainable. Default: True.
        gamma_init, beta_init, moving_mean_init, moving_var_init (Union[Tensor, str, Initializer,
            numbers.Number]): initial values. Defaults: 'ones', 'zeros', 'zeros', 'ones'.
        use_batch_statistics (bool): True: always batch statistics (and update the moving ones);
            False: always the moving statistics; None: batch statistics while training. Default: None.
        data_format (str): 'NCHW', or 'NHWC' (channels on the last axis) on a GPU target; 'NHWC' raises
            ValueError on CPU as in MindSpore (GPU-only there). Default: 'NCHW'.
        dtype (mindspore.dtype): the dtype of the Parameters. Default: float32.

    Inputs:
        - **x** (Tensor) -- (N, C, H, W).

    Outputs:
        Tensor, same shape and dtype.
    """

    _channels_last = True


class BatchNorm1d(_BatchNorm):
    """Batch normalization over (N, C) or (N, C, L) inputs; arguments as BatchNorm2d."""

    _ranks = (2, 3)
    _rank_message = "the must have 2 dims or 3 dims"


class BatchNorm3d(_BatchNorm):
    """Batch normalization over (N, C, D, H, W) inputs; arguments as BatchNorm2d (without data_format)."""

    _ranks = (5,)
    _rank_message = "the in_shape must have 5 dims"

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, dtype=mstype.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                         moving_var_init, use_batch_statistics, "NCHW", dtype)


class LayerNorm(Cell):
    """Normalise over the trailing axes from ``begin_norm_axis``; scale and shift from ``begin_params_axis``.

    Args:
        normalized_shape (Union[tuple, list]): the shape of gamma and beta.
        begin_norm_axis (int): the first axis to normalise over. Default: -1.
        begin_params_axis (int): the first axis gamma and beta apply to. Default: -1.
        gamma_init, beta_init: initial values. Defaults: 'ones', 'zeros'.
        epsilon (float): added to the variance. Default: 1e-7.
        dtype (mindspore.dtype): the dtype of the Parameters. Default: float32.

    Inputs:
        - **x** (Tensor) -- any shape whose trailing axes match ``normalized_shape``.

    Outputs:
        Tensor, same shape and dtype.
    """

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1, gamma_init="ones",
                 beta_init="zeros", epsilon=1e-7, dtype=mstype.float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For 'LayerNorm', the type of 'normalized_shape' must be tuple[int] or list[int], but "
                            f"got {normalized_shape} and the type is {type(normalized_shape)}.")
        self.normalized_shape = tuple(normalized_shape)
        self.begin_norm_axis, self.begin_params_axis, self.epsilon = begin_norm_axis, begin_params_axis, epsilon
        self.gamma = make_parameter("LayerNorm", "gamma_init", gamma_init, self.normalized_shape, dtype, "gamma")
        self.beta = make_parameter("LayerNorm", "beta_init", beta_init, self.normalized_shape, dtype, "beta")

    def construct(self, x):
        array = tensor_array(x, cell_name="LayerNorm")
        ndim = array.ndim
        if ndim == 0:
            raise ValueError("For 'LayerNorm', the input must have at least 1 dimension, but got a "
                             "0-d Tensor.")
        norm_axis = self.begin_norm_axis % ndim
        params_axis = self.begin_params_axis % ndim
        if array.shape[params_axis:] != self.normalized_shape:
            raise ValueError(f"For 'LayerNorm', the input shape {tuple(array.shape)} from axis {params_axis} must "
                             f"equal normalized_shape {self.normalized_shape}.")
        # The one lowering of ops.layer_norm; gamma/beta (the axes from begin_params_axis) broadcast.
        return Tensor._wrap(_layer_norm_kernel(array, self.gamma._value, self.beta._value, ndim - norm_axis,
                                               float(self.epsilon)))

    def extend_repr(self):
        # MindSpore 2.10 prints no '=' after 'gamma'; kept so printed networks match.
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma{self.gamma}, beta={self.beta}")


class GroupNorm(Cell):
    """Normalise each of ``num_groups`` channel groups of an (N, C, *) input.

    Args:
        num_groups (int): the number of groups; divides ``num_channels``.
        num_channels (int): C.
        eps (float): added to the variance. Default: 1e-5.
        affine (bool): whether gamma and beta are trainable. Default: True.
        gamma_init, beta_init: initial values. Defaults: 'ones', 'zeros'.
        dtype (mindspore.dtype): the dtype of the Parameters. Default: float32.

    Inputs:
        - **x** (Tensor) -- (N, C, *).

    Outputs:
        Tensor, same shape and dtype.
    """

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        self.num_groups = _check_positive_int("GroupNorm", "num_groups", num_groups)
        self.num_channels = _check_positive_int("GroupNorm", "num_channels", num_channels)
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', the 'num_channels' must be divided by 'num_groups', but got "
                             f"'num_channels': {num_channels}, 'num_groups': {num_groups}.")
        self.eps, self.affine = eps, affine
        self.gamma = make_parameter("GroupNorm", "gamma_init", gamma_init, (num_channels,), dtype, "gamma", affine)
        self.beta = make_parameter("GroupNorm", "beta_init", beta_init, (num_channels,), dtype, "beta", affine)

    def construct(self, x):
        array = tensor_array(x, cell_name="GroupNorm")
        if array.ndim < 2 or array.shape[1] != self.num_channels:
            raise ValueError(f"For 'GroupNorm', the input must be (N, {self.num_channels}, ...), but got "
                             f"{tuple(array.shape)}.")
        return group_norm(x, self.num_groups, self.gamma, self.beta, float(self.eps))

    def extend_repr(self):
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"


class SyncBatchNorm(_BatchNorm):
    """Batch normalization whose batch statistics span the processes of ``process_groups``.

    With one process (the communication world or every listed group of size 1) this is exactly
    ``BatchNorm2d``. Synchronising the statistics across several processes is not implemented by
    sporax: training such a layer in a multi-process job raises NotImplementedError.

    Args:
        num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init, moving_var_init,
        use_batch_statistics, dtype: as ``BatchNorm2d`` (``momentum`` 0.9 by default).
        process_groups (list[list[int]]): the rank groups that share statistics; None for the world.

    Inputs:
        - **x** (Tensor) -- (N, C, H, W) or (N, C).

    Outputs:
        Tensor, same shape and dtype.
    """

    _ranks = (2, 4)
    _rank_message = "the in_shape must have 2 or 4 dims"

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, process_groups=None,
                 dtype=mstype.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                         moving_var_init, use_batch_statistics, dtype=dtype)
        if process_groups is not None and not (isinstance(process_groups, list) and
                                               all(isinstance(group, list) for group in process_groups)):
            raise TypeError(f"For 'SyncBatchNorm', 'process_groups' must be a list of lists of ranks, but got "
                            f"{process_groups!r}.")
        self.process_groups = process_groups

    def _group_size(self):
        if self.process_groups is not None:
            return max((len(group) for group in self.process_groups), default=1)
        return world.world_size()

    def construct(self, x):
        use_batch = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        if use_batch and self._group_size() > 1:
            raise NotImplementedError("SyncBatchNorm: synchronising batch statistics across several processes is "
                                      "not supported by sporax; use nn.BatchNorm2d (per-process statistics).")
        return super().construct(x)

"""``Conv2dBnAct`` and ``DenseBnAct``: a Conv2d/Dense, an optional BatchNorm and an optional activation.

The children are named as MindSpore names them (``conv``/``dense``, ``batchnorm``, ``activation``),
so checkpoints of these Cells load in both directions.
"""
from sporax.nn.cell import Cell
from sporax.nn.layer.activation import LeakyReLU, get_activation
from sporax.nn.layer.basic import Dense
from sporax.nn.layer.conv import Conv2d
from sporax.nn.layer.normalization import BatchNorm1d, BatchNorm2d
from sporax.ops.primitive import Primitive


def _check_bool(cell, name, value):
    if not isinstance(value, bool):
        raise TypeError(f"For '{cell}', the '{name}' must be a bool, but got {type(value).__name__}.")
    return value


def _activation(cell, activation, alpha):
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    result = get_activation(activation) if isinstance(activation, str) else activation
    if activation is not None and not isinstance(result, (Cell, Primitive)):
        raise TypeError(f"For '{cell}', the 'activation' must be str or Cell or Primitive, but got "
                        f"{type(activation).__name__}.")
    return result


class _BnAct(Cell):
    def _finish(self, cell, has_bn, norm, activation, alpha, after_fake):
        self.has_bn = _check_bool(cell, "has_bn", has_bn)
        self.after_fake = _check_bool(cell, "after_fake", after_fake)
        self.has_act = activation is not None
        if has_bn:
            self.batchnorm = norm()
        self.activation = _activation(cell, activation, alpha)

    def _tail(self, x):
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


class Conv2dBnAct(_BnAct):
    """Conv2d, then BatchNorm2d (``has_bn``), then an activation (a name, a Cell or a Primitive).

    Args:
        in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
        weight_init, bias_init: as ``nn.Conv2d`` (``pad_mode='same'``, ``has_bias=False`` by default).
        has_bn (bool): add a BatchNorm2d(out_channels, eps, momentum). Default: ``False``.
        momentum (float): Default: ``0.997``. eps (float): Default: ``1e-5``.
        activation (Union[str, Cell, Primitive]): Default: ``None``; ``'leakyrelu'`` uses ``alpha``.
        alpha (float): LeakyReLU slope. Default: ``0.2``.
        after_fake (bool): kept for quantization-aware training. Default: ``True``.

    Inputs:
        - **x** (Tensor) - (N, C_in, H, W).

    Outputs:
        Tensor (N, C_out, H_out, W_out).
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init="normal", bias_init="zeros", has_bn=False, momentum=0.997,
                 eps=1e-5, activation=None, alpha=0.2, after_fake=True):
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride, pad_mode=pad_mode,
                           padding=padding, dilation=dilation, group=group, has_bias=has_bias,
                           weight_init=weight_init, bias_init=bias_init)
        self._finish("Conv2dBnAct", has_bn, lambda: BatchNorm2d(out_channels, eps, momentum), activation, alpha,
                     after_fake)

    def construct(self, x):
        return self._tail(self.conv(x))


class DenseBnAct(_BnAct):
    """Dense, then BatchNorm1d (``has_bn``), then an activation (a name, a Cell or a Primitive).

    Args:
        in_channels, out_channels, weight_init, bias_init, has_bias: as ``nn.Dense``.
        has_bn (bool): Default: ``False``. momentum (float): Default: ``0.9``. eps (float): Default: ``1e-5``.
        activation (Union[str, Cell, Primitive]): Default: ``None``. alpha (float): Default: ``0.2``.
        after_fake (bool): Default: ``True``.

    Inputs:
        - **x** (Tensor) - (N, in_channels).

    Outputs:
        Tensor (N, out_channels).
    """

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros", has_bias=True,
                 has_bn=False, momentum=0.9, eps=1e-5, activation=None, alpha=0.2, after_fake=True):
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self._finish("DenseBnAct", has_bn, lambda: BatchNorm1d(out_channels, eps, momentum), activation, alpha,
                     after_fake)

    def construct(self, x):
        return self._tail(self.dense(x))

"""Activation Cells of ``mindspore.nn``: ``GLU``, ``SoftShrink``, ``Softmax2d``, ``LRN``."""
import jax.numpy as jnp
from jax import lax

from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax import ops


def _float_arg(cell, name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{cell}', the '{name}' must be a float, but got {type(value).__name__}.")
    return float(value)


class GLU(Cell):
    """Gated linear unit: split ``x`` in halves ``a, b`` along ``axis`` and return ``a * sigmoid(b)``.

    Args:
        axis (int): the split axis (its length must be even). Default: -1.

    Inputs:
        - **x** (Tensor).

    Outputs:
        Tensor, half as long along ``axis``.

    Example:
        >>> import sporax as ms
        >>> ms.nn.GLU()(ms.Tensor([[1.0, 0.0]])).asnumpy().tolist()
        [[0.5]]
    """

    def __init__(self, axis=-1):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For 'GLU', the 'axis' must be an int, but got {type(axis).__name__}.")
        self.axis = axis

    def construct(self, x):
        return ops.glu(x, self.axis)


class SoftShrink(Cell):
    """Soft shrinkage: ``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0.

    Args:
        lambd (float): the threshold, >= 0. Default: 0.5.

    Inputs:
        - **input_x** (Tensor) -- float16 or float32.

    Outputs:
        Tensor, same shape and dtype.
    """

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = _float_arg("SoftShrink", "lambd", lambd)
        if self.lambd < 0:
            raise ValueError(f"For 'SoftShrink', the 'lambd' must be >= 0, but got {lambd}.")

    def construct(self, input_x):
        return ops.softshrink(input_x, self.lambd)


class Softmax2d(Cell):
    """Softmax over the channel axis (-3) of (C, H, W) or (N, C, H, W) inputs.

    Inputs:
        - **x** (Tensor) -- 3-D or 4-D.

    Outputs:
        Tensor, same shape and dtype.
    """

    def construct(self, x):
        if not isinstance(x, Tensor) or x.ndim not in (3, 4):
            raise ValueError(f"For 'Softmax2d', the input must be a 3-D or 4-D Tensor, but got "
                             f"{getattr(x, 'shape', type(x).__name__)}.")
        return ops.softmax(x, -3)


class LRN(Cell):
    """Local response normalization across channels of an (N, C, H, W) input.

    ``output = x / (bias + alpha * s) ** beta`` where ``s`` sums ``x ** 2`` over the channels
    ``c - depth_radius .. c + depth_radius``.

    Args:
        depth_radius (int): half the channel window. Default: 5.
        bias (float): Default: 1.0.
        alpha (float): Default: 1.0.
        beta (float): Default: 0.5.
        norm_region (str): 'ACROSS_CHANNELS' (the only region). Default: 'ACROSS_CHANNELS'.

    Inputs:
        - **x** (Tensor) -- (N, C, H, W), floating point.

    Outputs:
        Tensor, same shape and dtype.
    """

    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
        super().__init__()
        if isinstance(depth_radius, bool) or not isinstance(depth_radius, int) or depth_radius < 0:
            raise ValueError(f"For 'LRN', the 'depth_radius' must be an int >= 0, but got {depth_radius!r}.")
        if norm_region != "ACROSS_CHANNELS":
            raise ValueError(f"For 'LRN', the 'norm_region' must be 'ACROSS_CHANNELS', but got {norm_region!r}.")
        self.depth_radius = depth_radius
        self.bias = _float_arg("LRN", "bias", bias)
        self.alpha = _float_arg("LRN", "alpha", alpha)
        self.beta = _float_arg("LRN", "beta", beta)
        self.norm_region = norm_region

    def construct(self, x):
        if not isinstance(x, Tensor) or x.ndim != 4:
            raise ValueError(f"For 'LRN', the input must be a 4-D (N, C, H, W) Tensor, but got "
                             f"{getattr(x, 'shape', type(x).__name__)}.")
        array = x._value
        radius = self.depth_radius
        window = 2 * radius + 1
        squares = lax.reduce_window(jnp.square(array), 0.0, lax.add, (1, window, 1, 1), (1, 1, 1, 1),
                                    ((0, 0), (radius, radius), (0, 0), (0, 0)))
        return Tensor._wrap(array / jnp.power(self.bias + self.alpha * squares, self.beta))

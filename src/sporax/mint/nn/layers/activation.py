"""``mindspore.mint.nn`` activation Cells with PyTorch's arguments, each calling one functional op."""
import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.mint.nn import activations
from sporax.nn.cell import Cell

__all__ = ["GELU", "ELU", "Hardtanh", "ReLU6", "SiLU", "LogSoftmax", "Softmax", "PReLU", "Threshold", "Hardshrink",
           "Hardsigmoid", "Hardswish", "SELU"]


class GELU(Cell):
    """Gaussian error linear unit, exact (``'none'``) or with the tanh approximation (``'tanh'``).

    Args:
        approximate (str): 'none' or 'tanh'. Default: 'none'.

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.GELU()(ms.Tensor([1.0]))
    """

    def __init__(self, approximate="none"):
        super().__init__()
        if approximate not in ("none", "tanh"):
            raise ValueError(f"For 'GELU', approximate must be 'none' or 'tanh', got {approximate!r}.")
        self.approximate = approximate

    def construct(self, input):
        return ops.gelu(input, self.approximate)


class ELU(Cell):
    """``x`` for x > 0, else ``alpha * (exp(x) - 1)``.

    Args:
        alpha (float): Default: 1.0.
        inplace (bool): rebind the input to the result. Default: False.

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.ELU()(ms.Tensor([-1.0, 1.0]))
    """

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def construct(self, input):
        return activations.elu(input, self.alpha, self.inplace)


class Hardtanh(Cell):
    """Clamp to [min_val, max_val].

    Args:
        min_val (float): Default: -1.0.
        max_val (float): Default: 1.0.
        inplace (bool): Default: False.

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.Hardtanh()(ms.Tensor([-2.0, 0.5]))
    """

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        if min_val > max_val:
            raise ValueError(f"For 'Hardtanh', min_val ({min_val}) must not exceed max_val ({max_val}).")
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def construct(self, input):
        return activations.hardtanh(input, self.min_val, self.max_val, self.inplace)


class ReLU6(Cell):
    """``min(max(x, 0), 6)``.

    Args:
        inplace (bool): Default: False.

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.ReLU6()(ms.Tensor([7.0]))
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def construct(self, input):
        return activations.relu6(input, self.inplace)


class SiLU(Cell):
    """``x * sigmoid(x)``.

    Args:
        inplace (bool): Default: False.

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.SiLU()(ms.Tensor([1.0]))
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def construct(self, input):
        return activations.silu(input, self.inplace)


class LogSoftmax(Cell):
    """``log(softmax(x))`` along ``dim``.

    Args:
        dim (int): Default: None (the last dimension).

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.LogSoftmax(0)(ms.Tensor([1.0, 2.0]))
    """

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def construct(self, input):
        return activations.log_softmax(input, self.dim)


class Softmax(Cell):
    """Softmax along ``dim``.

    Args:
        dim (int): Default: None (the last dimension).

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.Softmax(0)(ms.Tensor([1.0, 2.0]))
    """

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def construct(self, input):
        return activations.softmax(input, self.dim)


class PReLU(Cell):
    """``x`` for x >= 0, else ``weight * x``, with a learned ``weight`` (one, or one per channel).

    Args:
        num_parameters (int): 1 or the number of channels. Default: 1.
        init (float): the initial weight. Default: 0.25.
        dtype (mindspore.dtype): Default: Float32.

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.PReLU()(ms.Tensor([-1.0, 1.0]))
    """

    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        array = np.full((num_parameters,), init, mstype.to_numpy_dtype(dtype or mstype.float32))
        self.weight = Parameter(Tensor(array), name="weight")

    def construct(self, input):
        return ops.prelu(input, self.weight)


class Threshold(Cell):
    """``x`` where x > threshold, else ``value``.

    Args:
        threshold (float): the threshold.
        value (float): the replacement.
        inplace (bool): Default: False.

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.Threshold(1.0, 0.0)(ms.Tensor([0.5, 2.0]))
    """

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def construct(self, input):
        return activations.threshold(input, self.threshold, self.value, self.inplace)


class Hardshrink(Cell):
    """``x`` where |x| > lambd, else 0.

    Args:
        lambd (float): Default: 0.5.

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.Hardshrink()(ms.Tensor([0.2, 1.0]))
    """

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input):
        return ops.hardshrink(input, self.lambd)


class _Unary(Cell):
    _function = None

    def construct(self, input):
        return type(self)._function(input)


class Hardsigmoid(_Unary):
    """``relu6(x + 3) / 6``.

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.Hardsigmoid()(ms.Tensor([1.0]))
    """

    _function = staticmethod(ops.hardsigmoid)


class Hardswish(_Unary):
    """``x * relu6(x + 3) / 6``.

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.Hardswish()(ms.Tensor([1.0]))
    """

    _function = staticmethod(ops.hardswish)


class SELU(_Unary):
    """Scaled ELU with the self-normalising constants.

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.SELU()(ms.Tensor([-1.0, 1.0]))
    """

    _function = staticmethod(ops.selu)

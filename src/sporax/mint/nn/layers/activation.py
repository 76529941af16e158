"""``mindspore.mint.nn`` activation Cells with PyTorch's arguments, each calling one functional op."""
import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.mint.nn import activations
from sporax.nn.cell import Cell
from sporax.nn.layer.op_cells import op_cell

__all__ = ["GELU", "ELU", "Hardtanh", "ReLU6", "SiLU", "LogSoftmax", "Softmax", "PReLU", "Threshold", "Hardshrink",
           "Hardsigmoid", "Hardswish", "SELU"]


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


# Generated from the op table (sporax.ops.op_table): each Cell runs its functional op's kernel.
GELU = op_cell("GELU", "mint.nn", __name__)
Hardshrink = op_cell("Hardshrink", "mint.nn", __name__)
Hardsigmoid = op_cell("Hardsigmoid", "mint.nn", __name__)
Hardswish = op_cell("Hardswish", "mint.nn", __name__)
SELU = op_cell("SELU", "mint.nn", __name__)

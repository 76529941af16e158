"""``mindspore.mint.nn`` activation Cells with PyTorch's arguments, each calling one functional op."""
import inspect

import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.mint.nn import functional
from sporax.nn.cell import Cell
from sporax.nn.layer.op_cells import function_cell, op_cell

__all__ = ["GELU", "ELU", "Hardtanh", "ReLU6", "SiLU", "LogSoftmax", "Softmax", "PReLU", "Threshold", "Hardshrink",
           "Hardsigmoid", "Hardswish", "SELU"]


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


def _check_hardtanh(min_val, max_val, inplace):
    if min_val > max_val:
        raise ValueError(f"For 'Hardtanh', min_val ({min_val}) must not exceed max_val ({max_val}).")


# Cells of mint.nn.functional's in-place-capable forms: __init__ takes the function's settings.
_EMPTY = inspect.Parameter.empty
ELU = function_cell("ELU", functional.elu, (("alpha", 1.0), ("inplace", False)), module=__name__)
Hardtanh = function_cell("Hardtanh", functional.hardtanh, (("min_val", -1.0), ("max_val", 1.0), ("inplace", False)),
                         check=_check_hardtanh, module=__name__)
ReLU6 = function_cell("ReLU6", functional.relu6, (("inplace", False),), module=__name__)
SiLU = function_cell("SiLU", functional.silu, (("inplace", False),), module=__name__)
LogSoftmax = function_cell("LogSoftmax", functional.log_softmax, (("dim", None),), module=__name__)
Softmax = function_cell("Softmax", functional.softmax, (("dim", None),), module=__name__)
GLU = function_cell("GLU", functional.glu, (("dim", -1),), module=__name__)
Threshold = function_cell("Threshold", functional.threshold,
                          (("threshold", _EMPTY), ("value", _EMPTY), ("inplace", False)), module=__name__)

# Generated from the op table (sporax.ops.op_table): each Cell runs its functional op's kernel.
GELU = op_cell("GELU", "mint.nn", __name__)
Hardshrink = op_cell("Hardshrink", "mint.nn", __name__)
Hardsigmoid = op_cell("Hardsigmoid", "mint.nn", __name__)
Hardswish = op_cell("Hardswish", "mint.nn", __name__)
SELU = op_cell("SELU", "mint.nn", __name__)

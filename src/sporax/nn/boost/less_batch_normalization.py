"""``mindspore.boost.LessBN``: mark a network for fewer BatchNorms and swap its last Dense for a normalised head.

The ``less_bn`` flag is read by Ascend's graph compiler only; off Ascend MindSpore 2.10 runs the network
unchanged, so the computation that LessBN changes everywhere is ``fn_flag``: the last ``nn.Dense`` of every
Cell that has one becomes ``CommonHeadLastFN`` (both the input rows and the weight rows L2-normalised, no
bias, times a trainable ``multiplier``) holding the Dense's weight.
"""
import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.initializer import initializer
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.nn.layer.basic import Dense

__all__ = ["CommonHeadLastFN", "LessBN"]


class CommonHeadLastFN(Cell):
    r"""A fully normalised last layer: ``multiplier * (norm(x) @ norm(weight).T + bias)``.

    Args:
        in_channels (int): the input features.
        out_channels (int): the output features.
        weight_init (Union[Tensor, str, Initializer, numbers.Number]): the weight's initial value. Default: 'normal'.
        bias_init (Union[Tensor, str, Initializer, numbers.Number]): the bias's initial value. Default: 'zeros'.
        has_bias (bool): whether a bias is added. Default: True.

    Inputs:
        - **x** (Tensor) -- shape :math:`(N, in\_channels)`.

    Outputs:
        Tensor of shape :math:`(N, out\_channels)`.
    """

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros", has_bias=True):
        super().__init__()
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels]), name="weight")
        self.x_norm = ops.L2Normalize(axis=1)
        self.w_norm = ops.L2Normalize(axis=1)
        self.fc = ops.MatMul(transpose_a=False, transpose_b=True)
        self.multiplier = Parameter(Tensor(np.ones([1]), mstype.float32), name="multiplier")
        self.has_bias = has_bias
        if has_bias:
            self.bias_add = ops.BiasAdd()
            self.bias = Parameter(initializer(bias_init, [out_channels]), name="bias")

    def construct(self, x):
        x = self.fc(self.x_norm(x), self.w_norm(self.weight))
        if self.has_bias:
            x = self.bias_add(x, self.bias)
        return self.multiplier * x


class LessBN(Cell):
    """Run ``network`` marked ``less_bn`` (optionally with its last Dense layers made ``CommonHeadLastFN``).

    Args:
        network (Cell): the network to modify (in place).
        fn_flag (bool): replace the last ``nn.Dense`` of each Cell with ``CommonHeadLastFN``. Default: False.

    Inputs:
        The network's inputs.

    Outputs:
        The network's outputs.
    """

    def __init__(self, network, fn_flag=False):
        super().__init__()
        if not isinstance(network, Cell):
            raise TypeError(f"For 'LessBN', the argument 'network' must be a Cell, but got {type(network).__name__}.")
        self.network = network
        if "less_bn" not in network.get_flags():  # a network marked before keeps its (converted) layers
            network.set_boost("less_bn")
            network.update_cell_prefix()
            if fn_flag:
                self._convert_to_less_bn_net(network)
            network.add_flags(defer_inline=True)

    @staticmethod
    def _convert_dense(dense):
        """The ``CommonHeadLastFN`` holding ``dense``'s weight, its Parameters named under ``dense``'s path."""
        head = CommonHeadLastFN(dense.in_channels, dense.out_channels, dense.weight, dense.bias, False)
        head.update_parameters_name(dense.param_prefix + ".")
        return head

    def _convert_to_less_bn_net(self, net):
        """Replace the last direct Dense child of ``net`` and, recursively, of its other children."""
        last_dense = None
        for name, child in net.name_cells().items():
            if child is net:
                continue
            if isinstance(child, Dense):
                last_dense = name
            else:
                self._convert_to_less_bn_net(child)
        if last_dense is not None:
            net.insert_child_to_cell(last_dense, self._convert_dense(net.name_cells()[last_dense]))

    def construct(self, *inputs):
        return self.network(*inputs)

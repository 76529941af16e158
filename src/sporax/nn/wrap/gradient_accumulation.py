"""Gradient accumulation (``mindspore.boost.GradientAccumulation`` and its two update functions).

The Cell sums the gradients of ``max_accumulation_step`` calls (each divided by that count, so the
sum is their mean) into zero-initialised copies of the optimizer's Parameters, and runs the
optimizer on the sum once every ``max_accumulation_step`` calls. Libraries subclass it and reuse
its attributes (``_grad_accumulation``, ``_accumulation_step``, ``_max_accumulation_step``,
``hyper_map``) and the two MultitypeFuncGraphs in their own ``construct``, so those names are part
of the surface.
"""
from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.state.conditional import run_if

gradient_accumulation_op = ops.MultitypeFuncGraph("gradient_accumulation_op")
gradient_clear_op = ops.MultitypeFuncGraph("gradient_clear_op")


@gradient_accumulation_op.register("Int64", "Tensor", "Tensor")
def cumulative_grad_process(accumulation_step, cumulative_grad, grad):
    """Add ``grad / accumulation_step`` to ``cumulative_grad`` in place; returns it."""
    return ops.assign_add(cumulative_grad, grad / accumulation_step)


@gradient_clear_op.register("Tensor")
def clear_grad(cumulative_grad):
    """Set ``cumulative_grad`` to zeros in place; returns it."""
    return ops.assign(cumulative_grad, ops.zeros_like(cumulative_grad))


class GradientAccumulation(Cell):
    """Run ``optimizer`` on the mean of the gradients of every ``max_accumulation_step`` calls.

    Args:
        max_accumulation_step (int): how many calls' gradients make one update; at least 1.
        optimizer (Cell): the optimizer that applies the accumulated gradients.

    Inputs:
        - **loss** (Tensor) -- the loss of this step, passed through.
        - **grads** (tuple[Tensor]) -- the gradients of the optimizer's Parameters, in their order.

    Outputs:
        Tensor, ``loss``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn, Tensor
        >>> from mindspore.boost import GradientAccumulation
        >>> net = nn.Dense(2, 1)
        >>> accumulate = GradientAccumulation(2, nn.SGD(net.trainable_params(), 0.1))
        >>> grads = tuple(ms.ops.ones_like(p) for p in net.trainable_params())
        >>> loss = accumulate(Tensor(1.0), grads)  # accumulated; the weights do not move yet
        >>> loss = accumulate(Tensor(1.0), grads)  # the second call applies the mean gradient
    """

    def __init__(self, max_accumulation_step, optimizer):
        super().__init__()
        if isinstance(max_accumulation_step, bool) or not isinstance(max_accumulation_step, int) \
                or max_accumulation_step < 1:
            raise ValueError(f"For 'GradientAccumulation', 'max_accumulation_step' must be an int >= 1, "
                             f"but got {max_accumulation_step!r}.")
        if not isinstance(optimizer, Cell) or not hasattr(optimizer, "parameters"):
            raise TypeError(f"For 'GradientAccumulation', 'optimizer' must be an optimizer Cell, "
                            f"but got {type(optimizer).__name__}.")
        self._max_accumulation_step = max_accumulation_step
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.hyper_map = ops.HyperMap()
        self._grad_accumulation = self.weights.clone(prefix="grad_accumulation", init="zeros")
        self._accumulation_step = Parameter(Tensor(0, mstype.int32), name="accumulation_step")

    def construct(self, loss, grads):
        loss = ops.depend(loss, self.hyper_map(
            ops.partial(gradient_accumulation_op, self._max_accumulation_step), self._grad_accumulation, grads))
        ops.assign_add(self._accumulation_step, ops.ones_like(self._accumulation_step))
        # The update runs only on the last call of each round: under a trace as a conditional write of the
        # states it touches (one compiled program, no host read of the counter).
        states = [parameter for _, parameter in self.parameters_and_names()]
        run_if(self._accumulation_step >= self._max_accumulation_step, self._apply_accumulated, states)
        return loss

    def _apply_accumulated(self):
        """Run the optimizer on the accumulated gradients, then clear them and the counter."""
        self.optimizer(self._grad_accumulation)
        self.hyper_map(gradient_clear_op, self._grad_accumulation)
        ops.assign(self._accumulation_step, ops.zeros_like(self._accumulation_step))

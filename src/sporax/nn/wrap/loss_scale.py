"""Loss-scaled training: TrainOneStepWithLossScaleCell and the loss-scale update Cells.

The gradients of ``loss * scale`` are unscaled and checked for overflow; on overflow the
optimizer update is skipped (``sporax.state.conditional.run_if``, no host round trip under
jit) and the update Cell lowers the scale, which grows again after ``scale_window`` good steps.
"""
import numbers

import jax.numpy as jnp
import numpy as np

from sporax import ops
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.nn.wrap.cell_wrapper import TrainOneStepCell
from sporax.state.assign import write
from sporax.state.conditional import run_if


def all_finite(inputs):
    """True (a bool Tensor) when every element of every Tensor in ``inputs`` is finite."""
    inputs = inputs if isinstance(inputs, (tuple, list)) else (inputs,)
    flags = [jnp.all(jnp.isfinite(value._value)) for value in inputs]
    return Tensor._wrap(jnp.all(jnp.stack(flags)) if flags else jnp.asarray(True))


def _scale_value(cell_name, value):
    """``loss_scale_value`` as given (a number or a scalar Tensor), checked."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, Tensor)):
        raise TypeError(f"For '{cell_name}', 'loss_scale_value' must be a number (int or float), but got "
                        f"{type(value).__name__}.")
    return value


class DynamicLossScaleUpdateCell(Cell):
    """Halve the scale on overflow; multiply it by ``scale_factor`` after ``scale_window`` good steps.

    Args:
        loss_scale_value (float): the initial scale.
        scale_factor (int): the growth/shrink factor.
        scale_window (int): good steps between growths.

    Inputs:
        - **loss_scale** (Parameter): the scale to update.
        - **overflow** (Tensor): bool, whether this step overflowed.

    Outputs:
        Tensor: ``overflow``.
    """

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        if scale_factor <= 1 or scale_window <= 0:
            raise ValueError("For 'DynamicLossScaleUpdateCell', scale_factor must be > 1 and scale_window > 0.")
        # kept as given (1024 stays an int), as MindSpore's get_loss_scale returns it
        self.loss_scale_value = _scale_value("DynamicLossScaleUpdateCell", loss_scale_value)
        self.scale_factor = float(scale_factor)
        self.scale_window = int(scale_window)
        self.cur_iter = Parameter(Tensor(np.ones(1, np.int32)), name="current_iterator_step",
                                  requires_grad=False)
        self.last_overflow_iter = Parameter(Tensor(np.zeros(1, np.int32)), name="last_overflow_iterator_step",
                                            requires_grad=False)

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        overflow_flag = jnp.asarray(overflow._value if isinstance(overflow, Tensor) else overflow, bool).reshape(())
        scale = loss_scale._value
        current, last = self.cur_iter._value, self.last_overflow_iter._value
        should_grow = (current - last >= self.scale_window).reshape(())
        shrunk = jnp.where(overflow_flag, jnp.maximum(scale / self.scale_factor, 1.0), scale)
        new_scale = jnp.where(should_grow & ~overflow_flag, shrunk * self.scale_factor, shrunk)
        write(self.last_overflow_iter, jnp.where(overflow_flag | should_grow, current, last), "DynamicLossScaleUpdateCell")
        write(loss_scale, new_scale, "DynamicLossScaleUpdateCell")
        write(self.cur_iter, current + 1, "DynamicLossScaleUpdateCell")
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """A constant loss scale: the update does nothing but report ``overflow``.

    Args:
        loss_scale_value (float): the scale.
    """

    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = _scale_value("FixedLossScaleUpdateCell", loss_scale_value)

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """One loss-scaled training step that skips the update when the gradients overflow.

    Args:
        network (Cell): returns the loss.
        optimizer (Optimizer): the optimizer.
        scale_sense (Union[Tensor, Cell]): a fixed scale, or an update Cell
            (``DynamicLossScaleUpdateCell`` / ``FixedLossScaleUpdateCell``).

    Inputs:
        The network's inputs.

    Outputs:
        Tuple of ``(loss, overflow, loss_scale)``.
    """

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            value = scale_sense.get_loss_scale()
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape not in ((), (1,)):
                raise ValueError(f"For 'TrainOneStepWithLossScaleCell', scale_sense must be a scalar Tensor, "
                                 f"got shape {scale_sense.shape}.")
            value = float(scale_sense.asnumpy().reshape(()))
        else:
            raise TypeError("For 'TrainOneStepWithLossScaleCell', scale_sense must be a Tensor or a Cell, "
                            f"got {type(scale_sense).__name__}.")
        self.scale_sense = Parameter(Tensor(np.float32(value)), name="scale_sense")
        # The helpers MindSpore's subclasses (the zoo's Bert, Transformer, EcapaTDNN wrappers) call
        # from their own construct.
        self.hyper_map = ops.HyperMap()
        self.base = Tensor(np.float32(1.0))
        self.less_equal = ops.LessEqual()
        self.reduce_sum = ops.ReduceSum(keep_dims=False)

    def set_sense_scale(self, sens):
        """Set the loss scale to ``sens``."""
        self.scale_sense.set_data(Tensor(sens, self.scale_sense.dtype) if not isinstance(sens, Tensor) else sens)

    def start_overflow_check(self, pre_cond, compute_input):
        """Begin overflow detection before the gradient computation (MindSpore clears the Ascend float
        status here); returns ``(status, compute_input)``: pass ``status`` to ``get_overflow_status``.
        Detection itself inspects the gradients, so ``status`` is MindSpore's eight-zero placeholder."""
        del pre_cond  # it orders the clear after the loss on Ascend; XLA keeps program order
        return Tensor(np.zeros(8, np.int32)), compute_input

    def get_overflow_status(self, status, compute_output):
        """True (a bool Tensor) when any gradient holds inf or nan."""
        return ops.logical_not(all_finite(compute_output))

    def process_loss_scale(self, overflow):
        """Update the scale through the update Cell; returns ``overflow``."""
        if self.loss_scaling_manager is None:
            return overflow
        return self.loss_scaling_manager(self.scale_sense, overflow)

    def construct(self, *inputs):
        scale = Tensor._wrap(self.scale_sense._value)  # this step's scale, before any update
        (_, loss), grads = self._value_and_grad(*inputs, scale)
        grads = tuple(grad * (1.0 / scale).astype(grad.dtype) for grad in self.grad_reducer(grads))
        overflow = self.process_loss_scale(self.get_overflow_status(None, grads))
        states = [parameter for _, parameter in self.optimizer.parameters_and_names()]
        run_if(ops.logical_not(overflow), lambda: self.optimizer(grads), states)
        return loss, overflow, scale

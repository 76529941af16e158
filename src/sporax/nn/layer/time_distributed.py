"""``nn.TimeDistributed``: one layer applied to every step of a sequence."""
from sporax import ops
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell


class TimeDistributed(Cell):
    """Apply ``layer`` to every step along ``time_axis`` and stack the results there.

    Args:
        layer (Cell): the layer for one step.
        time_axis (int): the time axis of the input.
        reshape_with_axis (int): an axis (other than ``time_axis``) to merge the time axis into, so the layer
            runs once on all steps (a BatchNorm then sees every step's samples together, as in MindSpore);
            None runs the layer once per step. Default: None.

    Inputs:
        - **inputs** (Tensor) -- at least 3-D.

    Outputs:
        Tensor, the per-step outputs stacked on ``time_axis``.
    """

    def __init__(self, layer, time_axis, reshape_with_axis=None):
        super().__init__()
        if not isinstance(layer, Cell):
            raise TypeError(f"For 'TimeDistributed', the 'layer' must be a Cell, but got {type(layer).__name__}.")
        if isinstance(time_axis, bool) or not isinstance(time_axis, int):
            raise TypeError(f"For 'TimeDistributed', the 'time_axis' must be an int, but got "
                            f"{type(time_axis).__name__}.")
        if reshape_with_axis is not None and (isinstance(reshape_with_axis, bool)
                                              or not isinstance(reshape_with_axis, int)):
            raise TypeError(f"For 'TimeDistributed', the 'reshape_with_axis' must be an int or None, but got "
                            f"{type(reshape_with_axis).__name__}.")
        self.layer, self.time_axis, self.reshape_with_axis = layer, time_axis, reshape_with_axis

    def construct(self, inputs):
        if not isinstance(inputs, Tensor) or inputs.ndim < 3:
            raise ValueError(f"For 'TimeDistributed', the input must be a Tensor of at least 3 dims, but got "
                             f"{getattr(inputs, 'shape', type(inputs).__name__)}.")
        axis = self.time_axis % inputs.ndim
        if self.reshape_with_axis is None:
            outputs = [self.layer(step) for step in ops.unstack(inputs, axis)]
            return ops.stack(outputs, axis)
        return self._merged(inputs, axis, self.reshape_with_axis % inputs.ndim)

    def _merged(self, inputs, axis, merge):
        """The layer run once, the time axis folded into axis ``merge`` (time just after it, so the steps of one
        sample stay together) and unfolded from the output again."""
        if merge == axis:
            raise ValueError(f"For 'TimeDistributed', the 'reshape_with_axis' must name an axis other than "
                             f"'time_axis' ({self.time_axis}), but both are axis {axis}.")
        steps = inputs.shape[axis]
        position = merge if merge < axis else merge - 1  # the merged axis once the time axis is out
        folded = ops.moveaxis(inputs, axis, position + 1)
        shape = folded.shape
        outputs = self.layer(ops.reshape(folded, shape[:position] + (shape[position] * steps,) + shape[position + 2:]))
        if outputs.ndim <= position or outputs.shape[position] != shape[position] * steps:
            raise ValueError(f"For 'TimeDistributed', the layer must keep the merged axis {position} "
                             f"({shape[position] * steps} = {shape[position]} x {steps} steps) in its output, but "
                             f"gave shape {tuple(outputs.shape)}.")
        unfolded = ops.reshape(outputs, outputs.shape[:position] + (shape[position], steps)
                               + outputs.shape[position + 1:])
        return ops.moveaxis(unfolded, position + 1, axis)

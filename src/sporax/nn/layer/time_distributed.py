"""``nn.TimeDistributed``: one layer applied to every step of a sequence."""
from sporax import ops
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell


class TimeDistributed(Cell):
    """Apply ``layer`` to every step along ``time_axis`` and stack the results there.

    Args:
        layer (Cell): the layer for one step.
        time_axis (int): the time axis of the input.
        reshape_with_axis (int): not supported by sporax (must be None; every step runs separately).
            Default: None.

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
        if reshape_with_axis is not None:
            raise NotImplementedError("TimeDistributed: reshape_with_axis is not supported by sporax; leave it None "
                                      "(the layer then runs once per time step).")
        self.layer, self.time_axis, self.reshape_with_axis = layer, time_axis, reshape_with_axis

    def construct(self, inputs):
        if not isinstance(inputs, Tensor) or inputs.ndim < 3:
            raise ValueError(f"For 'TimeDistributed', the input must be a Tensor of at least 3 dims, but got "
                             f"{getattr(inputs, 'shape', type(inputs).__name__)}.")
        axis = self.time_axis % inputs.ndim
        outputs = [self.layer(step) for step in ops.unstack(inputs, axis)]
        return ops.stack(outputs, axis)

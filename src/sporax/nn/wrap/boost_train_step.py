"""``mindspore.boost.BoostTrainOneStepCell`` at the boost level sporax has (``O0``: every boost feature off).

MindSpore's boost step switches on gradient freezing (a ``FreezeOpt`` optimizer), gradient accumulation,
dimension reduction or AdaSum from ``Model(boost_level=...)``'s AutoBoost configuration; at ``O0`` (the
only level sporax's ``Model`` takes) none is on, and the step is ``TrainOneStepCell``'s: forward,
backward with ``sens``, gradient reduction, optimizer update.
"""
from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.wrap.cell_wrapper import TrainOneStepCell


class BoostTrainOneStepCell(TrainOneStepCell):
    """One training step with MindSpore's boost attributes, every boost feature off (level ``O0``).

    Args:
        network (Cell): returns the loss (for example a ``WithLossCell``).
        optimizer (Optimizer): updates ``optimizer.parameters``.
        sens (numbers.Number, optional): the gradient of the loss. Default: ``None`` (1.0).

    Inputs:
        - **(\\*inputs)** - the network's inputs.

    Outputs:
        Tensor, the loss when ``sens`` is given; ``None`` without it, as MindSpore 2.10's step returns
        (its path without ``sens`` updates the weights and returns nothing).
    """

    def __init__(self, network, optimizer, sens=None):
        if type(optimizer).__name__ == "FreezeOpt":
            raise NotImplementedError("BoostTrainOneStepCell: gradient freezing (a FreezeOpt optimizer) is not "
                                      "supported by sporax; pass the optimizer itself.")
        super().__init__(network, optimizer, sens)
        self.sense_flag = sens is not None
        self.freeze = False
        self.train_strategy = getattr(optimizer, "train_strategy", None)
        self.use_grad_accumulation = False
        self.max_accumulation_step = 1
        self.enable_dim_reduce = False
        self.enable_adasum = False
        self.freeze_nets = None
        # MindSpore's step counters (they are in its checkpoints of this Cell)
        self.accumulation_step = Parameter(Tensor(0, dtype=mstype.int32), name="accumulation_step")
        self.step = Parameter(Tensor(0, dtype=mstype.int32), name="step")
        self.sync_tensor = Parameter(Tensor(0, dtype=mstype.int32), name="sync_tensor")

    def construct(self, *inputs):
        loss = super().construct(*inputs)
        return loss if self.sense_flag else None

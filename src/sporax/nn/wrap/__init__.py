"""Training wrappers (``mindspore.nn.wrap``)."""
from sporax.nn.wrap.grad_reducer import DistributedGradReducer
from sporax.nn.wrap.cell_wrapper import ForwardValueAndGrad, TrainOneStepCell, WithEvalCell, WithLossCell
from sporax.nn.wrap.cell_wrapper import WithGradCell
from sporax.nn.wrap.get_next import GetNextSingleOp
from sporax.nn.wrap.loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,
                                       TrainOneStepWithLossScaleCell)

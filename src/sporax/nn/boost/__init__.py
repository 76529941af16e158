"""``mindspore.boost``: training accelerations (LessBN, gradient freezing and accumulation, boost train steps)
and ``AutoBoost``, the configuration ``Model(boost_level=...)`` applies."""
from sporax.nn.boost.auto_boost import AutoBoost
from sporax.nn.boost.boost_train_step import (AdaSum, BoostTrainOneStepCell, BoostTrainOneStepWithLossScaleCell,
                                              DimReduce)
from sporax.nn.boost.gradient_freeze import FreezeOpt, GradientFreeze, freeze_cell
from sporax.nn.boost.less_batch_normalization import CommonHeadLastFN, LessBN
from sporax.nn.wrap.boost_processes import OptimizerProcess, ParameterProcess
from sporax.nn.wrap.gradient_accumulation import GradientAccumulation, gradient_accumulation_op, gradient_clear_op

__all__ = ["AdaSum", "AutoBoost", "BoostTrainOneStepCell", "BoostTrainOneStepWithLossScaleCell", "DimReduce",
           "FreezeOpt", "GradientAccumulation", "GradientFreeze", "LessBN", "OptimizerProcess", "ParameterProcess"]

"""``mindspore.boost.BoostTrainOneStepCell`` and ``BoostTrainOneStepWithLossScaleCell``.

A boost train step is ``TrainOneStepCell`` with the boost functions the optimizer or ``AutoBoost`` turn on:
with a ``FreezeOpt`` optimizer each step runs the per-group step its schedule names (gradient freezing); with
``grad_accumulation`` on (and ``grad_accumulation_step > 1``) the mean gradient of that many steps is applied.
As in MindSpore 2.10, a step built without ``sens`` (and not freezing) updates the weights and returns None.
AdaSum acts only in data-parallel jobs of 16 or more devices and DimReduce needs PCA matrices from saved
checkpoints: sporax implements neither (NotImplementedError).

The loss-scaled step checks overflow with Ascend's float-status operator, or on GPU with an all-finite test of
the gradients; on CPU MindSpore 2.10 cannot select a kernel for it and raises at the first call (so does
sporax).
"""
from sporax import ops
from sporax.core import context
from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.boost.auto_boost import AutoBoost
from sporax.nn.boost.gradient_freeze import FreezeOpt, freeze_cell
from sporax.nn.cell import Cell
from sporax.nn.container import CellList
from sporax.nn.wrap.cell_wrapper import TrainOneStepCell
from sporax.nn.wrap.gradient_accumulation import GradientAccumulation
from sporax.nn.wrap.loss_scale import all_finite
from sporax.state.conditional import run_if

__all__ = ["BoostTrainOneStepCell", "BoostTrainOneStepWithLossScaleCell", "AdaSum", "DimReduce"]


class BoostTrainOneStepCell(TrainOneStepCell):
    """One training step with the boost functions (gradient freezing, gradient accumulation) enabled.

    Args:
        network (Cell): returns the loss.
        optimizer (Union[Optimizer, FreezeOpt]): updates the weights; a ``FreezeOpt`` freezes gradients.
        sens (numbers.Number): the loss's sensitivity. Default: None (1.0, and the step returns None).

    Inputs:
        The network's inputs.

    Outputs:
        Tensor, the loss (None when ``sens`` is None and the optimizer is not a ``FreezeOpt``).
    """

    def __init__(self, network, optimizer, sens=None):
        super().__init__(network, optimizer, sens)
        self.sense_flag = sens is not None
        self.hyper_map = ops.HyperMap()
        self.freeze = isinstance(optimizer, FreezeOpt)
        self.train_strategy = getattr(optimizer, "train_strategy", None)
        self.auto_boost = AutoBoost()
        standalone_or_data = context.get_auto_parallel_context("parallel_mode") in ("stand_alone", "data_parallel")
        self.max_accumulation_step = max(int(self.auto_boost.grad_accumulation_step), 1)
        self.use_grad_accumulation = (standalone_or_data and self.max_accumulation_step > 1
                                      and bool(self.auto_boost.boost_config.get("grad_accumulation", False)))
        if not self.use_grad_accumulation:
            self.max_accumulation_step = 1
        elif not self.freeze:
            self.grad_accumulation = GradientAccumulation(self.max_accumulation_step, optimizer)
        self.step = Parameter(Tensor(0, mstype.int32), name="step")
        self.freeze_nets = None
        if self.freeze:
            # A CellList: a traced step selects its group's step with lax.switch (MindSpore's switch layer).
            steps = freeze_cell(self.reducer_flag, self.network, optimizer, self.sens, self.grad,
                                self.use_grad_accumulation, max_accumulation_step=self.max_accumulation_step)
            self.freeze_nets = CellList(list(steps))
        if getattr(optimizer, "adasum", False) and self.reducer_flag:
            raise NotImplementedError("mindspore.boost AdaSum (boost level O2 in a data-parallel job) is not "
                                      "implemented in sporax; use boost_level='O1'.")
        if getattr(optimizer, "dim_reduce", False):
            raise NotImplementedError("mindspore.boost DimReduce is not implemented in sporax.")

    def gradient_freeze_process(self, *inputs):
        """Run the step of the group the schedule names for this step; advance (and wrap) the step."""
        if self.train_strategy is None:
            group, steps = self.step, len(self.freeze_nets)
        else:
            group, steps = self.train_strategy[self.step], len(self.train_strategy)
        loss = self.freeze_nets[group](*inputs)
        ops.assign(self.step, (self.step + 1) % steps)
        return loss

    def apply_gradients(self, loss, grads):
        """Update (or accumulate) with ``grads``; returns ``loss`` ordered after the update."""
        if self.use_grad_accumulation:
            return self.grad_accumulation(loss, grads)
        return ops.depend(loss, self.optimizer(grads))

    def construct(self, *inputs):
        if self.freeze:
            return self.gradient_freeze_process(*inputs)
        (_, loss), grads = self._value_and_grad(*inputs, self.sens)
        loss = self.apply_gradients(loss, self.grad_reducer(grads))
        # MindSpore 2.10's step without sens ends without returning the loss.
        return loss if self.sense_flag else None


class BoostTrainOneStepWithLossScaleCell(BoostTrainOneStepCell):
    """A loss-scaled boost training step that skips the update when the gradients overflow.

    Args:
        network (Cell): returns the loss.
        optimizer (Union[Optimizer, FreezeOpt]): updates the weights.
        scale_sense (Union[Tensor, Cell]): a fixed scale of shape () or (1,), or an update Cell.

    Inputs:
        The network's inputs.

    Outputs:
        Tuple of ``(loss, overflow, loss_scale)``.
    """

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        if self.auto_boost.boost_config.get("loss_scale_group", False):
            raise NotImplementedError("mindspore.boost loss_scale_group (GroupLossScaleManager) is not "
                                      "implemented in sporax.")
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            value = Tensor(scale_sense.get_loss_scale(), mstype.float32)
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape not in ((1,), ()):
                raise ValueError(f"The shape of scale_sense must be (1,) or (), but got {scale_sense.shape}")
            value = scale_sense
        else:
            raise TypeError(f"The scale_sense must be Cell or Tensor, but got {type(scale_sense)}")
        self.scale_sense = Parameter(value, name="scale_sense")

    def __call__(self, *args, **kwargs):
        if context.get_context("device_target") == "CPU":
            raise RuntimeError("Unsupported op [NPUGetFloatStatusV2] on CPU: mindspore.boost."
                               "BoostTrainOneStepWithLossScaleCell checks overflow with Ascend's float status "
                               "(GPU: an all-finite test), which MindSpore 2.10 has no CPU kernel for. Use "
                               "nn.TrainOneStepWithLossScaleCell on CPU.")
        return Cell.__call__(self, *args, **kwargs)

    def construct(self, *inputs):
        scale = Tensor._wrap(self.scale_sense._value)
        (_, loss), grads = self._value_and_grad(*inputs, scale)
        grads = self.grad_reducer(tuple(grad * (1.0 / scale).astype(grad.dtype) for grad in grads))
        overflow = ops.logical_not(all_finite(grads))
        if self.loss_scaling_manager is not None:
            overflow = self.loss_scaling_manager(self.scale_sense, overflow)
        states = [parameter for _, parameter in self.parameters_and_names()]
        run_if(ops.logical_not(overflow), lambda: self.apply_gradients(loss, grads), states)
        return loss, overflow, scale


class AdaSum(Cell):
    """``mindspore.boost.AdaSum``: not implemented (it exchanges weight deltas between groups of 8 devices).

    Args:
        rank (int), device_number (int), group_number (int), parameter_tuple (ParameterTuple): as MindSpore's.
    """

    def __init__(self, rank, device_number, group_number, parameter_tuple):
        super().__init__()
        raise NotImplementedError("mindspore.boost.AdaSum is not implemented in sporax (its hierarchical "
                                  "point-to-point exchange between device groups).")


class DimReduce(Cell):
    """``mindspore.boost.DimReduce``: not implemented (the PCA-projected quasi-Newton update).

    Args:
        network (Cell), optimizer (Optimizer), weight, pca_mat_local, n_components, rho, gamma, alpha, sigma,
        rank, rank_size: as MindSpore's.
    """

    def __init__(self, network, optimizer, weight, pca_mat_local, n_components, rho, gamma, alpha, sigma, rank,
                 rank_size):
        super().__init__()
        raise NotImplementedError("mindspore.boost.DimReduce is not implemented in sporax.")


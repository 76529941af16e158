"""``mindspore.boost``'s gradient freezing: train a different group of Parameters each step.

``GradientFreeze`` splits a network's trainable Parameters into ``param_groups`` overlapping groups (group
``i`` holds every block from the ``i``-th stride on), builds one optimizer per group (``FreezeOpt``) and a
per-step schedule of which group trains (``freeze_type`` 0: a fixed cycle with ``freeze_p`` of the steps on
group 0; 1: random groups, weighted towards the last ones, at rate ``1 - freeze_p``). ``freeze_cell`` makes
one train step per group; ``BoostTrainOneStepCell`` runs the one the schedule names.
"""
import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.nn.layer.basic import Identity
from sporax.nn.optim.lars import LARS
from sporax.nn.optim.optimizer import Optimizer
from sporax.nn.wrap.boost_processes import ParameterProcess
from sporax.nn.wrap.gradient_accumulation import GradientAccumulation
from sporax.nn.wrap.grad_reducer import DistributedGradReducer

__all__ = ["GradientFreeze", "FreezeOpt", "freeze_cell"]

CONTINUOUS_STRATEGY = 0
INTERVAL_STRATEGY = 1


class FreezeOpt(Cell):
    """One optimizer of ``opt``'s class (and settings) per group of Parameters.

    Args:
        opt (Optimizer): the optimizer to copy (``nn.LARS`` around one is copied with its LARS).
        train_parameter_groups (Union[tuple, list]): the Parameter groups, one optimizer each. Default: None
            (one group: all of ``opt``'s Parameters).
        train_strategy (Union[tuple, list, Tensor]): which group trains at each step. Default: None.
    """

    def __init__(self, opt, train_parameter_groups=None, train_strategy=None):
        super().__init__()
        if not isinstance(opt, Optimizer):
            raise TypeError(f"The first arg 'opt' must be an Optimizer instance, but got {type(opt)}")
        if train_strategy is not None and train_parameter_groups is None:
            raise ValueError("When the 'train_strategy' is specified, the value of 'train_parameter_groups' "
                             "must also be specified")
        self.is_lars = isinstance(opt, LARS)
        self.single_opt = opt.opt if self.is_lars else opt
        self.opt_class = type(self.single_opt)
        self.opt_init_args = self.single_opt.init_args
        self.lars_init_args = opt.init_args if self.is_lars else None
        self.parameters = self.single_opt.parameters
        self.learning_rate = self.single_opt.init_learning_rate
        self.dynamic_lr = self.single_opt.dynamic_lr
        if train_parameter_groups is None:
            self.groups_num = 1
            train_parameter_groups = (tuple(opt.parameters),)
        elif not isinstance(train_parameter_groups, (tuple, list)):
            raise TypeError("The specified 'train_parameter_groups' should be tuple or list")
        else:
            self.groups_num = len(train_parameter_groups)
        self._init_train_strategy(train_strategy)
        self._create_new_group_learning_rate()
        self.opts = []
        for index, params in enumerate(train_parameter_groups):
            self.opt_index = index  # the group whose optimizer _generate_new_optimizer builds
            if not isinstance(params, (tuple, list)):
                raise TypeError("The each element of 'train_parameter_groups' should be tuple or list "
                                "to store the Parameter")
            self.opts.append(self._generate_new_optimizer(params))

    def _init_train_strategy(self, train_strategy):
        if isinstance(train_strategy, (tuple, list)):
            if not all(isinstance(index, int) for index in train_strategy):
                raise ValueError("The element in train_strategy should be int number")
            self.train_strategy = Tensor(train_strategy, mstype.int32)
        elif isinstance(train_strategy, Tensor):
            if train_strategy.ndim != 1 or train_strategy.dtype != mstype.int32:
                raise ValueError("When train_strategy is a Tensor, the dimension should be 1 and "
                                 "the dtype should be int32")
            self.train_strategy = train_strategy
        elif train_strategy is None:
            self.train_strategy = None
        else:
            raise TypeError("The specified 'train_strategy' should be None, tuple, list or Tensor")

    def _create_new_group_learning_rate(self):
        """Per group, the steps' rates of a dynamic rate list (each step's rate goes to the group training then)."""
        self.dynamic_learning_rate = [[] for _ in range(self.groups_num)]
        if self.learning_rate is None:
            self.learning_rate = self.single_opt.learning_rate
            return
        if self.dynamic_lr and isinstance(self.learning_rate, list) and isinstance(self.train_strategy, Tensor):
            strategy = self.train_strategy.asnumpy().tolist()
            if len(self.learning_rate) <= len(strategy):
                for step, rate in enumerate(self.learning_rate):
                    self.dynamic_learning_rate[strategy[step]].append(rate)

    def _generate_new_optimizer(self, params):
        rate = self.dynamic_learning_rate[self.opt_index] or self.learning_rate
        optimizer = self.opt_class(params=params, learning_rate=rate, **self.opt_init_args)
        return LARS(optimizer, **self.lars_init_args) if self.is_lars else optimizer


class _TrainFreezeCell(Cell):
    """One train step that updates one group's Parameters (``freeze_cell`` builds one per group)."""

    def __init__(self, net, sens, grad, grad_reducer, use_grad_accumulation, optimizer, max_accumulation_step=1):
        super().__init__(auto_prefix=False)
        self.net = net
        self.grad = grad
        self.grad_reducer = grad_reducer
        self.opt = optimizer
        self.parameters = optimizer.parameters
        self.sens = sens
        self.use_grad_accumulation = use_grad_accumulation
        self.max_accumulation_step = max_accumulation_step
        if use_grad_accumulation:
            self.grad_accumulation = GradientAccumulation(max_accumulation_step, optimizer)

    def construct(self, *inputs):
        loss = self.net(*inputs)
        sens = ops.fill(loss.dtype, loss.shape, self.sens)
        grads = self.grad_reducer(self.grad(self.net, self.parameters)(*inputs, sens))
        if self.use_grad_accumulation:
            return self.grad_accumulation(loss, grads)
        return ops.depend(loss, self.opt(grads))


class GradientFreeze:
    """Split a network's Parameters into groups and schedule which trains each step.

    Args:
        param_groups (int): the number of groups.
        freeze_type (int): 0 (a fixed cycle) or 1 (random groups).
        freeze_p (float): the share of steps that train group 0 (all Parameters).
        total_steps (int): the steps to schedule (1% more are made).
    """

    def __init__(self, param_groups, freeze_type, freeze_p, total_steps):
        self._param_groups = param_groups
        self._freeze_type = freeze_type
        self._freeze_p = freeze_p
        self._total_steps = total_steps
        self.grad_reducer = Identity()

    @staticmethod
    def split_parameters_groups(net, freeze_para_groups_number):
        """Blocks of ``net``'s trainable Parameters (a block closes at its 4th non-bias, non-BN Parameter);
        group ``i`` joins every block from ``i * (blocks // freeze_para_groups_number)`` on."""
        blocks, block = [], []
        for parameter in net.trainable_params():
            if "bn" in parameter.name or "bias" in parameter.name or len(block) < 3:
                block.append(parameter)
            else:
                blocks.append(block)
                block = [parameter]
        if block:
            blocks.append(block)
        stride = len(blocks) // freeze_para_groups_number
        return [sum(blocks[index * stride:], []) for index in range(freeze_para_groups_number)]

    @staticmethod
    def generate_freeze_index_sequence(parameter_groups_number, freeze_strategy, freeze_p, total_steps):
        """The group that trains at each of ``int(total_steps * 1.01)`` steps (at least that many)."""
        total_step = int(total_steps * 1.01)
        if parameter_groups_number <= 1:
            return [0] * total_step
        if freeze_strategy == CONTINUOUS_STRATEGY:
            zero_count = int(freeze_p * (parameter_groups_number - 1) // (1 - freeze_p) + 0.5)
            cycle = [0] * zero_count + list(range(1, parameter_groups_number))
            indices = []
            while len(indices) < total_step:
                indices += cycle
            return indices
        if freeze_strategy == INTERVAL_STRATEGY:
            groups = list(range(1, parameter_groups_number))
            weights = [group / sum(groups) for group in groups]
            indices, zero_count, frozen_count = [0], 1, 0
            while len(indices) < total_step:
                if frozen_count / (zero_count + frozen_count) < 1 - freeze_p:
                    indices.append(int(np.random.choice(groups[::-1], p=weights)))
                    frozen_count += 1
                else:
                    indices.append(0)
                    zero_count += 1
            return indices
        raise ValueError(f"Unsupported freezing training strategy '{freeze_strategy}'")

    def freeze_generate(self, network, optimizer):
        """``(network, FreezeOpt)``: one optimizer per group of ``network``'s Parameters, and the schedule."""
        groups = self.split_parameters_groups(network, self._param_groups)
        groups = [ParameterProcess.generate_group_params(group, optimizer.init_params["params"]) for group in groups]
        strategy = self.generate_freeze_index_sequence(self._param_groups, self._freeze_type, self._freeze_p,
                                                       self._total_steps)
        return network, FreezeOpt(optimizer, groups, strategy)


def freeze_cell(reducer_flag, network, optimizer, sens, grad, use_grad_accumulation, mean=None, degree=None,
                max_accumulation_step=1):
    """One train step Cell per optimizer of the ``FreezeOpt`` ``optimizer`` (with a gradient reducer each
    when ``reducer_flag``).

    Args:
        reducer_flag (bool): reduce gradients across devices.
        network (Cell): the network returning the loss.
        optimizer (FreezeOpt): the per-group optimizers.
        sens (numbers.Number): the loss's sensitivity.
        grad (GradOperation): the gradient operation (``get_by_list=True, sens_param=True``).
        use_grad_accumulation (bool): accumulate gradients over ``max_accumulation_step`` steps.
        mean (bool): the reducer's ``mean``. Default: None.
        degree (int): the reducer's ``degree``. Default: None.
        max_accumulation_step (int): the accumulation steps. Default: 1.
    """
    def reducer(opt):
        if not reducer_flag:
            return Identity()
        return DistributedGradReducer(ParameterProcess().assign_parameter_group(opt.parameters), mean, degree)

    return tuple(_TrainFreezeCell(network, sens, grad, reducer(opt), use_grad_accumulation, opt,
                                  max_accumulation_step) for opt in optimizer.opts)

"""``mindspore.boost``'s ``OptimizerProcess`` and ``ParameterProcess``: rebuild an optimizer with regrouped
Parameters.

``OptimizerProcess`` keeps what built an optimizer (its class, ``init_params``, ``init_learning_rate``,
``init_args``: ``nn.optim.optimizer.opt_init_args_register``), splits each parameter group in two (the weights
that get gradient centralization, ``grad_centralization=True``, and the rest: biases, ``beta``/``gamma``
normalisation Parameters and grouped convolutions' weights) and builds a new optimizer of the same class
from the groups. ``ParameterProcess`` maps an optimizer's groups onto another list of Parameters (by name)
and numbers Parameters' ``comm_fusion`` buckets. Gradient centralization itself is the optimizer's
``gradients_centralization`` (which, as MindSpore off Ascend, leaves gradients unchanged).

Example:
    >>> from sporax import nn
    >>> from sporax.nn.wrap.boost_processes import OptimizerProcess
    >>> net = nn.Dense(3, 2)
    >>> process = OptimizerProcess(nn.Momentum([{"params": net.trainable_params()}], 0.1, 0.9))
    >>> process.add_grad_centralization(net)
    >>> [group.get("grad_centralization", False) for group in process.origin_params]
    [True, False]
"""
import copy

from sporax import log
from sporax.core.parameter import Parameter
from sporax.nn.layer.conv import Conv2d
from sporax.nn.optim.lars import LARS

_NOT_CENTRALIZED = ("beta", "gamma", "bias")

__all__ = ["OptimizerProcess", "ParameterProcess"]


def _parameter_list(parameters, where):
    """``parameters`` as a list of Parameters or of group dicts (MindSpore's errors for anything else)."""
    parameters = list(parameters) if parameters is not None and not isinstance(parameters, list) else parameters
    if not parameters:
        raise ValueError(f"For '{where}', the optimizer got an empty parameter list.")
    if not isinstance(parameters[0], (dict, Parameter)):
        raise TypeError(f"For '{where}', only a list of Parameter or dict can be supported, but got a list of "
                        f"{type(parameters[0]).__name__}.")
    return parameters


class OptimizerProcess:
    """Rebuild an optimizer with gradient-centralization groups (``mindspore.boost.OptimizerProcess``).

    Args:
        opt (Optimizer): the optimizer (or ``nn.LARS`` around one) to rebuild; its ``init_args`` must be recorded.
    """

    def __init__(self, opt):
        self.is_lars = isinstance(opt, LARS)
        self.single_opt = opt.opt if self.is_lars else opt
        self.opt_class = type(self.single_opt)
        self.opt_init_args = self.single_opt.init_args
        self.lars_init_args = opt.init_args if self.is_lars else None
        self.learning_rate = self.single_opt.init_learning_rate
        self.origin_params = opt.init_params["params"]

    @staticmethod
    def build_params_dict(network):
        """``{id(Parameter): the Cell that owns it}`` over ``network``'s Cells."""
        return {id(parameter): cell for _, cell in network.cells_and_names()
                for parameter in cell.get_parameters(expand=False)}

    @staticmethod
    def build_gc_params_group(params_dict, parameters):
        """Each group of ``parameters`` split into its centralized weights (first) and the rest."""
        groups = []
        for group in parameters:
            if "order_params" in group:
                groups.append(group)
                continue
            centralized, kept = [], []
            for parameter in group["params"]:
                owner = params_dict[id(parameter)]
                excluded = any(word in parameter.name for word in _NOT_CENTRALIZED) or (
                    isinstance(owner, Conv2d) and owner.group > 1)
                (kept if excluded else centralized).append(parameter)
            for members, flag in ((centralized, True), (kept, False)):
                if members:
                    new_group = copy.copy(group)
                    new_group["params"] = members
                    if flag:
                        new_group["grad_centralization"] = True
                    groups.append(new_group)
        return groups

    def add_grad_centralization(self, network):
        """Regroup the optimizer's Parameters for gradient centralization (groups only; a plain list warns)."""
        parameters = _parameter_list(self.origin_params, "OptimizerProcess.add_grad_centralization")
        if isinstance(parameters[0], Parameter):
            log.warning("Only group parameters support gradient centralization.")
            return
        self.origin_params = self.build_gc_params_group(self.build_params_dict(network), parameters)

    def generate_new_optimizer(self):
        """A new optimizer of the same class (and LARS around it) over the regrouped Parameters."""
        if self.learning_rate is None:
            self.learning_rate = self.single_opt.learning_rate
        optimizer = self.opt_class(params=self.origin_params, learning_rate=self.learning_rate, **self.opt_init_args)
        return LARS(optimizer, **self.lars_init_args) if self.is_lars else optimizer


class ParameterProcess:
    """Group and bucket Parameters for an optimizer (``mindspore.boost.ParameterProcess``)."""

    def __init__(self):
        self._parameter_indices = 1

    @staticmethod
    def generate_group_params(parameters, origin_params):
        """``origin_params``' groups with their Parameters replaced by the same-named ones of ``parameters``;
        Parameters no group names form one more group (with the settings of the group with most keys)."""
        groups = _parameter_list(origin_params, "ParameterProcess.generate_group_params")
        if isinstance(groups[0], Parameter):
            return [{"params": parameters}]
        by_name = {parameter.name: parameter for parameter in parameters}
        unused = [parameter.name for parameter in parameters]
        result, widest = [], {}
        for group in groups:
            new_group = copy.copy(group)
            if "order_params" in group:
                new_group["order_params"] = parameters
                result.append(new_group)
                continue
            new_group["params"] = [by_name[p.name] for p in group["params"] if p.name in by_name]
            for parameter in group["params"]:
                if parameter.name in unused:
                    unused.remove(parameter.name)
            result.append(new_group)
            if len(group) > len(widest):
                widest = copy.copy(group)
        if unused:
            rest = widest or {}
            rest["params"] = [by_name[name] for name in unused]
            result.append(rest)
        return result

    def assign_parameter_group(self, parameters, split_point=None):
        """Number the ``comm_fusion`` bucket of each Parameter: a new bucket starts at each index of
        ``split_point`` (default: the middle)."""
        if not isinstance(parameters, (list, tuple)) or not parameters:
            return parameters
        starts = split_point or [len(parameters) // 2]
        for index, parameter in enumerate(parameters):
            if index in starts:
                self._parameter_indices += 1
            parameter.comm_fusion = self._parameter_indices
        return parameters

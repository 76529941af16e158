"""The PyTorch-style optimizer base of ``mindspore.experimental.optim`` and ``mindspore.mint.optim``.

Contract: an optimizer is a Cell over ``param_groups`` (dicts holding ``params`` and the
hyper-parameters of one group); calling it with one gradient per parameter (in group order)
performs one step, as ``optimizer(grads)`` does in MindSpore. Each group's learning rate is a
scalar Parameter (``learning_rate_group_<i>``, also in ``self.lrs``) so that an LR scheduler can
change it between steps without recompiling the step.

Algorithm: ``construct`` advances the shared step counter once, then for each parameter reads its
gradient (negated under ``maximize``) and asks the subclass's ``_update`` for the new value; the
subclass keeps its per-parameter state in ParameterTuples named after PyTorch's state keys
(``exp_avg.<name>`` ...), read with ``self._state`` and written with ``self._store``. A group's
``weight_decay`` is PyTorch's L2 decay, added to the gradient before ``_update`` unless the
optimizer sets ``_decoupled_weight_decay``. The whole
step runs compiled (``CompiledStep``), with every Parameter lifted as state.
"""
import numbers

import jax.numpy as jnp
import numpy as np

from sporax.core.parameter import Parameter, ParameterTuple
from sporax.core.tensor import Tensor
from sporax.nn.optim.docstring import docstring_template
from sporax.nn.optim.optimizer import CompiledStep
from sporax.ops.functional.update import adam_moments
from sporax.state.assign import write


class Optimizer(CompiledStep):
    """Base class of the PyTorch-style optimizers.

    Args:
        params (Union[list[Parameter], list[dict]]): the Parameters to update, or parameter groups
            ``{'params': [...], 'lr': ..., ...}`` whose keys override ``defaults``.
        defaults (dict): the default hyper-parameters of every group.

    Inputs:
        - **gradients** (tuple[Tensor]): one gradient per parameter, in the order of the groups.

    Example:
        >>> import sporax as ms
        >>> from sporax.mint.optim import SGD
        >>> net = ms.nn.Dense(3, 2)
        >>> optimizer = SGD(net.trainable_params(), lr=0.1)
    """

    _state_names = ()
    # PyTorch's coupled (L2) weight decay adds ``weight_decay * param`` to the gradient before
    # ``_update``; an optimizer that decays the parameter itself (AdamW) sets this.
    _decoupled_weight_decay = False

    def __init__(self, params, defaults):
        super().__init__(auto_prefix=False)
        name = type(self).__name__
        if isinstance(params, (Parameter, Tensor)):
            raise TypeError(f"For '{name}', params must be an iterable of Parameters or dicts, "
                            f"but got a single {type(params).__name__}; pass [param] instead.")
        params = list(params)
        if not params:
            raise ValueError(f"For '{name}', the optimizer got an empty parameter list.")
        self.defaults = dict(defaults)
        self.param_groups = []
        self.lrs = []
        groups = params if isinstance(params[0], dict) else [{"params": params}]
        for group in groups:
            self._add_group(group)
        self._build_state()

    def _add_group(self, group):
        name = type(self).__name__
        if not isinstance(group, dict) or "params" not in group:
            raise TypeError(f"For '{name}', a parameter group must be a dict with key 'params', got {group!r}.")
        members = group["params"]
        members = [members] if isinstance(members, Parameter) else list(members)
        for member in members:
            if not isinstance(member, Parameter):
                raise TypeError(f"For '{name}', params must hold Parameters, got {type(member).__name__}.")
        # The group's own keys first, in its order, then the defaults it lacks, as MindSpore lists them.
        merged = dict(group, params=members)
        for key, value in self.defaults.items():
            merged.setdefault(key, value)
        lr = merged.get("lr")
        if lr is None:
            raise ValueError(f"For '{name}', the learning rate 'lr' is required.")
        if not isinstance(lr, Parameter):
            if isinstance(lr, Tensor):
                lr = float(lr.asnumpy())
            if not isinstance(lr, numbers.Real) or lr < 0:
                raise ValueError(f"For '{name}', lr must be a non-negative float, got {lr!r}.")
            lr = Parameter(Tensor(np.array(lr, np.float32)), name=f"learning_rate_group_{len(self.lrs)}")
        merged["lr"] = lr
        self.param_groups.append(merged)
        self.lrs.append(lr)

    def __repr__(self):
        """The groups' hyper-parameters, sorted by name (rates as their values), as MindSpore prints them."""
        text = type(self).__name__ + " ("
        for index, group in enumerate(self.param_groups):
            text += f"\nParameter Group {index}\n"
            for key in sorted(group):
                if key != "params":
                    value = group[key]
                    if key in ("lr", "initial_lr"):
                        value = Tensor(np.array(float(np.asarray(getattr(value, "asnumpy", lambda: value)())),
                                                np.float32))
                    text += f"    {key}: {value}\n"
        return text + ")"

    __str__ = __repr__

    @property
    def group_start_id(self):
        """Where each group's parameters start in ``parameters`` (and, last, their count), as
        MindSpore lists them for optimizers that walk their groups by index."""
        starts = [0]
        for group in self.param_groups:
            starts.append(starts[-1] + len(group["params"]))
        return starts

    def add_param_group(self, param_group):
        """Add a parameter group (a dict with 'params' and optional hyper-parameters); the state of
        the existing parameters is kept."""
        start = len(self.parameters)
        self._add_group(param_group)
        members = [p for group in self.param_groups for p in group["params"]]
        added = ParameterTuple(members[start:])
        self.parameters = ParameterTuple(members)
        self.learning_rates = ParameterTuple(self.lrs)
        for state_name in self._state_names:
            kept = tuple(getattr(self, state_name))
            setattr(self, state_name, ParameterTuple(kept + tuple(self._initial_state(state_name, added))))

    def _build_state(self):
        members = [p for group in self.param_groups for p in group["params"]]
        self.parameters = ParameterTuple(members)
        self.learning_rates = ParameterTuple(self.lrs)
        for state_name in self._state_names:
            setattr(self, state_name, self._initial_state(state_name, self.parameters))
        self.state_step = Parameter(Tensor(np.zeros((), np.int32)), name="state_step", requires_grad=False)

    def _initial_state(self, state_name, parameters):
        """The ParameterTuple of one kind of per-parameter state (zeros unless a subclass says otherwise)."""
        return parameters.clone(state_name, "zeros")

    def _state(self, state_name, index):
        return getattr(self, state_name)[index]._value

    def _store(self, state_name, index, value):
        write(getattr(self, state_name)[index], value, type(self).__name__)

    def _moments(self, index, gradient, beta1, beta2):
        """Adam's first and second moments of parameter ``index`` after ``gradient``, stored."""
        exp_avg, exp_avg_sq = adam_moments(self._state("exp_avg", index), self._state("exp_avg_sq", index),
                                           gradient, beta1, beta2)
        self._store("exp_avg", index, exp_avg)
        self._store("exp_avg_sq", index, exp_avg_sq)
        return exp_avg, exp_avg_sq

    def construct(self, gradients):
        name = type(self).__name__
        if len(gradients) != len(self.parameters):
            raise ValueError(f"For '{name}', got {len(gradients)} gradients for {len(self.parameters)} "
                             "parameters; pass one gradient per parameter, in the order of the groups.")
        step = self.state_step._value + 1
        write(self.state_step, step, name)
        step = step.astype(jnp.float32)
        index = 0
        for group, lr in zip(self.param_groups, self.lrs):
            for parameter in group["params"]:
                gradient = gradients[index]
                gradient = gradient._value if isinstance(gradient, Tensor) else jnp.asarray(gradient)
                gradient = gradient.astype(parameter._value.dtype)
                if group.get("maximize", False):
                    gradient = -gradient
                if group.get("weight_decay") and not self._decoupled_weight_decay:
                    gradient = gradient + group["weight_decay"] * parameter._value
                value = self._update(group, lr._value, index, parameter._value, gradient, step)
                write(parameter, value, name)
                index += 1
        return True

    def _update(self, group, lr, index, value, gradient, step):
        raise NotImplementedError(f"{type(self).__name__} must implement _update(group, lr, index, value, "
                                  "gradient, step) returning the parameter's new value.")


# ``documented`` adds the shared arguments (with their defaults) to a subclass's docstring, which
# describes only its own; these two read differently from nn's optimizers.
documented = docstring_template("ms.mint.optim", {
    "params": "params (Union[list[Parameter], list[dict]]): the Parameters, or parameter groups (dicts with "
              "'params' and hyper-parameters that override the defaults for the group).",
    "weight_decay": "weight_decay (float): L2 penalty, added to the gradient as ``weight_decay * param``.",
})


def check_range(name, **values):
    """Raise MindSpore's ValueError for a negative hyper-parameter."""
    for key, value in values.items():
        if value < 0:
            raise ValueError(f"For '{name}', invalid {key} value: {value}; it must be >= 0.")


def check_betas(name, betas):
    if not all(0.0 <= beta < 1.0 for beta in betas):
        raise ValueError(f"For '{name}', invalid beta parameters: {tuple(betas)}; each must be in [0, 1).")

"""``nn.Optimizer``: learning rates, parameter groups, weight decay, loss scale, ``global_step``.

An optimizer is a Cell whose state (``global_step``, ``learning_rate``, moments) is made of
Parameters, so it is lifted, compiled and checkpointed like the network (names as MindSpore's:
``global_step``, ``learning_rate``, ``moments.fc1.weight`` ...).
"""
import inspect
import numbers
from collections.abc import Iterable

import jax
import jax.numpy as jnp
import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter, ParameterTuple
from sporax.core.tensor import Tensor
from sporax.graph.cell_jit import call_update
from sporax.nn.cell import Cell
from sporax.nn.learning_rate_schedule import LearningRateSchedule
from sporax.nn.optim.docstring import docstring_template
from sporax.ops.functional.indexing import check_gather_indices


class _IteratorLearningRate(Cell):
    """A per-step learning-rate list: step ``i`` uses ``learning_rate[i]``; an eager step past the end raises
    MindSpore's Gather RuntimeError, a compiled one keeps the last rate.

    The result has the shape of the step given, as MindSpore's gather does: ``global_step`` (shape ``(1,)``)
    gives a 1-element rate, which schedulers such as mindcv's read back with ``[0]``.
    """

    def __init__(self, learning_rate, name):
        super().__init__()
        values = np.asarray(learning_rate.asnumpy() if isinstance(learning_rate, Tensor) else learning_rate,
                            np.float32).reshape(-1)
        self.learning_rate = Parameter(Tensor(values), name=name)
        self._last = len(values) - 1

    def construct(self, global_step):
        index = jnp.asarray(global_step._value if isinstance(global_step, Tensor) else global_step)
        if not isinstance(index, jax.core.Tracer):
            # MindSpore gathers the rate: past the list's end its kernel raises, it does not repeat the last rate.
            check_gather_indices(self.learning_rate._value, index, 0)
        # A compiled step cannot raise on a runtime value: it keeps the last rate.
        return Tensor._wrap(self.learning_rate._value[jnp.minimum(index, self._last)])


def _per_step_rates(value, cell_name):
    """The float32 rates of an Iterable learning_rate (list, tuple, range, generator; a str is one too)."""
    try:
        return np.asarray(list(value), np.float32).reshape(-1)
    except (TypeError, ValueError) as error:
        # MindSpore converts any Iterable item by item: 'invalid' fails on its first character.
        raise type(error)(f"For '{cell_name}', a per-step learning_rate must hold numbers: {error}.") from error


def _learning_rate(value, name, cell_name):
    """A Parameter, a schedule Cell or an iterator Cell for one learning-rate setting."""
    if isinstance(value, LearningRateSchedule):
        return value
    if isinstance(value, Cell):
        raise TypeError(f"For '{cell_name}', a Cell learning_rate must be a LearningRateSchedule.")
    # MindSpore 2.10 takes a bool as the int it is (True: rate 1.0).
    if isinstance(value, numbers.Real):
        if value < 0:
            raise ValueError(f"For '{cell_name}', learning_rate must be >= 0, got {value}.")
        return Parameter(Tensor(np.float32(value)), name=name)
    if isinstance(value, Tensor) and value.ndim == 0:
        return Parameter(Tensor(value, mstype.float32), name=name)
    if isinstance(value, (Tensor, Iterable)):
        if isinstance(value, Tensor) and value.ndim != 1:
            raise ValueError(f"For '{cell_name}', a Tensor learning_rate must be 0-D or 1-D, got {value.shape}.")
        if not isinstance(value, Tensor):
            value = _per_step_rates(value, cell_name)
        if len(value) == 0:
            raise ValueError(f"For '{cell_name}', a learning_rate list must not be empty.")
        return _IteratorLearningRate(value, name)
    raise TypeError(f"For '{cell_name}', learning_rate must be float, Tensor, list or LearningRateSchedule, "
                    f"got {type(value).__name__}.")


# The optimizers MindSpore gives a host-side ('CPU') update: their ``target`` is settable.
_HOST_UPDATE = ("Adam", "LazyAdam", "FTRL", "ProximalAdagrad")


# ``documented`` adds the shared arguments (with their defaults) to a subclass's docstring, which
# describes only its own; these two read differently from mint.optim's.
documented = docstring_template("ms.nn", {
    "params": "params (Union[list[Parameter], list[dict]]): the Parameters, or parameter groups (see ``Optimizer``).",
    "weight_decay": "weight_decay (Union[float, int, Cell]): L2 penalty added to the gradients (see ``Optimizer``).",
})


def _default_decay_filter(parameter):
    return "beta" not in parameter.name and "gamma" not in parameter.name


class CompiledStep(Cell):
    """A Cell whose call runs compiled in every mode: the optimizers of ``nn`` and ``mint.optim``.

    An update is dozens of small ops per parameter: even in PYNATIVE_MODE it runs as one compiled
    program (its Python side effects then run once per signature, as under jit). On a small network
    it is launched with the next program, the next step's gradient (``sporax.state.deferred``; any
    read of a Parameter applies it first). A Cell with hooks or a cast type takes the ordinary path.
    """

    def __call__(self, *args, **kwargs):
        if self._hooks is not None or self._cast_type is not None:
            return super().__call__(*args, **kwargs)
        return call_update(self, args, kwargs)


class Optimizer(CompiledStep):
    """Base class of optimizers: subclasses implement ``construct(gradients)``.

    Args:
        learning_rate (Union[float, Tensor, list, LearningRateSchedule]): a fixed rate, a per-step
            list (or 1-D Tensor), or a schedule of ``global_step``.
        parameters (Union[list[Parameter], list[dict]]): the Parameters, or groups
            ``{'params': [...], 'lr': ..., 'weight_decay': ...}`` plus optionally ``{'order_params': [...]}``.
        weight_decay (Union[float, Cell]): L2 penalty added to the gradients (not to beta/gamma
            parameters unless grouped explicitly); a Cell gives it per ``global_step``.
        loss_scale (float): gradients are divided by it.
    """

    def __call__(self, *args, **kwargs):
        if self._hooks is None and self._cast_type is None:  # CompiledStep's test, inlined: once per step
            result = call_update(self, args, kwargs)
        else:
            result = Cell.__call__(self, *args, **kwargs)
        if result is True:
            # MindSpore's optimizers answer one True per parameter (its per-parameter update results):
            # code indexes it, and `export` of a train step returns it.
            return (True,) * len(self._parameters)
        return result

    def __init_subclass__(cls, **kwargs):
        # Every optimizer records what built it (init_params, init_learning_rate, init_args), as MindSpore's
        # optimizers do through opt_init_args_register: boost.OptimizerProcess rebuilds one from them.
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is not None and not getattr(init, "records_init_args", False):
            cls.__init__ = _recording(init)

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        # No prefix for the child Cells' Parameters, as in MindSpore: a per-step learning-rate list is
        # the checkpoint entry 'learning_rate' (not 'learning_rate.learning_rate'), the name resuming
        # scripts filter out and MindSpore's load_checkpoint looks for.
        super().__init__(auto_prefix=False)
        name = type(self).__name__
        if parameters is None:
            raise ValueError(f"For '{name}', the argument 'parameters' must not be None.")
        parameters = list(parameters)
        if not parameters:
            raise ValueError(f"For '{name}', the argument 'parameters' must not be empty: pass "
                             "net.trainable_params().")
        if isinstance(loss_scale, bool) or not isinstance(loss_scale, numbers.Real) or loss_scale <= 0:
            raise ValueError(f"For '{name}', loss_scale must be a number > 0, got {loss_scale!r}.")
        self.loss_scale = float(loss_scale)
        self.reciprocal_scale = 1.0 / self.loss_scale
        self.global_step = Parameter(Tensor(np.zeros(1, np.int32)), name="global_step")
        self.is_group = isinstance(parameters[0], dict)
        if self.is_group:
            params, rates, decays = self._parse_groups(parameters, learning_rate, weight_decay)
        else:
            params = parameters
            rates = None
            decays = [self._weight_decay_value(weight_decay)] * len(params)
        for parameter in params:
            if not isinstance(parameter, Parameter):
                raise TypeError(f"For '{name}', every parameter must be a Parameter, got "
                                f"{type(parameter).__name__}.")
        self.is_group_lr = rates is not None
        if self.is_group_lr:
            for index, rate in enumerate(rates.rates):
                if isinstance(rate, Parameter):
                    self.insert_param_to_cell(rate.name, rate)
                else:
                    self.insert_child_to_cell(f"learning_rate_group_{index}", rate)
            # A plain tuple, as MindSpore shows it; its members are registered above.
            object.__setattr__(self, "learning_rate", tuple(rates.rates))
            self._group_of = rates.group_of
        else:
            self.learning_rate = _learning_rate(learning_rate, "learning_rate", name)
        if self.is_group_lr:
            self.dynamic_lr = not all(isinstance(rate, Parameter) for rate in self.learning_rate)
        else:
            self.dynamic_lr = not isinstance(self.learning_rate, Parameter)
        self.parameters = ParameterTuple(params)
        self._parameters = self.parameters
        self._decays = decays
        self.dynamic_weight_decay = any(callable(d) for d in decays)
        self.decay_flags = tuple(_default_decay_filter(p) for p in params)
        # As MindSpore: float32 scalar Tensors (custom optimizers pass them to MultitypeFuncGraphs).
        decay_values = tuple(d if callable(d) else Tensor(np.float32(d)) for d in decays)
        self.weight_decay = decay_values[0] if not self.is_group else decay_values
        self.exec_weight_decay = any(callable(d) or d > 0 for d in decays)
        # What MindSpore's custom optimizers read in construct: every parameter is updated here
        # (``optim_filter``), and optimizer state is not sharded over devices (``use_parallel``).
        self.param_length = len(params)
        self.optim_filter = (True,) * self.param_length
        self.use_parallel = False
        self.map_ = ops.Map()
        self.hyper_map = ops.HyperMap()
        # What custom optimizers (mindcv's AdamW, Adan, Lion) call in construct to advance the step.
        self.global_step_increase_tensor = Tensor(np.ones(1, np.int32))
        self.assignadd = ops.AssignAdd()

    @property
    def target(self):
        """The device the update runs on: 'CPU', 'GPU' or 'Ascend' (the context's device by default).

        Only optimizers with a host-side variant (Adam, LazyAdam, FTRL, ProximalAdagrad) accept a new
        value; on sporax the update is one compiled program either way, so the value is recorded only.
        """
        target = self.__dict__.get("_target")
        if target is None:
            from sporax.core.context import get_context

            target = get_context("device_target")
        return target

    @target.setter
    def target(self, value):
        if not any(cls.__name__ in _HOST_UPDATE and cls.__module__.startswith("sporax.")
                   for cls in type(self).__mro__):
            raise NotImplementedError(f"For '{type(self).__name__}', the property 'target' cannot be set: only "
                                      "Adam, LazyAdam, FTRL and ProximalAdagrad have a host-side ('CPU') update.")
        self._set_base_target(value)

    def _set_base_target(self, value):
        """Validate and record ``target`` (the setter of the optimizers that have a host-side update)."""
        from sporax.core.context import get_context

        if not isinstance(value, str):
            raise TypeError(f"For 'Optimizer', the property 'target' must be string, but got {type(value)}")
        if value not in ("CPU", "GPU", "Ascend"):
            raise ValueError(f"For 'Optimizer', the property 'target' must be one of ['CPU', 'Ascend' ,'GPU'], "
                             f"but got {value}")
        device = get_context("device_target")
        if device == "CPU" and value != "CPU":
            raise ValueError("For 'Optimizer', the property 'target' cannot be set to 'GPU' or 'Ascend' in the "
                             "'CPU' environment.")
        self.__dict__["_target"] = value
        self.__dict__["_is_device"] = value != "CPU"

    @property
    def unique(self):
        """Whether sparse gradients get their duplicate indices merged before the update (True unless a
        parameter was made unique already). sporax's gradients are dense, so the value is recorded only."""
        return self.__dict__.get("_unique", not any(parameter.unique for parameter in self._parameters))

    @unique.setter
    def unique(self, value):
        if not isinstance(value, bool):
            raise TypeError(f"For 'Optimizer', the property 'unique' must be bool, but got {type(value)}")
        self.__dict__["_unique"] = value

    def flatten_gradients(self, gradients):
        """The gradients as the update takes them (sporax fuses no parameters, so unchanged)."""
        return gradients

    def gradients_centralization(self, gradients):
        """The gradients after the groups' ``grad_centralization``: MindSpore centralizes only on Ascend and
        leaves them unchanged on CPU and GPU, as sporax does."""
        return gradients

    def _grad_sparse_indices_deduplicate(self, gradients):
        """Sparse gradients with their duplicate indices merged; sporax's gradients are dense, so unchanged."""
        return gradients

    def broadcast_params(self, optim_result):
        """The updated Parameters gathered across devices; sporax's optimizer state is not sharded, so unchanged."""
        return optim_result

    def _weight_decay_value(self, weight_decay):
        if isinstance(weight_decay, Cell) or (callable(weight_decay) and not isinstance(weight_decay, numbers.Real)):
            return weight_decay
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, numbers.Real) or weight_decay < 0:
            raise ValueError(f"For '{type(self).__name__}', weight_decay must be a float >= 0 or a Cell, "
                             f"got {weight_decay!r}.")
        return float(weight_decay)

    def _parse_groups(self, groups, learning_rate, weight_decay):
        name = type(self).__name__
        params, rates, decays, order = [], [], [], None
        group_rates = []
        for index, group in enumerate(groups):
            if not isinstance(group, dict):
                raise TypeError(f"For '{name}', parameter groups must all be dicts.")
            if "order_params" in group:
                order = list(group["order_params"])
                continue
            if "params" not in group:
                raise ValueError(f"For '{name}', group {index} has no 'params'.")
            members = list(group["params"])
            rate = group.get("lr", None)
            decay = self._weight_decay_value(group.get("weight_decay", weight_decay))
            group_rates.append(rate)
            for parameter in members:
                if any(parameter is p for p in params):
                    raise RuntimeError(f"For '{name}', the parameter {parameter.name} is in more than one group.")
                params.append(parameter)
                rates.append(len(group_rates) - 1)
                decays.append(decay)
        if order is not None:
            position = {id(p): i for i, p in enumerate(params)}
            missing = [p.name for p in order if id(p) not in position]
            if missing:
                raise ValueError(f"For '{name}', order_params names parameters in no group: {missing}.")
            permutation = [position[id(p)] for p in order]
            params = [params[i] for i in permutation]
            rates = [rates[i] for i in permutation]
            decays = [decays[i] for i in permutation]
        if all(rate is None for rate in group_rates):
            return params, None, decays
        cells = []
        for index, rate in enumerate(group_rates):
            if rate is None:
                cells.append(_learning_rate(learning_rate, "learning_rate", name))
            else:
                cells.append(_learning_rate(rate, f"learning_rate_group_{index}", name))
        return params, _RateTable(cells, rates), decays

    def _is_dynamic_lr_or_weight_decay(self):
        return self.dynamic_lr or self.dynamic_weight_decay

    def _rate(self, rate):
        if isinstance(rate, Parameter):
            return rate
        return rate(self.global_step).reshape(())

    def get_lr(self):
        """The learning rate for this step (a tuple per parameter with group rates).

        As in MindSpore 2.10 it only reads ``global_step``: the optimizer's step advances it (a custom
        ``construct`` adds ``global_step_increase_tensor`` itself), so callbacks may read the rate freely.
        """
        if self.is_group_lr:
            rates = tuple(self._rate(rate) for rate in self.learning_rate)
            return tuple(rates[group] for group in self._group_of)
        return self._rate(self.learning_rate)

    def get_lr_parameter(self, param):
        """The learning-rate Parameter (or schedule) that applies to ``param``, a list of them for a list.

        Raises:
            TypeError: ``param`` is neither a Parameter nor a list.
            ValueError: a Parameter this optimizer does not update.
        """
        if isinstance(param, list):
            return [self.get_lr_parameter(one) for one in param]
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'get_lr_parameter', the 'param' must be 'Parameter' or 'list' type, but got "
                            f"{type(param)}.")
        for index, parameter in enumerate(self.parameters):
            if parameter is param:
                return self.learning_rate[self._group_of[index]] if self.is_group_lr else self.learning_rate
        raise ValueError(f"For 'get_lr_parameter', the parameter {param.name} is not in optimizer, please check "
                         f"whether the argument 'param' is correct.")

    def get_weight_decay(self):
        """This step's weight decay as MindSpore returns it: one Tensor (times ``loss_scale``) without
        parameter groups, a tuple of them, one per parameter, with groups; a schedule's value at the step."""
        decays = tuple(d(self.global_step) if callable(d) else Tensor(np.float32(d * self.loss_scale))
                       for d in self._decays)
        return decays if self.is_group else decays[0]

    def _step_decays(self):
        """The weight decay values for this step, one per parameter (not loss-scaled)."""
        return tuple(d(self.global_step) if callable(d) else d for d in self._decays)

    def decay_weight(self, gradients):
        """Add ``weight_decay * loss_scale * parameter`` to each (loss-scaled) gradient (skipping beta/gamma
        unless grouped), so that after ``scale_grad`` the decay is ``weight_decay * parameter``."""
        if not self.exec_weight_decay:
            return gradients
        decays = self._step_decays()
        result = []
        for parameter, gradient, decay, flag in zip(self.parameters, gradients, decays, self.decay_flags):
            if (flag or self.is_group) and (callable(decay) or decay):
                # As MindSpore: the decay is scaled by loss_scale, so it survives the division by it.
                gradient = gradient + parameter * (decay * self.loss_scale)
            result.append(gradient)
        return tuple(result)

    def scale_grad(self, gradients):
        """Undo the loss scale: ``gradient / loss_scale``."""
        if self.loss_scale == 1.0:
            return gradients
        return tuple(gradient * self.reciprocal_scale for gradient in gradients)

    def _gradients_for_parameters(self, gradients):
        """``gradients`` as a tuple, one per parameter; a count that differs raises RuntimeError, as MindSpore's
        optimizers (mapping the update over parameters and gradients) refuse it when compiling."""
        gradients = tuple(gradients)
        if len(gradients) != len(self.parameters):
            raise RuntimeError(f"For '{type(self).__name__}', the optimizer updates {len(self.parameters)} parameters "
                               f"but got {len(gradients)} gradients: differentiate with respect to the optimizer's "
                               "parameters (e.g. GradOperation(get_by_list=True) over optimizer.parameters).")
        return gradients

    def _advance(self, gradients):
        """What every built-in optimizer does first: scale, decay, and this step's learning rate."""
        gradients = self.scale_grad(self.decay_weight(self._gradients_for_parameters(gradients)))
        rate = self.get_lr()
        ops.assign_add(self.global_step, Tensor(np.ones(1, np.int32)))
        if not self.is_group_lr:
            rate = (rate,) * len(self.parameters)
        return gradients, rate

    def construct(self, gradients):
        raise NotImplementedError(f"{type(self).__name__} must define construct(gradients).")


class _RateTable:
    """Group learning rates: the distinct rate Cells/Parameters and which group each parameter uses."""

    def __init__(self, rates, group_of):
        self.rates = rates
        self.group_of = tuple(group_of)


def opt_init_args_register(init):
    """Decorate an optimizer's ``__init__`` to record its arguments, as MindSpore's optimizers keep them.

    After construction the optimizer holds ``init_params`` (``{"params": ...}``, taken from the wrapped
    optimizer when it wraps one), ``init_learning_rate`` (a number or list; None for a schedule Cell)
    and ``init_args`` (every other argument, defaults applied): what is needed to build it again
    (``mindspore.boost.OptimizerProcess`` does). sporax's own optimizers record them through
    ``Optimizer.__init_subclass__``, keeping their signatures.

    Example:
        >>> class MyOpt(Optimizer):
        ...     @opt_init_args_register
        ...     def __init__(self, params, learning_rate=0.1, beta=0.9):
        ...         super().__init__(learning_rate, params)
    """
    recording_init = _recording(init)
    # Not functools.wraps: as on MindSpore, the decorated __init__ shows (self, *args, **kwargs).
    # Libraries read it (mindocr's optimizer factory forwards only the keyword arguments an
    # optimizer's signature names, and refuses a signature naming 'clip').
    del recording_init.__signature__
    return recording_init


def _recording(init):
    """``init`` that first records its arguments (the outermost recording ``__init__`` of a call chain only:
    a subclass's arguments, not those it passes to ``super().__init__``); shows ``init``'s signature."""
    signature = inspect.signature(init)

    def recording_init(self, *args, **kwargs):
        try:
            bound = None if "init_args" in self.__dict__ else signature.bind(self, *args, **kwargs)
        except TypeError:  # arguments that do not fit: ``init`` itself raises its own error
            bound = None
        if bound is not None:
            bound.apply_defaults()
            arguments = dict(bound.arguments)
            arguments.pop(next(iter(signature.parameters)))
            if "params" in arguments:
                object.__setattr__(self, "init_params", {"params": arguments.pop("params")})
            if "optimizer" in arguments:
                wrapped = arguments.pop("optimizer")
                object.__setattr__(self, "init_params", {"params": getattr(wrapped, "init_params", {}).get("params")})
            if "learning_rate" in arguments:
                rate = arguments.pop("learning_rate")
                if isinstance(rate, Tensor):
                    rate = rate.asnumpy().tolist()
                object.__setattr__(self, "init_learning_rate", None if isinstance(rate, Cell) else rate)
            object.__setattr__(self, "init_args", arguments)
        init(self, *args, **kwargs)

    recording_init.__signature__ = signature
    recording_init.__name__, recording_init.__qualname__ = init.__name__, init.__qualname__
    recording_init.__doc__, recording_init.__module__ = init.__doc__, init.__module__
    recording_init.records_init_args = True
    return recording_init

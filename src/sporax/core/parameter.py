"""Parameter: a named, trainable Tensor whose value ``sporax.state`` lifts in and out of JAX.

A Parameter keeps its value in the same ``_array`` slot as every Tensor; ``set_data``,
``ops.assign`` and in-place operators rebind the slot, so the optimizer and the network share
one object while the arrays themselves stay immutable.

Example:
    >>> import numpy as np
    >>> from sporax.core.tensor import Tensor
    >>> from sporax.core.parameter import Parameter
    >>> Parameter(Tensor(np.ones((2, 3), np.float32)), name="fc.weight")
    Parameter (name=fc.weight, shape=(2, 3), dtype=Float32, requires_grad=True)
"""
import contextlib
import copy as _copy
import itertools
import numbers

import jax
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.host_buffer import private_value
from sporax.core.initializer import make_array
from sporax.core.tensor import Tensor

# MindSpore 2.10's import takes the first two automatic names itself, so the first Parameter a
# user makes without a name is ``Parameter#2`` there; printed reprs match when sporax starts there too.
_auto_names = itertools.count(2)
# > 0 while sporax itself renames Parameters (a Cell's first call, which may run inside a trace, gives
# duplicate names their attribute paths); only a user's rename inside compiled code is refused
_framework_renames = 0


@contextlib.contextmanager
def framework_renames():
    """Let sporax rename Parameters of a running trace (MindSpore's graph refuses only the user's renames)."""
    global _framework_renames
    _framework_renames += 1
    try:
        yield
    finally:
        _framework_renames -= 1


class ParamInfo:
    """The per-Parameter settings MindSpore keeps beside the value (``Parameter.param_info``).

    ``ParamInfo()`` (``mindspore._c_expression.ParamInfo``) starts from MindSpore 2.10's defaults: name
    'Parameter', requires_grad True, layerwise_parallel False, parallel_optimizer True.
    """

    def __init__(self, name="Parameter", requires_grad=True, layerwise_parallel=False, parallel_optimizer=True):
        self.name = name
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer
        self.comm_fusion = 1
        self.parallel_optimizer_comm_recompute = False
        self.cache_enable = False
        self.cache_shape = []
        self.requires_aggr = True
        self.key = -1
        self.unique = False

    def clone(self):
        return _copy.copy(self)


def _check_name(name):
    if name is not None and not isinstance(name, str):
        raise ValueError(f"The type of the Parameter's name should be 'string' or 'None', but got {type(name)}.")


def _check_bool(value, argument):
    if not isinstance(value, bool):
        raise TypeError(f"The argument `{argument}` must be bool type")


def _initial_array(default_input):
    """The jax array a new Parameter starts from (lazily initialised Tensors are filled now)."""
    if isinstance(default_input, Tensor):
        return private_value(default_input)  # a copy of a Tensor.from_numpy's array, as MindSpore
    if isinstance(default_input, (bool, np.bool_)):
        raise ValueError("Parameter data can not be `bool`")
    if isinstance(default_input, numbers.Integral):
        return Tensor(default_input, mstype.int32)._value
    if isinstance(default_input, numbers.Real):
        return Tensor(default_input, mstype.float32)._value
    if isinstance(default_input, (np.ndarray, list)):
        return Tensor(default_input)._value
    raise TypeError("The type of the argument 'default_input' must be in ['Tensor', 'int', 'float', "
                    f"'numpy.ndarray', 'list']. But got type {type(default_input)}.")


# A deferred update (``sporax.state.deferred``): an optimizer's update of Parameters held back so
# that it runs in one launch with the next compiled program. While one is pending this is the
# function that applies it, and every read or write of a Parameter's value slot calls it first:
# no reader sees a value the update has not reached, and no write is overtaken by it.
deferred_update = None
read_slot = Tensor._array.__get__  # the slot itself, for the code that applies the update
write_slot = Tensor._array.__set__
# How many times a Parameter's value slot was rebound (``sporax.state.scope.forward_already_ran`` compares it).
slot_writes = [0]


# ``Parameter.data``'s maker and ``set_data``'s store, installed by ``sporax.state.parameter_storage`` (core
# cannot import state): Tensors sharing a Parameter's storage follow its writes, and ``set_data`` gives it new storage.
data_view = None
storage_replaced = None

# Called with every new Parameter. ``sporax.state.scope`` registers one so that a Parameter created
# while a trace runs (a Cell built inside ``ms.jit`` or ``construct``) belongs to that trace.
CREATION_LISTENERS = []


class Parameter(Tensor):
    """A Tensor that is a trainable (or state) weight of a network.

    Args:
        default_input (Union[Tensor, int, float, numpy.ndarray, list]): the initial value; a
            Tensor made by ``initializer(...)`` or ``Tensor(shape, dtype, init)`` is filled now.
        name (str): the parameter's name; ``Cell`` prefixes it with the attribute path.
            Default: None (an automatic ``Parameter#N``).
        requires_grad (bool): whether gradients are taken w.r.t. it. Default: True.
        layerwise_parallel (bool): kept for the parallel modes. Default: False.
        parallel_optimizer (bool): kept for the parallel optimizer. Default: True.
        storage_format (str): accepted for compatibility; sporax keeps one layout.
    """

    # MindSpore's per-parameter flags for sharded (parallel) training; instances override them.
    sliced = False
    inited_param = None
    is_init = False
    init_mode = None
    # False inside ``nn.no_init_parameters``: Parameters made from an initializer stay unfilled.
    init_param = True

    def __init__(self, default_input, name=None, requires_grad=True, layerwise_parallel=False,
                 parallel_optimizer=True, storage_format="", device=None):
        _check_name(name)
        _check_bool(requires_grad, "requires_grad")
        _check_bool(layerwise_parallel, "layerwise_parallel")
        if not Parameter.init_param and isinstance(default_input, Tensor) and default_input._array is None \
                and default_input._init[0] is not None:
            # Filled by load_checkpoint / set_data, by init_parameters_data(), or on first use.
            self._array, self._init = None, default_input._init
        else:
            self._array = _initial_array(default_input)
            self._init = None
        if name is None:
            name = f"Parameter#{next(_auto_names)}"
        self._param_info = ParamInfo(name, requires_grad, layerwise_parallel, parallel_optimizer)
        self.storage_format = storage_format
        self.is_param_ps = False
        self.init_in_server = False
        for listener in CREATION_LISTENERS:
            listener(self)

    # --- the value slot (see ``deferred_update``) --------------------------------------------
    @property
    def _array(self):
        if deferred_update is not None:
            deferred_update()
        return read_slot(self)

    @_array.setter
    def _array(self, array):
        if deferred_update is not None:
            deferred_update()
        slot_writes[0] += 1
        write_slot(self, array)

    # --- names and flags ------------------------------------------------------------------
    @property
    def name(self):
        return self._param_info.name

    @name.setter
    def name(self, value):
        _check_name(value)
        old = self._param_info.name
        if not _framework_renames and isinstance(getattr(self, "_array", None), jax.core.Tracer) \
                and isinstance(old, str) and value is not None \
                and value != old and not old.startswith("Parameter#") and not value.endswith("." + old):
            # compiled code renames a Parameter of the running trace (MindSpore's graph refuses); naming a new
            # one and a Cell's prefix update ('weight' -> 'dense.weight') stay allowed
            raise ValueError(f"Do not support to set attribute for a parameter in graph mode: '{self.name}'.name = "
                             f"{value!r}. Rename the Parameter outside the compiled function.")
        self._param_info.name = f"Parameter#{next(_auto_names)}" if value is None else value

    @property
    def requires_grad(self):
        return self._param_info.requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        _check_bool(value, "requires_grad")
        self._param_info.requires_grad = value

    @property
    def layerwise_parallel(self):
        return self._param_info.layerwise_parallel

    @layerwise_parallel.setter
    def layerwise_parallel(self, value):
        _check_bool(value, "layerwise_parallel")
        self._param_info.layerwise_parallel = value

    @property
    def parallel_optimizer(self):
        return self._param_info.parallel_optimizer

    @parallel_optimizer.setter
    def parallel_optimizer(self, value):
        _check_bool(value, "parallel_optimizer")
        self._param_info.parallel_optimizer = value

    @property
    def comm_fusion(self):
        return self._param_info.comm_fusion

    @comm_fusion.setter
    def comm_fusion(self, value):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"Parameter.comm_fusion must be a non-negative int, but got {value!r}.")
        self._param_info.comm_fusion = value

    @property
    def parallel_optimizer_comm_recompute(self):
        return self._param_info.parallel_optimizer_comm_recompute

    @parallel_optimizer_comm_recompute.setter
    def parallel_optimizer_comm_recompute(self, value):
        _check_bool(value, "parallel_optimizer_comm_recompute")
        self._param_info.parallel_optimizer_comm_recompute = value

    @property
    def param_info(self):
        return self._param_info

    @param_info.setter
    def param_info(self, info):
        self._param_info = info

    # key, unique and the cache settings are recorded as MindSpore records them (its embedding-cache
    # and parameter-server features read them; sporax's training does not depend on them).
    @property
    def key(self):
        return self._param_info.key

    @key.setter
    def key(self, value):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError("The argument `key` must be int type.")
        self._param_info.key = value

    @property
    def unique(self):
        return self._param_info.unique

    @unique.setter
    def unique(self, value):
        self._param_info.unique = value

    @property
    def cache_enable(self):
        return self._param_info.cache_enable

    @cache_enable.setter
    def cache_enable(self, value):
        _check_bool(value, "cache_enable")
        self._param_info.cache_enable = value

    @property
    def cache_shape(self):
        return self._param_info.cache_shape

    @cache_shape.setter
    def cache_shape(self, value):
        if not isinstance(value, (tuple, list)):
            raise TypeError("The argument `cache_shape` must be tuple or list type.")
        self._param_info.cache_shape = list(value)

    # --- value ----------------------------------------------------------------------------
    @property
    def data(self):
        """A plain Tensor sharing this Parameter's storage, as MindSpore's (``sporax.state.parameter_storage`` keeps
        the two in step: ``p.data[0] = 9`` changes ``p``, an optimizer's step changes a held ``p.data``); the
        Parameter itself until that module is loaded."""
        return self if data_view is None else data_view(self)

    @data.setter
    def data(self, value):
        self.set_data(value)

    def value(self):
        """The current value as a plain Tensor."""
        return Tensor._wrap(self._value)

    def set_data(self, data, slice_shape=False, sliced=False):
        """Give this Parameter new storage: ``data``'s own, or a copy cast to this parameter's dtype; returns self.

        As in MindSpore, Tensors that shared the old storage (a held ``p.data``, ``p[0]``) keep it and no longer
        follow this Parameter, and a ``data`` Tensor of this dtype shares its storage with it from now on.

        Args:
            data (Union[Tensor, int, float]): the new value; its shape may differ (as in MindSpore).
            slice_shape (bool): accepted for the parallel modes. Default: False.
        """
        source = None
        if isinstance(data, Tensor):
            array = source = data._value
        elif isinstance(data, numbers.Real) and not isinstance(data, (bool, np.bool_)):
            array = Tensor(data)._value
        else:
            raise TypeError("Parameter data must be [`Tensor`, `int`, `float`] or a kind of `Tensor` (like "
                            f"`Tensor`). But with type {type(data)}.")
        target = mstype.to_numpy_dtype(self.dtype)
        if array.dtype != target:
            array = array.astype(target)
        if storage_replaced is None:
            self._array = array
        else:
            storage_replaced(self, array, data if array is source else None)
        self._init = None
        self.sliced = sliced
        return self

    def add_pipeline_stage(self, stage):
        """Record that pipeline stage ``stage`` (an int >= 0) uses this Parameter (``pipeline_stages`` lists them)."""
        if isinstance(stage, bool) or not isinstance(stage, int) or stage < 0:
            raise TypeError(f"For 'Parameter.add_pipeline_stage', `stage` must be a non-negative int, but got "
                            f"{stage!r}.")
        self.__dict__.setdefault("pipeline_stages", []).append(stage)

    def init_data(self, layout=None, set_sliced=False):
        """Materialise a lazily initialised value; returns self."""
        super().init_data()
        return self

    def clone(self, init="same"):
        """A new Parameter with the same name and settings; ``init`` gives new values (default: the same)."""
        if isinstance(init, str) and init == "same":
            array = self._value
        else:
            array = make_array(init, self.shape, self.dtype)
        result = Parameter(Tensor._wrap(array), name=self.name, requires_grad=self.requires_grad,
                           layerwise_parallel=self.layerwise_parallel,
                           parallel_optimizer=self.parallel_optimizer, storage_format=self.storage_format)
        info = self._param_info.clone()
        info.name = result.name
        result._param_info = info
        return result

    def copy(self):
        """A copy of this Parameter (same name and settings, same values)."""
        return self.clone()

    def __deepcopy__(self, memodict):
        result = self.clone()
        memodict[id(self)] = result
        return result

    def register_hook(self, hook_fn):
        """Call ``hook_fn(grad)`` on this Parameter's gradient; it may return a replacement."""
        return Tensor.register_hook(self, hook_fn)

    def __copy__(self):
        return self.clone()

    def __reduce__(self):
        return (_rebuild, (np.asarray(self.asnumpy()), self.name, self.requires_grad,
                           self.layerwise_parallel, self.parallel_optimizer))

    # --- printing -------------------------------------------------------------------------
    def __repr__(self):
        return (f"Parameter (name={self.name}, shape={tuple(self.shape)}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    __str__ = __repr__

    def __format__(self, spec):
        if not spec:
            return repr(self)
        return Tensor.__format__(self, spec)


def _rebuild(array, name, requires_grad, layerwise_parallel, parallel_optimizer):
    return Parameter(Tensor(array), name=name, requires_grad=requires_grad,
                     layerwise_parallel=layerwise_parallel, parallel_optimizer=parallel_optimizer)


def _flatten(parameter):
    return (parameter._value,), None


def _unflatten(_, children):
    return Tensor._wrap(children[0])


jax.tree_util.register_pytree_node(Parameter, _flatten, _unflatten)


class ParameterTuple(tuple):
    """A tuple of Parameters (``mindspore.ParameterTuple``)."""

    def __new__(cls, iterable):
        items = tuple(iterable)
        if not all(isinstance(item, Parameter) for item in items):
            raise TypeError("For ParameterTuple initialization, ParameterTuple input should be 'Parameter' "
                            f"collection, but got a {type(iterable)}. ")
        # Two Parameters of one name cannot be told apart in a checkpoint or a compiled graph: MindSpore 2.10
        # refuses them (the same Parameter twice is one Parameter). Cells kept in a plain list are not registered,
        # so their Parameters keep their bare names ('weight'): collecting two such is the common way here.
        owners = {}
        for item in items:
            if owners.setdefault(item.name, item) is not item:
                raise ValueError(f"The value {item!r} , its name '{item.name}' already exists. Please set a unique "
                                 "name for the parameter.")
        return tuple.__new__(cls, items)

    def clone(self, prefix, init="same"):
        """Clone every Parameter, naming the clones ``prefix.name``.

        Args:
            prefix (str): the namespace of the clones (an optimizer uses 'moment1', ...).
            init (Union[str, Initializer, numbers.Number]): the clones' values; 'same' copies them.
        """
        if not isinstance(prefix, str) or not prefix:
            raise ValueError(f"For 'ParameterTuple.clone', the argument 'prefix' must be a non-empty str, "
                             f"but got {prefix!r}.")
        clones = []
        for parameter in self:
            clone = parameter.clone(init)
            clone.name = prefix + "." + parameter.name
            clones.append(clone)
        return ParameterTuple(clones)

    def __parameter_tuple__(self):
        return True


class _Buffer(Tensor):
    """A Tensor that joins a Cell's buffers when assigned as its attribute (``self.x = _Buffer(t)``).

    Args:
        data (Tensor or array-like): the buffer's value.
        persistent (bool): whether the Cell's ``state_dict`` includes it. Default: True.

    Example:
        >>> import sporax as ms
        >>> _Buffer(ms.Tensor([1.0])).persistent
        True
    """

    __slots__ = ("persistent",)

    def __init__(self, data, *, persistent=True):
        value = data._value if isinstance(data, Tensor) else data
        super().__init__(value)
        self.persistent = persistent


@contextlib.contextmanager
def no_init_parameters():
    """Create Parameters without filling them (``mindspore.nn.no_init_parameters``); also a decorator.

    A Parameter made from an initializer (``initializer(...)``, ``Tensor(shape=, dtype=, init=)``)
    inside this context keeps its shape and dtype but holds no data (``has_init`` is True) until
    ``load_checkpoint``/``load_param_into_net`` assigns it, ``Cell.init_parameters_data()`` fills
    it, or the network first uses it. Parameters made from data (a Tensor, NumPy) are filled as usual.

    Example:
        >>> from sporax import nn
        >>> with nn.no_init_parameters():
        ...     net = nn.Dense(3, 4)
        >>> net.weight.has_init
        True
    """
    previous = Parameter.init_param
    Parameter.init_param = False
    try:
        yield
    finally:
        Parameter.init_param = previous

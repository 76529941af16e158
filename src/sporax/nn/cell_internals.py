"""The bookkeeping members MindSpore keeps on every Cell: instance counting and creation time, the
compile phase records, scopes and parameter prefixes, mixed-precision type, sub-Cell lookup,
``to_empty``, ``offload`` and the members libraries read from MindSpore's parallel and graph
machinery. A mixin of ``nn.Cell``; each member means what MindSpore 2.10's does, computed from
what sporax has (its compiled programs, its Parameters).

Example:
    >>> from sporax import nn
    >>> net = nn.SequentialCell([nn.Dense(2, 2)])
    >>> net.get_sub_cell("0").cls_name
    'Dense'
"""
import enum
import logging
import time
import weakref

import jax.numpy as jnp

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.state.scope import is_tracing

_logger = logging.getLogger("sporax")


class MixedPrecisionType(enum.Enum):
    """The mixed-precision mark of a Cell (MindSpore's ``_c_expression.MixedPrecisionType``)."""

    NOTSET = 0
    FP16 = 1
    FP32 = 2
    BF16 = 3

    def __repr__(self):
        return f"MixedPrecisionType.{self.name}"

    __str__ = __repr__


_PLAIN = (bool, int, float, str, type(None))


def _summary(value):
    """A construction argument as text, cheaply: plain values by repr, anything else by its type (a Tensor's
    repr would copy it to the host on every Cell construction)."""
    if isinstance(value, _PLAIN) or (isinstance(value, tuple) and all(isinstance(v, _PLAIN) for v in value)):
        return repr(value)
    return type(value).__name__


def _typed_property(name, kind, default, doc):
    """A Cell property kept in ``__dict__['_<name>']`` whose setter checks the type as MindSpore does."""
    slot = "_" + name

    def getter(cell):
        if slot not in cell.__dict__:
            cell.__dict__[slot] = default()
        return cell.__dict__[slot]

    def setter(cell, value):
        if not isinstance(value, kind):
            raise TypeError(f"For 'Cell', the property '{name}' must be {kind.__name__} type, but got type : "
                            f"{type(value)}")
        cell.__dict__[slot] = value

    return property(getter, setter, doc=doc)


def pipeline_index_property(name, doc):
    """A Cell property holding an int >= 0 that reads as missing until assigned (``pipeline_stage``...)."""
    slot = "_" + name

    def getter(cell):
        if slot not in cell.__dict__:
            raise AttributeError(f"The '{type(cell).__name__}' object has no attribute '{name}'.")
        return cell.__dict__[slot]

    def setter(cell, value):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property '{name}' must be int type, but got type : {type(value)}")
        if value < 0:
            raise ValueError(f"For 'Cell', the property '{name}' can not be less than 0, but got {value}")
        cell.__dict__[slot] = value

    return property(getter, setter, doc=doc)


class CellInternalsMixin:
    """Bookkeeping members of ``nn.Cell`` (see the module docstring)."""

    # The private attributes MindSpore's own code skips when it walks a Cell's __dict__ (its
    # ``__getstate__`` and parameter discovery); kept under the same name for code that reads it.
    IGNORE_LIST = ["_scope", "_cell_init_args", "_auto_prefix", "_cells", "_params", "_create_time",
                   "_func_graph_flags", "_parameter_layout_dict", "_params_list", "_phase", "_bprop_debug",
                   "_forward_pre_hook", "_forward_hook", "_backward_pre_hook", "_backward_hook",
                   "_cell_backward_pre_hook", "_cell_backward_hook", "_param_prefix", "requires_grad",
                   "cell_type", "_in_strategy", "_out_strategy"]
    global_cells = weakref.WeakKeyDictionary()
    total_instance_count = 0  # Cells alive now (each __init__ adds one, each deletion removes one)

    def __new__(cls, /, *args, **kwargs):
        # ``cls`` is positional-only: a Cell may take a keyword named ``cls`` (a loss gain, for one).
        cell = super().__new__(cls)
        # MindSpore records the construction arguments (``cell_init_args``) and the creation time.
        state = cell.__dict__
        values = [_summary(value) for value in list(args) + list(kwargs.values())]
        state["_cell_init_args"] = f"{cls.__name__}[{', '.join(values)}]"
        state["_create_time"] = time.time_ns()
        CellInternalsMixin.total_instance_count += 1
        return cell

    def __del__(self):
        # ``__class__`` (not the module global, which is None while the interpreter shuts down) names the class
        if "_create_time" in self.__dict__:
            __class__.total_instance_count -= 1

    @property
    def create_time(self):
        """When this Cell was created (ns since the epoch); part of its compile phase names."""
        return self.__dict__.get("_create_time", 0)

    @property
    def cell_init_args(self):
        """The class name and the arguments this Cell was constructed with, as one string."""
        return self.__dict__.get("_cell_init_args", type(self).__name__ + "[]")

    @cell_init_args.setter
    def cell_init_args(self, value):
        self.__dict__["_cell_init_args"] = value

    # --- compile records ------------------------------------------------------------------
    def _compiled_programs(self):
        cache = self.__dict__.get("_sporax_compiled")
        return [] if cache is None else [program for program in cache.programs if not program.eager]

    def _phase_name(self, index):
        return f"{self.phase}.{self.create_time}.{id(self)}.{index}"

    @property
    def compiled(self):
        """Whether GRAPH_MODE (or ``compile``/``compile_and_run``) has compiled this Cell's construct."""
        return bool(self._compiled_programs())

    @property
    def compile_cache(self):
        """The phase names of the programs compiled for this Cell (one per input signature)."""
        return {self._phase_name(index) for index in range(len(self._compiled_programs()))}

    @property
    def compile_phase(self):
        """The phase name of the latest compiled program (None before any compile)."""
        count = len(self._compiled_programs())
        return self._phase_name(count - 1) if count else None

    @property
    def phase_cache(self):
        """Phase (``'train'``/``'predict'``...) -> the phase name of its latest compiled program."""
        latest = self.compile_phase
        return {} if latest is None else {self.phase: latest}

    def compile_and_run(self, *args, **kwargs):
        """Compile ``construct`` for these inputs (as GRAPH_MODE does) and run the compiled program.

        Args:
            args (tuple): the inputs of ``construct``.
            kwargs (dict): its keyword inputs.

        Returns:
            what ``construct`` returns.
        """
        from sporax.graph.cell_jit import call_compiled

        self.__dict__["_compile_inputs"] = (args, kwargs)
        if self._cast_type is not None:
            args, kwargs = self._cast_inputs(args, kwargs)
        return call_compiled(self, args, kwargs)

    def get_func_graph_proto(self):
        """The program compiled for the inputs of the latest ``compile``/``compile_and_run``, as bytes (the
        optimised HLO text: sporax's graph IR, where MindSpore returns its ANF IR proto).

        Raises:
            RuntimeError: before this Cell was compiled (run it in GRAPH_MODE or ``compile`` it first).
        """
        from sporax.graph.cell_jit import compiled_text

        inputs = self.__dict__.get("_compile_inputs")
        if inputs is None:
            raise RuntimeError(f"For '{type(self).__name__}', get_func_graph_proto needs a compiled graph: call "
                               "cell.compile(*inputs) or cell.compile_and_run(*inputs) first.")
        return compiled_text(self, *inputs[0], **inputs[1]).encode()

    def run_construct(self, cast_inputs, kwargs):
        """Run ``construct`` on ``cast_inputs`` (a tuple) and ``kwargs`` (a dict), with this Cell's forward
        hooks as a call would; MindSpore keeps it for old code and warns that it will be removed."""
        _logger.warning(f"The 'run_construct' function of '{type(self).__name__}' will be removed in a future "
                        "version (MindSpore's note). Calling this function is not recommended.")
        return self(*cast_inputs, **(kwargs or {}))

    def cast_inputs(self, inputs, dst_type):
        """Deprecated in MindSpore: warns and returns None, as MindSpore 2.10 does (use ``to_float``)."""
        _logger.warning("'cast_inputs' will be deprecated in future versions.")

    def remove_redundant_parameters(self):
        """Deprecated in MindSpore: warns and changes nothing, as MindSpore 2.10 does."""
        _logger.warning("'remove_redundant_parameters' will be deprecated in future versions.")

    @property
    def jit_config_dict(self):
        """The options of the ``JitConfig`` given to ``set_jit_config`` (empty when none)."""
        return self.__dict__.get("_jit_config_dict", {})

    # --- names, scopes, types ---------------------------------------------------------------
    def check_names(self):
        """Raise ValueError when two Parameters of this Cell tree share a name."""
        names = set()
        for path, parameter in self.parameters_and_names():
            if parameter.name in names:
                raise ValueError(f"The value of {path} is {parameter}, its name '{parameter.name}' already exists. "
                                 "Please set a unique name for the parameter.")
            names.add(parameter.name)

    def check_names_and_refresh_name(self):
        """When Parameter names repeat, rename every Parameter to its attribute path, then check again."""
        if "_params" not in self.__dict__:
            return
        names = [parameter.name for parameter in dict(self.parameters_and_names()).values()]
        if len(set(names)) < len(names):
            self.update_parameters_name()
            self.check_names()

    def update_cell_prefix(self):
        """Set each Cell's ``param_prefix`` to its path in this tree ('' for this Cell)."""
        for path, cell in self.cells_and_names():
            cell.__dict__["_param_prefix"] = path

    @property
    def param_prefix(self):
        """The path prefix ``update_cell_prefix`` gave this Cell ('' before)."""
        return self.__dict__.get("_param_prefix", "")

    def update_cell_type(self, cell_type):
        """Mark this Cell's type (``'quant'`` for quantization-aware training, ``'second-order'``).

        Args:
            cell_type (str): the type.
        """
        self.__dict__["cell_type"] = cell_type

    def generate_scope(self):
        """Give every Cell below this one its name scope ``Default/<path>-<Class>`` (``get_scope``)."""
        for path, cell in self.cells_and_names():
            if path:
                parts = path.split(".")
                scope = "Default/" + "/".join(parts[:-1] + [f"{parts[-1]}-{type(cell).__name__}"])
                cell.__dict__["_scope"] = scope

    def set_broadcast_flag(self, mode=True):
        """Set the ``broadcast_flag`` flag on this Cell tree (parameter broadcast); returns self.

        Args:
            mode (bool): the flag. Default: True.
        """
        self.add_flags_recursive(broadcast_flag=mode)
        return self

    def set_mixed_precision_type(self, mixed_type):
        """Record this Cell's mixed-precision mark (``MixedPrecisionType``); ``to_float`` sets it too.

        As in MindSpore, the mark alone does not change how inputs are cast (``to_float`` does).
        """
        if not isinstance(mixed_type, MixedPrecisionType):
            raise TypeError(f"For 'set_mixed_precision_type', the argument must be a MixedPrecisionType (NOTSET, FP16, "
                            f"FP32, BF16), but got {type(mixed_type).__name__}.")
        self.__dict__["_mixed_precision_type"] = mixed_type

    def get_mixed_precision_type(self):
        """The mixed-precision mark of this Cell (``MixedPrecisionType.NOTSET`` when none)."""
        return self.__dict__.get("_mixed_precision_type", MixedPrecisionType.NOTSET)

    def get_sub_cell(self, target):
        """The Cell at dotted path ``target`` below this one (``''`` is this Cell).

        Args:
            target (str): e.g. ``"net_b.net_c.conv"``.

        Raises:
            AttributeError: when a step of the path is missing or is not a Cell.
        """
        if not isinstance(target, str):
            raise TypeError(f"For 'get_sub_cell', the 'target' must be a str, but got {type(target).__name__}.")
        cell = self
        if target == "":
            return cell
        for part in target.split("."):
            cells = cell.__dict__.get("_cells", {})
            if part in cells:
                cell = cells[part]
            elif hasattr(cell, part):
                raise AttributeError(f"`{part}` is not an nn.Cell")
            else:
                raise AttributeError(f"{type(cell).__name__} has no attribute `{part}`")
            if not isinstance(cell, CellInternalsMixin):
                raise AttributeError(f"`{part}` is not an nn.Cell")
        return cell

    # --- memory -----------------------------------------------------------------------------
    def to_empty(self, *, device=None, recurse=True):
        """Give every Parameter and buffer new storage of its shape and dtype, without reading its value
        (for a Cell built with lazy/meta initialisation); the new values are unspecified (zeros here).

        Args:
            device (str): must be None or the device sporax runs on. Default: None.
            recurse (bool): include the Cells below. Default: True.

        Returns:
            this Cell.
        """
        from sporax.core import context

        if is_tracing():
            raise RuntimeError("Cell.to_empty must be called outside of construct and compiled functions.")
        if device is not None and str(device).split(":")[0] != context.get_context("device_target"):
            raise ValueError(f"For 'Cell.to_empty', device {device!r} is not available: sporax runs this process on "
                             f"'{context.get_context('device_target')}'.")
        owners = [cell for _, cell in self.cells_and_names()] if recurse else [self]
        for cell in owners:
            for parameter in cell._params.values():
                if parameter is not None:
                    parameter._array = jnp.zeros(parameter.shape, mstype.to_numpy_dtype(parameter.dtype))
                    parameter._init = None
            for name, buffer in list(cell._buffers.items()):
                if buffer is not None:
                    cell._buffers[name] = Tensor._wrap(jnp.zeros(buffer.shape, buffer._value.dtype))
        return self

    def offload(self, backward_prefetch="Auto"):
        """Keep this Cell's activations off the device between the forward and the backward pass.

        MindSpore moves them to host memory and back; sporax gets the same device-memory effect by
        not saving them at all: the Cell runs under ``jax.checkpoint`` (as ``recompute()``), and its
        activations are recomputed in the backward pass. Outputs and gradients are unchanged.

        Args:
            backward_prefetch (Union[str, int]): ``'Auto'`` or an int >= 0 (how many ops ahead MindSpore
                prefetches; XLA schedules the transfers itself). Default: ``'Auto'``.
        """
        if isinstance(backward_prefetch, str):
            if backward_prefetch != "Auto":
                raise ValueError(f"For '{type(self).__name__}', the 'backward_prefetch' must be str and must be in "
                                 f"'['Auto']', but got '{backward_prefetch}'.")
        elif not isinstance(backward_prefetch, int) or isinstance(backward_prefetch, bool) or backward_prefetch < 0:
            raise ValueError(f"The input value must be int and must >= 0, but got '{backward_prefetch}' with type "
                             f"'{type(backward_prefetch).__name__}'.")
        self.__dict__["_offload_prefetch"] = backward_prefetch
        self.recompute()

    # --- parallel and hooks bookkeeping -------------------------------------------------------
    pipeline_segment = pipeline_index_property(
        "pipeline_segment", "The pipeline segment of this Cell (an int >= 0); unset until assigned, as in MindSpore.")

    @property
    def enable_backward_hook(self):
        """Whether this Cell has backward (pre-)hooks, so its call is wrapped for them."""
        hooks = self.__dict__.get("_hooks")
        return bool(hooks is not None and (hooks.backward or hooks.backward_pre))

    @property
    def exist_objs(self):
        """The ids of objects MindSpore records while naming parameters (starts empty)."""
        return self.__dict__.setdefault("_exist_objs", set())

    parameter_layout_dict = _typed_property(
        "parameter_layout_dict", dict, dict,
        "Parameter name -> its tensor layout under a sharding strategy (empty until a parallel compile sets it).")
    parallel_parameter_name_list = _typed_property(
        "parallel_parameter_name_list", list, tuple, "Names of the Parameters a parallel compile kept (empty outside one).")
    parallel_parameter_merge_net_dict = _typed_property(
        "parallel_parameter_merge_net_dict", dict, dict,
        "Parameter name -> merged network, filled by parallel checkpoint merging (empty otherwise).")


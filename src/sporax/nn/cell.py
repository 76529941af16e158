"""``nn.Cell``: the base class of every layer and network (``mindspore.nn.Cell``).

A Cell owns an ordered table of Parameters (``_params``) and of child Cells (``_cells``), filled by attribute
assignment. ``__call__`` runs ``construct`` eagerly in PYNATIVE_MODE; in GRAPH_MODE the top-level call hands the
Cell to ``sporax.graph.cell_jit.call_compiled``, which traces ``_construct_eager``; a Cell called while a trace
runs (a child, or a Cell inside ``ms.jit``) runs inline.

Example:
    >>> import numpy as np
    >>> from sporax import nn, Tensor
    >>> class Net(nn.Cell):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.fc = nn.Dense(2, 1)
    ...     def construct(self, x):
    ...         return self.fc(x)
    >>> [p.name for p in Net().trainable_params()]
    ['fc.weight', 'fc.bias']
"""
from collections import OrderedDict

from sporax.core import context
from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn import cell_hooks, cell_registry
from sporax.nn.cell_config import CellConfigMixin
from sporax.nn.cell_internals import CellInternalsMixin, MixedPrecisionType
from sporax.nn.cell_state import CellStateMixin
from sporax.graph.cell_jit import call_compiled, run_construct
from sporax.nn.recompute import set_recompute
from sporax.parallel.shard import data_parallel_cell, shard_cell
from sporax.state.discovery import training_changed
from sporax.state.scope import in_compiled_trace, is_tracing

_FLOAT_FLAGS = {mstype.float16: "fp16", mstype.float32: "fp32", mstype.bfloat16: "bf16"}
_FLAG_TYPES = {flag: dtype for dtype, flag in _FLOAT_FLAGS.items()}


class Cell(CellStateMixin, CellConfigMixin, CellInternalsMixin):
    """The base class of all neural network layers and networks.

    Subclasses define their layers and Parameters in ``__init__`` (after calling
    ``super().__init__()``) and the computation in ``construct``.

    Args:
        auto_prefix (bool): whether a child Cell's Parameters are renamed with the attribute
            name it is assigned under (``fc1.weight``). Wrappers such as ``WithLossCell`` pass
            False so the network keeps its names. Default: True.
        flags (dict): custom flags, readable with ``get_flags``. Default: None.

    Inputs:
        - **args** -- whatever ``construct`` takes.

    Outputs:
        whatever ``construct`` returns.
    """

    def __init__(self, auto_prefix=True, flags=None):
        state = self.__dict__
        state["_params"] = OrderedDict()
        state["_cells"] = OrderedDict()
        state["_buffers"] = OrderedDict()
        state["_non_persistent_buffers"] = set()
        state["_auto_prefix"] = auto_prefix
        state["_flags"] = {}
        state["_cast_type"] = None
        state["_inputs"] = None
        state["training"] = False
        state["requires_grad"] = False
        state["_phase"] = "train"
        if flags:
            self.add_flags(**flags)

    # --- calling ----------------------------------------------------------------------------
    _hooks = None  # a sporax.nn.cell_hooks.CellHooks once a hook (or recompute) is set
    _names_checked = False  # set by cell_registry.rename_duplicates_on_first_call

    @property
    def _has_bprop(self):
        return callable(getattr(type(self), "bprop", None))

    def __call__(self, *args, **kwargs):
        if not self._names_checked:
            cell_registry.rename_duplicates_on_first_call(self)
        if self._hooks is not None:
            return cell_hooks.call_with_hooks(self, args, kwargs)
        return self._call_unhooked(args, kwargs)

    def _call_unhooked(self, args, kwargs):
        """``__call__`` past its hook check (what the hooks wrap)."""
        if self._cast_type is not None:
            args, kwargs = self._cast_inputs(args, kwargs)
        if context.get_mode() == context.GRAPH_MODE:
            # The compiler runs a Cell called inside a running trace inline (a child, or a Cell in ms.jit).
            return call_compiled(self, args, kwargs)
        if self._has_bprop and is_tracing():
            # PyNative differentiation (ms.grad of any function calling this Cell) uses the bprop.
            return run_construct(self, args, kwargs)
        return self.construct(*args, **kwargs)

    # --- hooks and recompute (sporax.nn.cell_hooks, sporax.nn.recompute) ----------------------
    def register_forward_pre_hook(self, hook_fn, *, prepend=False, with_kwargs=False):
        """Call ``hook_fn(cell, inputs)`` (``(cell, args, kwargs)`` with ``with_kwargs``) before
        ``construct``; a non-None result replaces the inputs. ``prepend`` runs it first. Returns a
        handle whose ``remove()`` takes it off."""
        return cell_hooks.register_forward_pre_hook(self, hook_fn, prepend, with_kwargs)

    def register_forward_hook(self, hook_fn, *, prepend=False, with_kwargs=False, always_call=False):
        """Call ``hook_fn(cell, inputs, output)`` (``(cell, args, kwargs, output)`` with ``with_kwargs``)
        after ``construct``; a non-None result replaces the output. ``always_call`` also calls it
        (output None) when ``construct`` raised. Returns a handle with ``remove()``."""
        return cell_hooks.register_forward_hook(self, hook_fn, prepend, with_kwargs, always_call)

    def register_backward_pre_hook(self, hook_fn):
        """Call ``hook_fn(cell, grad_output)`` (a tuple, one gradient per output) when the gradient
        reaches this Cell's output; a non-None result replaces it. Returns a handle with ``remove()``."""
        return cell_hooks.register_backward_pre_hook(self, hook_fn)

    def register_backward_hook(self, hook_fn):
        """Call ``hook_fn(cell, grad_input, grad_output)``: ``grad_input`` has one gradient per
        positional Tensor input (None where none is needed); a non-None result replaces it.
        Returns a handle with ``remove()``."""
        return cell_hooks.register_backward_hook(self, hook_fn)

    def register_parameter_forward_hook(self, hook):
        """Parameters read as ``hook(parameter)`` inside this Cell in GRAPH_MODE and ``ms.jit`` (PyNative calls
        are unaffected, as in MindSpore); gradients flow through the hook to the Parameter.

        Args:
            hook (Union[Callable, list[dict]]): a callable (for every Parameter of this Cell tree) or a list of
                ``{"params": [Parameter, ...], "hook": callable}`` (else ValueError/TypeError naming the item).
        """
        cell_hooks.register_parameter_forward_hook(self, hook)

    def register_saved_tensors_hooks(self, pack_hook, unpack_hook):
        """Pass every Tensor this Cell's ``construct`` keeps for the backward pass through ``pack_hook`` (forward;
        its result is kept) and ``unpack_hook`` (backward; it returns the Tensor). XLA chooses what is kept, so
        hooks should treat each Tensor alike (compress/decompress, move, count).

        Args:
            pack_hook (Callable): ``pack_hook(tensor) -> object`` (Tensors, possibly in a tuple/list).
            unpack_hook (Callable): ``unpack_hook(packed) -> Tensor``.
        """
        cell_hooks.register_saved_tensors_hooks(self, pack_hook, unpack_hook)

    def recompute(self, **kwargs):
        """Recompute this Cell's activations in the backward pass instead of storing them.

        Args:
            kwargs: ``use_reentrant``, ``output_recompute``, ``early_stop``, ``context_fn`` (accepted),
                ``mp_comm_recompute``, ``parallel_optimizer_comm_recompute``, ``recompute_slice_activation`` (bool).
        """
        set_recompute(self, **kwargs)

    def get_jit_config(self):
        """The compile options given by ``set_jit_config`` (an empty dict when none were)."""
        return dict(self.__dict__.get("_jit_config_dict", {}))

    def construct(self, *args, **kwargs):
        """The computation of this Cell; every subclass defines it."""
        message = "For 'Cell', the method 'construct' is not defined."
        message = f"'{message}'" if in_compiled_trace() else message  # MindSpore's graph quotes its constant
        raise AttributeError(f"{message} (Define construct(self, ...) in {type(self).__name__} to say what the Cell "
                             "computes.)")

    def _construct_eager(self, *args, **kwargs):
        """Run ``construct`` itself, without compiling (what the graph compiler traces)."""
        return self.construct(*args, **kwargs)

    # Tells graph.cell_jit (below nn) that this form only runs construct, so it may trace the
    # converted construct instead; a subclass's own _construct_eager lacks the mark.
    _construct_eager.runs_construct_only = True

    def _cast_inputs(self, args, kwargs):
        target = mstype.to_numpy_dtype(self._cast_type)

        def cast(value):
            if isinstance(value, Tensor):
                array = value._value
                if array.dtype.kind == "f" and array.dtype != target:
                    return Tensor._wrap(array.astype(target))
            return value

        return tuple(cast(a) for a in args), {k: cast(v) for k, v in kwargs.items()}

    # --- attributes -------------------------------------------------------------------------
    def __getattr__(self, name):
        # Only reached when ordinary lookup fails: Parameters and Cells live in their tables.
        state = self.__dict__
        params = state.get("_params")
        if params is not None and name in params:
            return params[name]
        cells = state.get("_cells")
        if cells is not None and name in cells:
            return cells[name]
        buffers = state.get("_buffers")
        if buffers is not None and name in buffers:
            return buffers[name]
        if params is None and name.startswith("_"):
            raise cell_registry.not_initialised_error(self, name)
        raise cell_registry.missing_attribute_error(self, name)

    def __setattr__(self, name, value):
        cell_registry.set_attribute(self, name, value)

    def __delattr__(self, name):
        if name in self._params or name in self._cells:
            cell_registry.forget_compiled(self.__dict__)
        if name in self._params:
            del self._params[name]
        elif name in self._cells:
            del self._cells[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers.discard(name)
        elif name in self.__dict__:
            del self.__dict__[name]
        else:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._params) | set(self._cells) | set(self._buffers))

    # --- children ---------------------------------------------------------------------------
    def insert_child_to_cell(self, child_name, child_cell):
        """Add ``child_cell`` under ``child_name`` (its Parameters keep their names).

        Args:
            child_name (str): the attribute name; no '.'.
            child_cell (Cell): the child, or None.
        """
        cell_registry.check_child_name("insert_child_to_cell", child_name)
        cell_registry.check_child_cell("insert_child_to_cell", child_cell)
        if child_name in self.__dict__ or child_name in self._params:
            raise KeyError(f"For 'insert_child_to_cell', the {child_name!r} already exists in "
                           f"{type(self).__name__} as an attribute or Parameter; choose another name.")
        cell_registry.forget_compiled(self.__dict__)
        self._cells[child_name] = child_cell

    def insert_param_to_cell(self, param_name, param, check_name_contain_dot=True):
        """Add Parameter ``param`` under ``param_name``.

        Args:
            param_name (str): the key; no '.' unless ``check_name_contain_dot`` is False.
            param (Parameter): the Parameter, or None.
            check_name_contain_dot (bool): reject names with '.'. Default: True.
        """
        if not isinstance(param_name, str) or not param_name:
            raise KeyError(f"For 'insert_param_to_cell', the argument 'param_name' must be a non-empty str, "
                           f"but got {param_name!r}.")
        if check_name_contain_dot and "." in param_name:
            raise KeyError(f"For 'insert_param_to_cell', the argument 'param_name' can not contain '.', "
                           f"but got {param_name!r}.")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"For 'insert_param_to_cell', the argument 'param' must be 'Parameter' if not "
                            f"None, but got {type(param)}.")
        if param is not None and cell_registry.has_automatic_name(param):
            param.name = param_name
        cell_registry.forget_compiled(self.__dict__)
        self._params[param_name] = param

    def name_cells(self):
        """The immediate child Cells as an OrderedDict name -> Cell (each Cell once)."""
        result, seen = OrderedDict(), set()
        for name, cell in self._cells.items():
            if cell is not None and id(cell) not in seen:
                seen.add(id(cell))
                result[name] = cell
        return result

    def cells(self):
        """The immediate child Cells."""
        return self.name_cells().values()

    def cells_and_names(self, cells=None, name_prefix=""):
        """Yield ``(path, cell)`` for this Cell and every Cell below it, each once.

        Args:
            cells (set): ids of Cells already visited (used by the recursion). Default: None.
            name_prefix (str): the path of this Cell. Default: ''.
        """
        visited = cells if cells is not None else set()
        if id(self) in visited:
            return
        visited.add(id(self))
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is not None:
                yield from cell.cells_and_names(visited, f"{name_prefix}.{name}" if name_prefix else name)

    # --- parameters -------------------------------------------------------------------------
    def parameters_and_names(self, name_prefix="", expand=True):
        """Yield ``(path, parameter)`` for every Parameter (each once), paths as attribute paths.

        Args:
            name_prefix (str): prepended to every path. Default: ''.
            expand (bool): include the Parameters of child Cells. Default: True.
        """
        owners = self.cells_and_names(name_prefix=name_prefix) if expand else [(name_prefix, self)]
        seen = set()
        for cell_name, cell in owners:
            for name, parameter in cell._params.items():
                if parameter is not None and id(parameter) not in seen:
                    seen.add(id(parameter))
                    yield (f"{cell_name}.{name}" if cell_name else name), parameter

    def get_parameters(self, expand=True):
        """Yield every Parameter (each once).

        Args:
            expand (bool): include the Parameters of child Cells. Default: True.
        """
        for _, parameter in self.parameters_and_names(expand=expand):
            yield parameter

    def trainable_params(self, recurse=True):
        """The Parameters with ``requires_grad=True``, as a list."""
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse=True):
        """The Parameters with ``requires_grad=False``, as a list."""
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse=True):
        """An OrderedDict Parameter name -> Parameter."""
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def parameters_broadcast_dict(self, recurse=True):
        """Like ``parameters_dict``, limited to Parameters that take part in broadcasting (all of them)."""
        return self.parameters_dict(recurse)

    def update_parameters_name(self, prefix="", recurse=True):
        """Rename every Parameter to ``prefix`` + its attribute path.

        Args:
            prefix (str): the prefix, usually ending in '.'. Default: ''.
            recurse (bool): include the Parameters of child Cells. Default: True.
        """
        if not isinstance(prefix, str):
            raise TypeError(f"For 'update_parameters_name', the argument 'prefix' must be a str, but got "
                            f"{type(prefix).__name__}.")
        for name, parameter in self.parameters_and_names(expand=recurse):
            parameter.name = prefix + name

    def shard(self, in_strategy, out_strategy=None, parameter_plan=None):
        """Split this Cell's inputs/outputs (and named Parameters) over devices in the sharding modes.

        Args:
            in_strategy (tuple): per input, a tuple of split counts or a called ``Layout``.
            out_strategy (tuple): the same for the outputs. Default: ``None``.
            parameter_plan (dict): Parameter name -> strategy. Default: ``None``.
        """
        return shard_cell(self, in_strategy, out_strategy, parameter_plan)

    def set_data_parallel(self):
        """Give every Primitive below this Cell that has no strategy a data-parallel one (split the batch).

        Acts in SEMI_AUTO_PARALLEL / AUTO_PARALLEL: dimension 0 of each Primitive's non-Parameter Tensor
        inputs is split over the devices; explicit ``Primitive.shard`` strategies are kept.

        Examples:
            >>> net = nn.Dense(3, 4)
            >>> net.set_data_parallel()
        """
        data_parallel_cell(self)

    def set_comm_fusion(self, fusion_type, recurse=True):
        """Give every Parameter the gradient-fusion group ``fusion_type`` (used by distributed reducers)."""
        for parameter in self.get_parameters(expand=recurse):
            parameter.comm_fusion = fusion_type
        return self

    def init_parameters_data(self, auto_parallel_mode=False):
        """Materialise lazily initialised Parameters; returns a dict Parameter -> Parameter."""
        result = {}
        for parameter in self.get_parameters():
            parameter.init_data()
            result[parameter] = parameter
        return result

    # --- modes and flags --------------------------------------------------------------------
    def set_train(self, mode=True):
        """Put this Cell and every Cell below it in training (True) or inference (False) mode; returns self."""
        mode = bool(mode)
        training_changed()
        # Only this Cell's phase changes (graph.cell_jit.compile_phase_key): a parent compiled before keeps its graph.
        self.__dict__["_phase"] = "train" if mode else "predict"
        for _, cell in self.cells_and_names():
            cell.__dict__["training"] = mode
            cell._flags["training"] = mode
        return self

    def set_grad(self, requires_grad=True):
        """Mark that gradients will be taken through this Cell (MindSpore's hint); returns self."""
        if not isinstance(requires_grad, bool):
            raise TypeError(f"For 'set_grad', the argument 'requires_grad' must be bool, but got "
                            f"{type(requires_grad).__name__}.")
        self.__dict__["requires_grad"] = requires_grad
        return self

    def to_float(self, dst_type):
        """Run this Cell and every Cell below it in ``dst_type``: float inputs are cast on each call.

        Args:
            dst_type (mindspore.dtype): ``float16``, ``float32`` or ``bfloat16``.
        """
        if dst_type not in _FLOAT_FLAGS:
            raise ValueError("For 'to_float', the argument 'dst_type' must be mstype.float32, mstype.float16 "
                             f"or mstype.bfloat16, but got {dst_type!r}.")
        flags = {flag: target == dst_type for target, flag in _FLOAT_FLAGS.items()}
        for _, cell in self.cells_and_names():
            cell._flags.update(flags)
            cell.__dict__["_cast_type"] = dst_type
            cell.__dict__["_mixed_precision_type"] = MixedPrecisionType[_FLOAT_FLAGS[dst_type].upper()]
        return self

    def add_flags(self, **flags):
        """Set custom flags (also readable as attributes); returns self. ``fp16``/``fp32``/``bf16``
        are the flags ``to_float`` sets: True makes this Cell cast its float inputs to that type
        (the zoo's GCN runs ``add_flags_recursive(fp16=True)``); as in MindSpore, False does not
        undo a cast (set another type's flag)."""
        for key, value in flags.items():
            self._flags[key] = value
            self.__dict__[key] = value
            if value and key in _FLAG_TYPES:
                self.__dict__["_cast_type"] = _FLAG_TYPES[key]
        return self

    def add_flags_recursive(self, **flags):
        """``add_flags`` on this Cell and every Cell below it; returns self."""
        for _, cell in self.cells_and_names():
            cell.add_flags(**flags)
        return self

    def get_flags(self):
        """The flags set by ``add_flags``, ``set_train`` and ``to_float``."""
        return self._flags

    def apply(self, fn):
        """Call ``fn`` on every child Cell (recursively), then on this Cell; returns self."""
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

    def set_inputs(self, *inputs, **kwargs):
        """Record the (possibly dynamic-shape) inputs of ``construct``; sporax compiles per shape. A GRAPH_MODE
        call (or a jitted ``construct``) that does not fit them is refused with MindSpore's errors. Returns None,
        as MindSpore 2.10's does."""
        self.__dict__["_inputs"] = inputs

    def get_inputs(self):
        """The inputs recorded by ``set_inputs`` (None when not set)."""
        return self._inputs

    @property
    def _dynamic_shape_inputs(self):
        # MindSpore's attribute for what ``set_inputs`` recorded; wrappers (grad helpers) read it.
        return self._inputs

    def _get_compile_args(self, args):
        """The arguments a compile of ``construct`` is keyed on: the ``set_inputs`` ones when recorded."""
        return self._inputs if self._inputs is not None else tuple(args)

    @property
    def phase(self):
        return self._phase

    @phase.setter
    def phase(self, value):
        if not isinstance(value, str):
            raise TypeError(f"For 'Cell.phase', the value must be a str, but got {type(value).__name__}.")
        self.__dict__["_phase"] = value

    @property
    def cls_name(self):
        return type(self).__name__

    def get_scope(self):
        """The name scope of this Cell, set by ``generate_scope`` on an enclosing Cell (None before)."""
        return self.__dict__.get("_scope")

    # --- printing ---------------------------------------------------------------------------
    def extend_repr(self):
        """The layer's settings printed inside its ``repr`` parentheses (empty by default)."""
        return ""

    def __repr__(self):
        extra = self.extend_repr()
        children = [(name, cell) for name, cell in self._cells.items() if cell is not None]
        if not children:
            return f"{type(self).__name__}({extra})"
        lines = [extra] if extra else []
        lines.extend(f"({name}): {cell!r}" for name, cell in children)
        body = "\n".join(lines).replace("\n", "\n  ")
        return f"{type(self).__name__}(\n  {body}\n)"

    def __str__(self):
        return self.__repr__()

"""Cell settings MindSpore keeps on every Cell: dtype moves (``to``), ahead-of-time ``compile``,
``set_jit_config``, ``set_boost`` flags, and the ``pipeline_stage``/``bprop_debug``/``exist_names``
attributes. A mixin of ``nn.Cell``; each method acts on the Cell tree the way MindSpore's does.
"""
import logging

from sporax.core import dtype as mstype
from sporax.core import context
from sporax.core.tensor import Tensor
from sporax.graph.cell_jit import compiled_text
from sporax.graph.jit import JitConfig
from sporax.nn.cell_internals import pipeline_index_property
from sporax.ops import functional
from sporax.state.scope import is_tracing

_logger = logging.getLogger("sporax")
_FLOAT_KINDS = "fc"


def _parse_to_args(args, kwargs):
    """MindSpore's three forms: ``to(device=None, dtype=None, non_blocking=False)``, ``to(dtype, ...)``,
    ``to(tensor, ...)``; returns (device, dtype, non_blocking)."""
    device, dtype, non_blocking = kwargs.pop("device", None), kwargs.pop("dtype", None), kwargs.pop(
        "non_blocking", False)
    if kwargs:
        raise TypeError(f"For 'Cell.to', got unexpected keyword arguments {sorted(kwargs)}.")
    args = list(args)
    if args and isinstance(args[0], Tensor):
        dtype = args.pop(0).dtype
    elif args and isinstance(args[0], mstype.Type):
        dtype = args.pop(0)
    elif args and (args[0] is None or isinstance(args[0], str)):
        device = args.pop(0)
        if args and isinstance(args[0], mstype.Type):
            dtype = args.pop(0)
    if args and isinstance(args[0], bool):
        non_blocking = args.pop(0)
    if args:
        raise TypeError(f"For 'Cell.to', the arguments {args!r} match none of to(device=None, dtype=None, "
                        f"non_blocking=False), to(dtype, non_blocking=False), to(tensor, non_blocking=False).")
    return device, dtype, non_blocking


class CellConfigMixin:
    """Settings and conversions of a Cell tree (mixed into ``nn.Cell``)."""

    def to(self, *args, **kwargs):
        """Cast the float (and complex) Parameters and buffers of this Cell and its sub-Cells to ``dtype``.

        Forms: ``to(device=None, dtype=None, non_blocking=False)``, ``to(dtype)``, ``to(tensor)`` (the
        Tensor's dtype). Integer Parameters keep their dtype. ``device`` must be None or the device
        sporax runs on (``get_context('device_target')``). Returns this Cell.
        """
        if is_tracing():
            raise RuntimeError("Cell.to must be called outside of construct and compiled functions.")
        device, dtype, _ = _parse_to_args(args, kwargs)
        if dtype is not None and (not isinstance(dtype, mstype.Type) or
                                  mstype.to_numpy_dtype(dtype).kind not in _FLOAT_KINDS):
            raise TypeError(f"For 'Cell.to', dtype must be a floating point or complex dtype, but got {dtype}.")
        if device is not None:
            target = context.get_context("device_target")
            if str(device).split(":")[0] != target:
                raise ValueError(f"For 'Cell.to', device {device!r} is not available: sporax runs this process on "
                                 f"'{target}'.")
        if dtype is None:
            return self
        def is_float(tensor):
            return tensor is not None and mstype.to_numpy_dtype(tensor.dtype).kind in _FLOAT_KINDS

        for _, cell in self.cells_and_names():
            for parameter in cell._params.values():
                if is_float(parameter) and parameter.dtype != dtype:
                    # A dtype change rebinds the slot (set_data keeps the dtype); outside any trace.
                    parameter._array = functional.cast(parameter, dtype)._value
                    parameter._init = None
            for name, buffer in list(cell._buffers.items()):
                if is_float(buffer):
                    cell._buffers[name] = functional.cast(buffer, dtype)
        return self

    def compile(self, *args, **kwargs):
        """Compile this Cell's ``construct`` for these inputs (as GRAPH_MODE runs it) without running it."""
        self.__dict__["_compile_inputs"] = (args, kwargs)
        compiled_text(self, *args, **kwargs)

    def set_jit_config(self, jit_config):
        """Keep a ``JitConfig`` for this Cell (once; a second setting is ignored with a warning)."""
        if not isinstance(jit_config, JitConfig):
            raise TypeError(f"For 'set_jit_config', the type of 'jit_config' must be JitConfig, but got "
                            f"{type(jit_config).__name__}.")
        if self.__dict__.get("_jit_config_dict"):
            _logger.warning("For Cell, jit config can only be set once, ignore this setting.")
        else:
            self.__dict__["_jit_config_dict"] = jit_config.jit_config_dict

    def set_boost(self, boost_type):
        """Mark this Cell tree for a boost algorithm (only ``'less_bn'``): sets the flag recursively."""
        if boost_type not in ("less_bn",):
            raise ValueError(f"For 'set_boost', the argument 'boost_type' must be 'less_bn', but got {boost_type}.")
        self.add_flags_recursive(less_bn=True)
        return self

    pipeline_stage = pipeline_index_property(
        "pipeline_stage", "The pipeline stage of this Cell (an int >= 0); unset until assigned, as in MindSpore.")

    @property
    def bprop_debug(self):
        """Whether a custom ``bprop`` runs in the Python interpreter (sporax always runs it as Python)."""
        return self.__dict__.get("_bprop_debug", False)

    @bprop_debug.setter
    def bprop_debug(self, value):
        if not isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property 'bprop_debug' must be bool type, but got type {type(value)}.")
        self.__dict__["_bprop_debug"] = value

    @property
    def exist_names(self):
        """The set of names MindSpore records for a Cell's parameters (starts empty)."""
        return self.__dict__.setdefault("_exist_names", set())

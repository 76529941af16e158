"""TBE operator registration (``TBERegOp``) and ``op_info_register``: ``mindspore.ops.op_info_register``.

Contract: ``TBERegOp`` records what an Ascend TBE kernel declares (inputs, outputs, attributes, the
(dtype, format) combinations, kernel/binary names, flags) and ``get_op_info()`` returns the dict
MindSpore 2.10 produces. ``op_info_register(info)`` checks that ``info`` is a dict or a JSON string,
keeps it in ``REGISTERED`` under its ``op_name`` and returns the decorated function unchanged in
behaviour. This is data only: sporax runs no TBE kernels (XLA compiles every op), so model code that
registers its own Ascend kernels imports and decorates, and the Primitive it pairs them with is what
sporax must provide.

Example:
    >>> from sporax.ops.op_info_register import DataType, TBERegOp, op_info_register
    >>> info = TBERegOp("CusSquare").kernel_name("CusSquareImpl").input(0, "x", False, "required", "all") \\
    ...     .output(0, "y", False, "required", "all").dtype_format(DataType.F32_Default, DataType.F32_Default) \\
    ...     .get_op_info()
    >>> @op_info_register(info)
    ... def _square_tbe():
    ...     return 2
    >>> _square_tbe(), info["imply_type"], info["kernel"]
    (2, 'TBE', 'CusSquareImpl')
"""
import functools
import json

from sporax.ops.reg_op import (  # noqa: F401 - the names MindSpore serves at this path
    AiCPURegOp, AkgAscendRegOp, AkgGpuRegOp, CpuRegOp, CustomRegOp, DataType, RegOp, _check,
    custom_info_register)

REGISTERED = {}


def _is_bool(value):
    if not isinstance(value, bool):
        raise TypeError(f"{value} value must be bool")
    return value


def _is_list(value):
    if not isinstance(value, list):
        raise TypeError(f"{value} value must be list")
    return value


class TBERegOp(RegOp):
    """Registration information of an Ascend TBE kernel (data only in sporax).

    Args:
        op_name (str): the operator's name.
    """

    # get_op_info's keys for the flags, in MindSpore 2.10's order.
    _FLAGS = (("async_flag", "async_flag"), ("binfile", "binfile"), ("compute_cost", "compute_cost"),
              ("kernel", "kernel"), ("partial_flag", "partial_flag"), ("reshape_type", "reshape_type"),
              ("dynamic_rank_support", "dynamicRankSupport"), ("dynamic_shape_support", "dynamicShapeSupport"),
              ("dynamic_compile_static", "dynamicCompileStatic"), ("need_check_support", "needCheckSupport"),
              ("dynamic_format", "dynamicFormat"), ("op_pattern", "op_pattern"),
              ("real_input_index", "real_input_index"), ("input_to_attr_index", "input_to_attr_index"),
              ("unknown_shape_formats", "unknown_shape_formats"))

    def __init__(self, op_name):
        super().__init__(op_name)
        self.flags = {"async_flag": False, "binfile": "", "compute_cost": 10, "kernel": "", "partial_flag": False,
                      "reshape_type": "", "dynamic_rank_support": False, "dynamic_shape_support": False,
                      "dynamic_compile_static": False, "need_check_support": False, "dynamic_format": False,
                      "op_pattern": "", "real_input_index": [], "input_to_attr_index": [],
                      "unknown_shape_formats": []}

    def _set(self, key, value):
        self.flags[key] = value
        return self

    def input(self, index=None, name=None, need_compile=None, param_type=None, shape=None, value_depend=None,
              **kwargs):
        """Record input ``index``: its name, whether it is compiled, 'required'/'optional'/'dynamic', shape."""
        _check(int, index, "index")
        for value in (name, param_type, shape, value_depend):
            _check(str, value, "")
        if need_compile is not None:
            _is_bool(need_compile)
        entry = {key: value for key, value in (("index", index), ("name", name), ("needCompile", need_compile),
                                               ("paramType", param_type), ("shape", shape),
                                               ("valueDepend", value_depend)) if value is not None}
        entry.update(kwargs)
        self.inputs.append(entry)
        return self

    def output(self, index=None, name=None, need_compile=None, param_type=None, shape=None, **kwargs):
        """Record output ``index`` (MindSpore spells this entry's flag ``need_compile``)."""
        _check(int, index, "index")
        for value in (name, param_type, shape):
            _check(str, value, "")
        if need_compile is not None:
            _is_bool(need_compile)
        entry = {key: value for key, value in (("index", index), ("name", name), ("need_compile", need_compile),
                                               ("paramType", param_type), ("shape", shape)) if value is not None}
        entry.update(kwargs)
        self.outputs.append(entry)
        return self

    def attr(self, name=None, param_type=None, value_type=None, value=None, default_value=None, **kwargs):
        """Record attribute ``name`` ('required'/'optional') of type ``value_type`` ('int', 'listInt'...)."""
        return self._attr((("name", name), ("paramType", param_type), ("type", value_type), ("value", value),
                           ("defaultValue", default_value)), kwargs)

    def async_flag(self, async_flag=False):
        """Whether the kernel runs asynchronously."""
        return self._set("async_flag", _is_bool(async_flag))

    def binfile_name(self, binfile_name):
        """The kernel's binary file name."""
        _check(str, binfile_name, "binfile_name")
        return self._set("binfile", binfile_name)

    def compute_cost(self, compute_cost=10):
        """The cost-model value of the kernel."""
        _check(int, compute_cost, "compute_cost")
        return self._set("compute_cost", compute_cost)

    def kernel_name(self, kernel_name):
        """The kernel function's name."""
        _check(str, kernel_name, "kernel_name")
        return self._set("kernel", kernel_name)

    def partial_flag(self, partial_flag=True):
        """Whether the kernel supports partial computation."""
        return self._set("partial_flag", _is_bool(partial_flag))

    def reshape_type(self, reshape_type):
        """How inputs of lower rank are padded to the kernel's format ('NC', 'CH'...)."""
        _check(str, reshape_type, "reshape_type")
        return self._set("reshape_type", reshape_type)

    def dynamic_rank_support(self, dynamic_rank_support):
        """Whether the kernel supports a dynamic rank."""
        return self._set("dynamic_rank_support", _is_bool(dynamic_rank_support))

    def dynamic_shape(self, dynamic_shape=False):
        """Whether the kernel supports dynamic shapes."""
        return self._set("dynamic_shape_support", _is_bool(dynamic_shape))

    def dynamic_compile_static(self, dynamic_compile_static=False):
        """Whether the kernel compiles dynamic shapes statically."""
        return self._set("dynamic_compile_static", _is_bool(dynamic_compile_static))

    def need_check_supported(self, need_check_supported=False):
        """Whether the kernel's support must be checked per call."""
        return self._set("need_check_support", _is_bool(need_check_supported))

    def is_dynamic_format(self, is_dynamic_format=False):
        """Whether the kernel selects its format at run time."""
        return self._set("dynamic_format", _is_bool(is_dynamic_format))

    def op_pattern(self, pattern=None):
        """The kernel's pattern ('broadcast', 'reduce', 'formatAgnostic'...)."""
        if pattern is None:
            return self
        _check(str, pattern, "pattern")
        return self._set("op_pattern", pattern)

    def real_input_index(self, real_input_index):
        """The mapping of front-end inputs onto the kernel's inputs."""
        return self._set("real_input_index", _is_list(real_input_index))

    def input_to_attr_index(self, input_to_attr_index):
        """The inputs the kernel takes as attributes."""
        return self._set("input_to_attr_index", _is_list(input_to_attr_index))

    def unknown_shape_formats(self, unknown_shape_formats):
        """Append one list of input/output formats for the dynamic-shape case."""
        self.flags["unknown_shape_formats"].append(_is_list(unknown_shape_formats))
        return self

    def get_op_info(self):
        """The registration as a dict (MindSpore 2.10's keys and order)."""
        info = dict(self._info(), imply_type="TBE")
        info.update((key, self.flags[name]) for name, key in self._FLAGS)
        return info


def op_info_register(op_info):
    """A decorator that registers operator information (a dict or its JSON string) for a kernel.

    Args:
        op_info (Union[str, dict]): the registration, e.g. ``TBERegOp(...).get_op_info()``.

    Returns:
        A decorator; the decorated function behaves as before.
    """
    def register_decorator(func):
        if isinstance(op_info, dict):
            info = op_info
        elif isinstance(op_info, str):
            try:
                info = json.loads(op_info)
            except ValueError as error:
                raise ValueError(f"Invalid op info for {getattr(func, '__name__', func)}: {error}") from None
        else:
            raise TypeError(f"For 'op_info_register', the type of 'op_info' must be str or dict, "
                            f"but got {type(op_info).__name__}.")
        REGISTERED[info.get("op_name", "")] = info

        @functools.wraps(func)
        def wrapped_function(*args, **kwargs):
            return func(*args, **kwargs)

        return wrapped_function

    return register_decorator


__all__ = ["AiCPURegOp", "AkgAscendRegOp", "AkgGpuRegOp", "CpuRegOp", "CustomRegOp", "DataType", "TBERegOp",
           "custom_info_register", "op_info_register"]

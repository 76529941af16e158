"""Operator registration information: ``CustomRegOp``, ``AiCPURegOp``, ``CpuRegOp``, ``AkgGpuRegOp``,
``AkgAscendRegOp``, the ``DataType`` (dtype, format) constants and ``custom_info_register``.

Contract: the builders record inputs, outputs, attributes and supported (dtype, format) combinations
and ``get_op_info()`` returns them as the dict MindSpore 2.10 produces (keys ``op_name``,
``inputs``, ``outputs``, ``attr``, ``fusion_type``, ``dtype_format`` and ``target`` or
``imply_type``). They are data only: sporax's ``ops.Custom`` runs ``'pyfunc'`` kernels, which need
no registration, and keeps a ``reg_info`` as given.

Example:
    >>> from sporax.ops import CustomRegOp, DataType
    >>> info = CustomRegOp("add").input(0, "x").output(0, "y").dtype_format(
    ...     DataType.F32_Default, DataType.F32_Default).target("CPU").get_op_info()
    >>> info["dtype_format"]
    [(('float32', 'DefaultFormat'), ('float32', 'DefaultFormat'))]
"""
import numbers

_FORMATS = {
    "Default": "DefaultFormat", "5HD": "NC1HWC0", "C1HWNCoC0": "C1HWNCoC0", "ChannelLast": "ChannelLast",
    "DHWCN": "DHWCN", "FRACTAL_Z_3D": "FRACTAL_Z_3D", "FracNZ": "FRACTAL_NZ", "FracZ": "FRACTAL_Z",
    "FracZNLSTM": "FRACTAL_ZN_LSTM", "FracZNRNN": "FRACTAL_ZN_RNN", "HWCN": "HWCN", "NC1HWC0": "NC1HWC0",
    "NCDHW": "NCDHW", "NCHW": "NCHW", "NDC1HWC0": "NDC1HWC0", "NDHWC": "NDHWC", "ND_RNNBIAS": "ND_RNN_BIAS",
    "NHWC": "NHWC", "None": "",
}
_TYPES = {"BF16": "bfloat16", "BOOL": "bool", "C128": "complex128", "C64": "complex64", "F16": "float16",
          "F32": "float32", "F64": "float64", "I16": "int16", "I32": "int32", "I64": "int64", "I8": "int8",
          "None": "", "U16": "uint16", "U32": "uint32", "U64": "uint64", "U8": "uint8"}
# The (type, format) pairs MindSpore 2.10 leaves out of DataType.
_NO_3D = {"DHWCN", "FRACTAL_Z_3D", "FracZNLSTM", "FracZNRNN", "ND_RNNBIAS"}
_ONLY_DEFAULT = set(_FORMATS) - {"Default", "None"} | {"Default_List"}
_MISSING = {
    "BF16": {"NC1HWC0"}, "F16": {"NC1HWC0"}, "F32": {"NC1HWC0"}, "I8": _NO_3D, "U8": _NO_3D,
    "I32": _NO_3D | {"NC1HWC0"}, "C64": _ONLY_DEFAULT | {"None"}, "C128": _ONLY_DEFAULT | {"None"},
    "None": _ONLY_DEFAULT | {"Default_Tuple"},
}
_MISSING.update({name: _NO_3D | {"NC1HWC0", "NCDHW", "NDC1HWC0"}
                 for name in ("BOOL", "F64", "I16", "I64", "U16", "U32", "U64")})


class DataType:
    """Constants ``<TYPE>_<FORMAT>`` = ``(dtype name, format name)`` for ``dtype_format`` (e.g.
    ``DataType.F32_Default == ('float32', 'DefaultFormat')``; ``_List``/``_Tuple`` add a third entry)."""


for _type, _dtype in _TYPES.items():
    for _suffix, _format in list(_FORMATS.items()) + [("Default_List", None), ("Default_Tuple", None)]:
        if _suffix in _MISSING.get(_type, ()):
            continue
        if _format is None:
            _value = (_dtype, "DefaultFormat", _suffix.split("_")[1].lower())
        else:
            _value = (_dtype, _format)
        setattr(DataType, f"{_type}_{_suffix}", _value)
del _type, _dtype, _suffix, _format, _value


def _check(kind, value, name):
    if value is None:
        return
    if kind is int and (isinstance(value, bool) or not isinstance(value, numbers.Integral)):
        raise TypeError(f"{value} value must be int")
    if kind is str and not isinstance(value, str):
        raise TypeError(f"{value} value must be str")
    del name


class RegOp:
    """Base of the registration builders: each method records one entry and returns the builder."""

    def __init__(self, op_name=""):
        if not isinstance(op_name, str):
            raise ValueError(f"op name value must be str, but got {op_name!r}")
        self.op_name = op_name
        self.inputs, self.outputs, self.attr_, self.fusion_type_, self.dtype_format_ = [], [], [], "", []

    def _io(self, entries, index, name, param_type, kwargs):
        _check(int, index, "index")
        _check(str, name, "name")
        _check(str, param_type, "param_type")
        entry = {key: value for key, value in (("index", index), ("name", name), ("paramType", param_type))
                 if value is not None}
        entry.update(kwargs)
        entries.append(entry)
        return self

    def input(self, index=None, name=None, param_type=None, **kwargs):
        """Record input ``index`` named ``name`` ('required', 'optional' or 'dynamic')."""
        return self._io(self.inputs, index, name, param_type, kwargs)

    def output(self, index=None, name=None, param_type=None, **kwargs):
        """Record output ``index`` named ``name``."""
        return self._io(self.outputs, index, name, param_type, kwargs)

    def _attr(self, fields, kwargs):
        entry = {}
        for key, value in fields:
            _check(str, value, key)
            if value is not None:
                entry[key] = value
        # MindSpore type-checks the named fields only; extra keywords (``value=True``) are stored as given.
        entry.update(kwargs)
        self.attr_.append(entry)
        return self

    def fusion_type(self, fusion_type):
        """Record the fusion type (e.g. 'OPAQUE', 'ELEMWISE')."""
        _check(str, fusion_type, "fusion_type")
        self.fusion_type_ = fusion_type
        return self

    def dtype_format(self, *args):
        """Record one supported combination: a ``DataType`` constant per input, then per output."""
        if len(args) != len(self.inputs) + len(self.outputs):
            raise ValueError("The size of 'args' must be equal to the sum of input tensors and output tensors, but "
                             f"got {len(args)} vs {len(self.inputs) + len(self.outputs)}")
        for arg in args:
            if not isinstance(arg, tuple) or len(arg) not in (2, 3) or not all(isinstance(a, str) for a in arg):
                raise ValueError(f"dtype_format arguments must be DataType constants (tuples of str), but got {arg!r}")
        self.dtype_format_.append(tuple(args))
        return self

    def _info(self):
        return {"op_name": self.op_name, "inputs": self.inputs, "outputs": self.outputs, "attr": self.attr_,
                "fusion_type": self.fusion_type_, "dtype_format": self.dtype_format_}


class CustomRegOp(RegOp):
    """Registration information of an ``ops.Custom`` operator.

    Args:
        op_name (str): the kernel's name. Default: 'Custom'.
    """

    def __init__(self, op_name="Custom"):
        super().__init__(op_name)
        self.target_ = "UnKnown"

    def input(self, index=None, name=None, param_type="required", **kwargs):
        return self._io(self.inputs, index, name, param_type, kwargs)

    def output(self, index=None, name=None, param_type="required", **kwargs):
        return self._io(self.outputs, index, name, param_type, kwargs)

    def attr(self, name=None, param_type=None, value_type=None, default_value=None, **kwargs):
        """Record attribute ``name`` ('required'/'optional') of type ``value_type`` ('int', 'float', 'listInt'...)."""
        return self._attr((("name", name), ("paramType", param_type), ("type", value_type),
                           ("defaultValue", default_value)), kwargs)

    def target(self, target=None):
        """Record the device ('Ascend', 'GPU' or 'CPU')."""
        _check(str, target, "target")
        self.target_ = target
        return self

    def get_op_info(self):
        """The registration as a dict."""
        return dict(self._info(), target=self.target_)


class AiCPURegOp(RegOp):
    """Registration information of an AiCPU kernel."""

    def __init__(self, op_name):
        super().__init__(op_name)

    def attr(self, name=None, value_type=None, value=None, **kwargs):
        """Record attribute ``name`` of type ``value_type`` (``value``: its default, a string)."""
        return self._attr((("name", name), ("type", value_type), ("value", value)), kwargs)

    def get_op_info(self):
        return dict(self._info(), imply_type="AiCPU")


class CpuRegOp(AiCPURegOp):
    """Registration information of a CPU kernel."""

    def get_op_info(self):
        return dict(self._info(), imply_type="CPU")


class AkgRegOp(RegOp):
    """Base of the AKG kernel registrations."""

    _processor = ""

    def __init__(self, op_name):
        super().__init__(op_name)

    def output(self, index=None, name=None, **kwargs):
        return self._io(self.outputs, index, name, None, kwargs)

    def attr(self, name=None, param_type=None, value_type=None, **kwargs):
        """Record attribute ``name`` ('required'/'optional') of type ``value_type``."""
        return self._attr((("name", name), ("paramType", param_type), ("type", value_type)), kwargs)

    def get_op_info(self):
        return dict(self._info(), imply_type="AKG", processor=self._processor)


class AkgGpuRegOp(AkgRegOp):
    """Registration information of an AKG kernel for GPU (processor 'CUDA')."""

    _processor = "CUDA"


class AkgAscendRegOp(AkgRegOp):
    """Registration information of an AKG kernel for Ascend (processor 'AiCore')."""

    _processor = "AiCore"


def custom_info_register(*reg_info):
    """A decorator that attaches registration information to a kernel function: ``func.reg_info`` becomes
    the tuple ``reg_info`` (a function already holding a tuple keeps it, as in MindSpore 2.10).

    Example:
        >>> from sporax.ops import CustomRegOp, custom_info_register
        >>> @custom_info_register(CustomRegOp().target("CPU").get_op_info())
        ... def kernel(x):
        ...     return x
        >>> kernel.reg_info[0]["target"]
        'CPU'
    """
    def decorate(func):
        if not isinstance(getattr(func, "reg_info", None), tuple):
            func.reg_info = tuple(reg_info)
        return func
    return decorate

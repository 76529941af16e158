"""Registration information of custom operators: ``CustomRegOp``, ``DataType``, ``custom_info_register``.

``CustomRegOp(op_name).input(...).output(...).attr(...).dtype_format(...).target(...).get_op_info()``
builds the same JSON-ready dict MindSpore's builder does (inputs, outputs, attributes, the
supported (dtype, format) combinations, the target). ``custom_info_register(*reg_info)`` attaches
it to a function as ``reg_info`` for ``ops.Custom``. ``DataType`` names the (dtype, format) pairs,
``F32_Default = ('float32', 'DefaultFormat')`` and so on.

Example:
    >>> from sporax.ops import CustomRegOp, DataType
    >>> info = CustomRegOp("add").input(0, "x").output(0, "y").dtype_format(
    ...     DataType.F32_Default, DataType.F32_Default).target("CPU").get_op_info()
    >>> info["dtype_format"]
    [[['float32', 'DefaultFormat'], ['float32', 'DefaultFormat']]]
"""
import functools

_DTYPES = {"BF16": "bfloat16", "BOOL": "bool", "C128": "complex128", "C64": "complex64", "F16": "float16",
           "F32": "float32", "F64": "float64", "I16": "int16", "I32": "int32", "I64": "int64", "I8": "int8",
           "U16": "uint16", "U32": "uint32", "U64": "uint64", "U8": "uint8"}
_FORMATS = {"5HD": ("NC1HWC0",), "C1HWNCoC0": ("C1HWNCoC0",), "ChannelLast": ("ChannelLast",), "DHWCN": ("DHWCN",),
            "Default": ("DefaultFormat",), "Default_List": ("DefaultFormat", "list"),
            "Default_Tuple": ("DefaultFormat", "tuple"), "FRACTAL_Z_3D": ("FRACTAL_Z_3D",), "FracNZ": ("FRACTAL_NZ",),
            "FracZ": ("FRACTAL_Z",), "FracZNLSTM": ("FRACTAL_ZN_LSTM",), "FracZNRNN": ("FRACTAL_ZN_RNN",),
            "HWCN": ("HWCN",), "NC1HWC0": ("NC1HWC0",), "NCDHW": ("NCDHW",), "NCHW": ("NCHW",),
            "NDC1HWC0": ("NDC1HWC0",), "NDHWC": ("NDHWC",), "ND_RNNBIAS": ("ND_RNN_BIAS",), "NHWC": ("NHWC",),
            "None": ("",)}
# The formats MindSpore names for each dtype: a common core plus per-dtype extras.
_CORE = ("5HD", "C1HWNCoC0", "ChannelLast", "Default", "Default_List", "Default_Tuple", "FracNZ", "FracZ", "HWCN",
         "NCHW", "NDHWC", "NHWC", "None")
_FLOAT_EXTRAS = ("DHWCN", "FRACTAL_Z_3D", "FracZNLSTM", "FracZNRNN", "NCDHW", "NDC1HWC0", "ND_RNNBIAS")
_FORMATS_OF = {
    "BF16": _CORE + _FLOAT_EXTRAS, "F16": _CORE + _FLOAT_EXTRAS, "F32": _CORE + _FLOAT_EXTRAS,
    "BOOL": _CORE, "F64": _CORE, "I16": _CORE, "I64": _CORE, "U16": _CORE, "U32": _CORE, "U64": _CORE,
    "I32": _CORE + ("NCDHW", "NDC1HWC0"), "I8": _CORE + ("NC1HWC0", "NCDHW", "NDC1HWC0"),
    "U8": _CORE + ("NC1HWC0", "NCDHW", "NDC1HWC0"), "C128": ("Default", "Default_Tuple"),
    "C64": ("Default", "Default_Tuple"),
}


class DataType:
    """The (dtype, format) pairs of ``CustomRegOp.dtype_format``: ``DataType.F32_Default`` ..."""


for _prefix, _names in _FORMATS_OF.items():
    for _name in _names:
        setattr(DataType, f"{_prefix}_{_name}", (_DTYPES[_prefix],) + _FORMATS[_name])
DataType.None_None = ("", "")
DataType.None_Default = ("", "DefaultFormat")


class CustomRegOp:
    """Build the registration information of a custom operator (a chain of calls, then ``get_op_info``).

    Args:
        op_name (str): the operator's name. Default: "Custom".
    """

    def __init__(self, op_name="Custom"):
        if not isinstance(op_name, str):
            raise TypeError(f"For 'CustomRegOp', the 'op_name' must be a str, but got {type(op_name).__name__}.")
        self.op_name = op_name
        self.inputs, self.outputs, self.attr_, self.dtype_format_ = [], [], [], []
        self.fusion_type_ = ""
        self.target_ = "UnKnown"

    @staticmethod
    def _io(kind, index, name, param_type, kwargs):
        if index is not None and (isinstance(index, bool) or not isinstance(index, int) or index < 0):
            raise TypeError(f"For 'CustomRegOp.{kind}', the 'index' must be an int >= 0, but got {index!r}.")
        entry = {}
        for key, value in (("index", index), ("name", name), ("paramType", param_type)):
            if value is not None:
                entry[key] = value
        entry.update(kwargs)
        return entry

    def input(self, index=None, name=None, param_type="required", **kwargs):
        """Describe input ``index`` ('required', 'optional' or 'dynamic'); returns self."""
        self.inputs.append(self._io("input", index, name, param_type, kwargs))
        return self

    def output(self, index=None, name=None, param_type="required", **kwargs):
        """Describe output ``index``; returns self."""
        self.outputs.append(self._io("output", index, name, param_type, kwargs))
        return self

    def dtype_format(self, *args):
        """Add one supported combination: a ``DataType`` pair per input then per output; returns self."""
        for arg in args:
            if not isinstance(arg, tuple) or not all(isinstance(item, str) for item in arg):
                raise TypeError(f"For 'CustomRegOp.dtype_format', each argument must be a DataType tuple, but got "
                                f"{arg!r}.")
        self.dtype_format_.append([list(arg) for arg in args])
        return self

    def attr(self, name=None, param_type=None, value_type=None, default_value=None, **kwargs):
        """Describe an attribute (its name, 'required'/'optional', type, default); returns self."""
        entry = {}
        for key, value in (("name", name), ("paramType", param_type), ("type", value_type),
                           ("defaultValue", default_value)):
            if value is not None:
                entry[key] = value
        entry.update(kwargs)
        self.attr_.append(entry)
        return self

    def target(self, target=None):
        """The device: 'Ascend', 'GPU' or 'CPU'; returns self."""
        if target is not None:
            if not isinstance(target, str):
                raise TypeError(f"For 'CustomRegOp.target', the 'target' must be a str, but got "
                                f"{type(target).__name__}.")
            self.target_ = target
        return self

    def fusion_type(self, fusion_type):
        """The fusion type (an Ascend scheduling hint); returns self."""
        self.fusion_type_ = fusion_type
        return self

    def get_op_info(self):
        """The registration information, a dict ready for JSON."""
        return {"op_name": self.op_name, "inputs": self.inputs, "outputs": self.outputs, "attr": self.attr_,
                "fusion_type": self.fusion_type_, "dtype_format": self.dtype_format_, "target": self.target_}


def custom_info_register(*reg_info):
    """Decorate a function with registration information (``func.reg_info``) for ``ops.Custom``.

    Args:
        reg_info (dict): one or more results of ``CustomRegOp(...).get_op_info()``.

    Returns:
        A decorator.
    """

    def decorator(func):
        func.reg_info = reg_info

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)

        return wrapper

    return decorator

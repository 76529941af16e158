"""MindSpore data types: the objects users write as ``mindspore.float32``.

Each number type is one ``Type`` instance that knows its NumPy dtype; they print as MindSpore
prints them (``Float32``) and compare equal to themselves only.

Example:
    >>> from sporax.core import dtype as mstype
    >>> mstype.float32, mstype.dtype_to_nptype(mstype.int8)
    (mindspore.float32, <class 'numpy.int8'>)
"""
import enum

import numpy as np
import ml_dtypes


class Type:
    """Base of every MindSpore type object."""

    def __init__(self, name, np_type=None, kind="other", bits=0):
        self._name = name
        self._np_type = np_type
        self.kind = kind
        self.bits = bits

    def __str__(self):
        return self._name

    def __repr__(self):
        # MindSpore: str(mstype.float32) is 'Float32', repr is 'mindspore.float32'.
        return "mindspore." + _REPR_NAMES.get(self._name, self._name.lower())

    def __reduce__(self):
        return (_by_name, (self._name,))

    @property
    def is_number(self):
        return self._np_type is not None


class Int(Type):
    """The type of MindSpore's signed integers."""


class UInt(Type):
    """The type of MindSpore's unsigned integers (``type(mindspore.uint8)``; not an ``Int``, as in MindSpore)."""


class Float(Type):
    """The type of MindSpore's IEEE floating-point numbers."""


class BFloat(Type):
    """The type of ``mindspore.bfloat16`` (not a ``Float``, as in MindSpore)."""


class Complex(Type):
    """The type of MindSpore's complex numbers."""


class Bool(Type):
    """The type of MindSpore's booleans."""


class TensorType(Type):
    """The type of a Tensor whose elements have ``element_type`` (any element type when None).

    As in MindSpore, ``mindspore.tensor_type`` is the instance ``TensorType()``, so that
    ``isinstance(TopTypeof()(x), TensorType)`` holds for a Tensor; two TensorTypes are equal when their
    element types are. Calling one, ``tensor_type(float32)``, gives ``TensorType(float32)`` (a sporax shorthand).
    """

    def __init__(self, element_type=None):
        super().__init__("Tensor" if element_type is None else f"Tensor[{element_type}]")
        self.element_type = element_type

    def element_type_(self):
        return self.element_type

    def __eq__(self, other):
        return isinstance(other, TensorType) and other.element_type == self.element_type

    def __hash__(self):
        return hash(("TensorType", self.element_type))

    def __call__(self, element_type):
        return TensorType(element_type)

    def __reduce__(self):
        return (TensorType, (self.element_type,))


class QuantDtype(enum.Enum):
    """Quantization data types (names only: sporax does not quantize), as MindSpore's enum: ``INT1``..``INT16``
    are 0..15, ``UINT1``..``UINT16`` 100..115; ``str`` gives the name and ``value()`` (a method) the number.

    Example:
        >>> print(QuantDtype.INT8, QuantDtype.UINT16.value())
        INT8 115
    """

    _ignore_ = ["bits"]
    for bits in range(1, 17):
        vars()[f"INT{bits}"] = bits - 1
    for bits in range(1, 17):
        vars()[f"UINT{bits}"] = 99 + bits

    def __str__(self):
        return self.name

    def value(self):
        """The enum's number (MindSpore spells it as a method)."""
        return self._value_


bool_ = Bool("Bool", np.bool_, "bool", 8)
int8 = Int("Int8", np.int8, "int", 8)
int16 = Int("Int16", np.int16, "int", 16)
int32 = Int("Int32", np.int32, "int", 32)
int64 = Int("Int64", np.int64, "int", 64)
uint8 = UInt("UInt8", np.uint8, "uint", 8)
uint16 = UInt("UInt16", np.uint16, "uint", 16)
uint32 = UInt("UInt32", np.uint32, "uint", 32)
uint64 = UInt("UInt64", np.uint64, "uint", 64)
float16 = Float("Float16", np.float16, "float", 16)
float32 = Float("Float32", np.float32, "float", 32)
float64 = Float("Float64", np.float64, "float", 64)
bfloat16 = BFloat("BFloat16", ml_dtypes.bfloat16, "float", 16)
float8_e4m3fn = Float("Float8E4M3FN", ml_dtypes.float8_e4m3fn, "float", 8)
float8_e5m2 = Float("Float8E5M2", ml_dtypes.float8_e5m2, "float", 8)
complex64 = Complex("Complex64", np.complex64, "complex", 64)
complex128 = Complex("Complex128", np.complex128, "complex", 128)

# MindSpore's aliases: the very same objects under C-style names.
int_ = intc = intp = long = int64
short = int16
byte = int8
ubyte = uint8
ushort = uint16
uint = uintc = uintp = uint64
half = float16
single = float32
float_ = double = float64
cfloat = complex64
cdouble = complex128

number = Type("Number")
string = Type("String")
type_none = Type("NoneType")
list_ = Type("List")
tuple_ = Type("Tuple")
tensor_type = TensorType()
hifloat8 = Type("HiFloat8")
qint4x2 = Type("QInt4x2")

number_types = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                float16, float32, float64, bfloat16, complex64, complex128)
all_types = number_types + (float8_e4m3fn, float8_e5m2)

_REPR_NAMES = {"Float8E4M3FN": "float8_e4m3fn", "Float8E5M2": "float8_e5m2", "String": "string_",
               "NoneType": "type_none", "List": "list_", "Tuple": "tuple_", "TensorType": "tensor"}
_BY_NUMPY = {np.dtype(t._np_type): t for t in all_types}
_BY_NAME = {t._name: t for t in all_types + (number, string, type_none, list_, tuple_)}


def _by_name(name):
    return _BY_NAME[name]


def is_dtype(obj):
    """True when ``obj`` is a MindSpore number type."""
    return isinstance(obj, Type) and obj.is_number


def dtype_to_nptype(type_):
    """Return the NumPy scalar type of MindSpore type ``type_`` (``float32`` -> ``np.float32``)."""
    if not is_dtype(type_):
        raise TypeError(f"dtype_to_nptype: expected a MindSpore number type, got {type_!r}.")
    return type_._np_type


def dtype_to_pytype(type_):
    """Return the Python type that holds a value of MindSpore type ``type_``."""
    if type_ is bool_:
        return bool
    if isinstance(type_, (Int, UInt)):
        return int
    if isinstance(type_, (Float, BFloat)):
        return float
    if isinstance(type_, Complex):
        return complex
    if type_ is type_none:
        return type(None)
    if type_ is string:
        return str
    if type_ is list_:
        return list
    if type_ is tuple_:
        return tuple
    raise NotImplementedError(f"dtype_to_pytype: no Python type for {type_!r}.")


_PY_TO_DTYPE = {bool: bool_, int: int64, float: float32, complex: complex64, str: string,
                list: list_, tuple: tuple_, type(None): type_none}


def pytype_to_dtype(obj):
    """Return the MindSpore type for a Python type or NumPy dtype (``int`` -> ``int64``)."""
    if isinstance(obj, Type):
        return obj
    if obj in _PY_TO_DTYPE:
        return _PY_TO_DTYPE[obj]
    try:
        return from_numpy_dtype(np.dtype(obj))
    except TypeError as error:
        raise NotImplementedError(f"pytype_to_dtype: unsupported type {obj!r}.") from error


def get_py_obj_dtype(obj):
    """Return the MindSpore type of a Python object or Tensor."""
    dtype = getattr(obj, "dtype", None)
    if isinstance(dtype, Type):
        return TensorType(dtype)
    if isinstance(obj, type):
        return pytype_to_dtype(obj)
    return pytype_to_dtype(type(obj))


def from_numpy_dtype(np_dtype):
    """Return the MindSpore type for a NumPy (or JAX) dtype."""
    try:
        return _BY_NUMPY[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        raise TypeError(f"sporax has no MindSpore type for the NumPy dtype {np_dtype!r}.") from None


def to_numpy_dtype(type_):
    """Return ``np.dtype`` for a MindSpore type, a NumPy dtype or a Python type."""
    if isinstance(type_, Type):
        if not type_.is_number:
            raise TypeError(f"{type_!r} is not a number type and has no array dtype.")
        return np.dtype(type_._np_type)
    if type_ in _PY_TO_DTYPE:
        return to_numpy_dtype(_PY_TO_DTYPE[type_])
    return np.dtype(type_)


def normalize(type_):
    """Return the MindSpore type for anything a user may pass as ``dtype=``."""
    if isinstance(type_, Type):
        return type_
    return pytype_to_dtype(type_)


# Promotion of Tensor (op) Tensor follows the usual lattice; a Python scalar joins only by kind
# (bool < int < float < complex), so ``int32_tensor + 2.5`` is Float32 and
# ``float16_tensor + 2.5`` stays Float16, as in MindSpore.
_KIND_RANK = {"bool": 0, "uint": 1, "int": 1, "float": 2, "complex": 3}


def promote(left, right):
    """Result type of a binary op on two Tensors of MindSpore types ``left`` and ``right``."""
    if left is right:
        return left
    left_rank, right_rank = _KIND_RANK[left.kind], _KIND_RANK[right.kind]
    if left_rank != right_rank:  # the higher kind wins whatever its width: int64 + float16 -> float16
        if float64 in (left, right) and complex64 in (left, right):
            return complex128
        return left if left_rank > right_rank else right
    if {left, right} == {bfloat16, float16}:
        return float32
    if bfloat16 in (left, right):  # bfloat16 with a wider float
        return right if left is bfloat16 else left
    return from_numpy_dtype(np.promote_types(to_numpy_dtype(left), to_numpy_dtype(right)))


def promote_with_scalar(tensor_type, scalar):
    """Result type of a binary op on a Tensor of ``tensor_type`` and a Python scalar."""
    scalar_kind = ("bool" if isinstance(scalar, (bool, np.bool_)) else
                   "int" if isinstance(scalar, (int, np.integer)) else
                   "float" if isinstance(scalar, (float, np.floating)) else "complex")
    if _KIND_RANK[scalar_kind] <= _KIND_RANK[tensor_type.kind]:
        return tensor_type
    if scalar_kind == "int":
        return int64
    if scalar_kind == "float":
        return float32
    return complex64 if tensor_type is not float64 else complex128


# MindSpore 2.x also spells three dtypes with Python's builtin names (``mindspore.bool``). They are
# served by the module ``__getattr__`` so that this module's own ``bool``/``int``/``float`` stay the
# builtins.
BUILTIN_NAMED = {"bool": bool_, "int": int32, "float": float32}


def __getattr__(name):
    try:
        return BUILTIN_NAMED[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None

"""MindIR values: TensorProto <-> NumPy arrays and AttributeProto <-> Python constants.

A ``Constant`` node holds its value in an AttributeProto (``formats.md`` C.4): integers and booleans
in ``i`` (``ints`` inside a tuple), floats in ``f`` (``floats`` inside a tuple), tuples in ``values``,
tensors in ``tensors`` and the side-effect monads as a bare type. Dtypes travel as MindSpore TypeIds.

Example:
    >>> from sporax.io.mindir.values import attribute_value, constant_attribute
    >>> attribute_value(constant_attribute((1, 2.5, True)))
    (1, 2.5, True)
"""
import ml_dtypes
import numpy as np

from sporax.io.mindir.proto import ATTRIBUTE_TYPE, AttributeProto, TensorProto

# TensorProto.data_type codes (and the AttributeProto scalar type of the same number).
NUMPY_BY_CODE = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32,
                 7: np.int64, 9: np.bool_, 10: np.float16, 11: np.float64, 12: np.uint32,
                 13: np.uint64, 14: np.complex64, 15: np.complex128, 16: ml_dtypes.bfloat16}
CODE_BY_NUMPY = {np.dtype(numpy_type): code for code, numpy_type in NUMPY_BY_CODE.items()}
# MindSpore's TypeId numbers, as Cast and other dtype arguments store them.
NUMPY_BY_TYPE_ID = {30: np.bool_, 32: np.int8, 33: np.int16, 34: np.int32, 35: np.int64, 37: np.uint8,
                    38: np.uint16, 39: np.uint32, 40: np.uint64, 42: np.float16, 43: np.float32,
                    44: np.float64, 45: ml_dtypes.bfloat16, 51: np.complex64, 52: np.complex128}
TYPE_ID_BY_NUMPY = {np.dtype(numpy_type): type_id for type_id, numpy_type in NUMPY_BY_TYPE_ID.items()}
_INTEGER_TYPES = {ATTRIBUTE_TYPE[name] for name in ("UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64",
                                                     "UINT32", "UINT64")}


class Monad:
    """MindSpore's side-effect token (UMONAD/IOMONAD): orders effects, carries no data."""

    def __repr__(self):
        return "Monad"


MONAD = Monad()


def numpy_dtype(code, what):
    if code not in NUMPY_BY_CODE:
        raise ValueError(f"{what} has MindIR data type code {code}, which sporax does not read "
                         f"(known: {sorted(NUMPY_BY_CODE)}).")
    return np.dtype(NUMPY_BY_CODE[code])


def tensor_array(tensor, what, raw=None):
    """The NumPy array of a TensorProto (``raw`` replaces its raw_data, e.g. from an external file)."""
    dtype = numpy_dtype(tensor.data_type, what)
    dims = [int(dim) for dim in tensor.dims]
    raw = tensor.raw_data if raw is None else raw
    count = int(np.prod(dims, dtype=np.int64)) if dims else 1
    if len(raw) != count * dtype.itemsize:
        raise ValueError(f"{what}: shape {dims} of {dtype.name} needs {count * dtype.itemsize} bytes, "
                         f"the file holds {len(raw)}. The file is damaged.")
    return np.frombuffer(raw, dtype).reshape(dims).copy()


def array_tensor(array, name="", ref_key=None):
    """A TensorProto holding ``array`` in raw_data (little-endian, as the ckpt)."""
    array = np.asarray(array, order="C")  # (np.ascontiguousarray would make a scalar 1-D)
    tensor = TensorProto(dims=list(array.shape), data_type=CODE_BY_NUMPY[array.dtype], name=name,
                         raw_data=array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes())
    if ref_key is not None:
        tensor.ref_key = ref_key
    return tensor


def _scalar(attribute, kind):
    if kind == ATTRIBUTE_TYPE["BOOL"]:
        return bool(attribute.ints[0] if attribute.ints else attribute.i)
    if kind in _INTEGER_TYPES:
        return int(attribute.ints[0] if attribute.ints else attribute.i)
    if kind in (ATTRIBUTE_TYPE["FLOAT"], ATTRIBUTE_TYPE["FLOAT16"], ATTRIBUTE_TYPE["BFLOAT16"]):
        # float32 on file: read back the shortest decimal that rounds to it (1e-05, not 9.99e-06)
        return float(np.format_float_positional(np.float32(attribute.floats[0] if attribute.floats
                                                           else attribute.f), unique=True))
    if kind == ATTRIBUTE_TYPE["DOUBLE"]:
        return float(attribute.doubles[0] if attribute.doubles else attribute.d)
    if kind == ATTRIBUTE_TYPE["STRING"]:
        return (attribute.strings[0] if attribute.strings else attribute.s).decode("utf-8")
    raise KeyError(kind)


def attribute_value(attribute, what="constant"):
    """The Python value of an AttributeProto: scalars, tuples, arrays, None or ``MONAD``."""
    kind = attribute.type
    if kind in (ATTRIBUTE_TYPE["TUPLE"], ATTRIBUTE_TYPE["LIST"]):
        items = tuple(attribute_value(item, what) for item in attribute.values)
        return items if kind == ATTRIBUTE_TYPE["TUPLE"] else list(items)
    if kind == ATTRIBUTE_TYPE["TENSORS"]:
        return tensor_array(attribute.tensors[0], what)
    if kind == ATTRIBUTE_TYPE["TENSOR"]:
        return tensor_array(attribute.t, what)
    if kind == ATTRIBUTE_TYPE["NONE"]:
        return None
    if kind in (ATTRIBUTE_TYPE["UMONAD"], ATTRIBUTE_TYPE["IOMONAD"]):
        return MONAD
    try:
        return _scalar(attribute, kind)
    except KeyError:
        name = AttributeProto.DESCRIPTOR.enum_types_by_name["AttributeType"].values_by_number.get(kind)
        raise NotImplementedError(f"{what}: MindIR attribute type {name.name if name else kind} is not "
                                  "supported by sporax.") from None


def constant_attribute(value, name="value", element=False):
    """An AttributeProto for ``value`` as MindSpore 2.10 writes constants (``element``: inside a tuple)."""
    attribute = AttributeProto(name=name) if not element else AttributeProto()
    if value is MONAD:
        attribute.type = ATTRIBUTE_TYPE["UMONAD"]
    elif value is None:
        attribute.type = ATTRIBUTE_TYPE["NONE"]
    elif isinstance(value, (bool, np.bool_)):
        attribute.type = ATTRIBUTE_TYPE["BOOL"]
        attribute.ints.append(int(value)) if element else setattr(attribute, "i", int(value))
    elif isinstance(value, (int, np.integer)):
        attribute.type = ATTRIBUTE_TYPE["INT64"]
        attribute.ints.append(int(value)) if element else setattr(attribute, "i", int(value))
    elif isinstance(value, (float, np.floating)):
        attribute.type = ATTRIBUTE_TYPE["FLOAT"]
        attribute.floats.append(float(value)) if element else setattr(attribute, "f", float(value))
    elif isinstance(value, str):
        attribute.type = ATTRIBUTE_TYPE["STRING"]
        attribute.strings.append(value.encode()) if element else setattr(attribute, "s", value.encode())
    elif isinstance(value, (tuple, list)):
        attribute.type = ATTRIBUTE_TYPE["TUPLE" if isinstance(value, tuple) else "LIST"]
        for item in value:
            attribute.values.append(constant_attribute(item, element=True))
    elif isinstance(value, np.ndarray):
        attribute.type = ATTRIBUTE_TYPE["TENSORS"]
        attribute.tensors.append(array_tensor(value))
    else:
        raise TypeError(f"MindIR constants are scalars, strings, tuples or arrays, got {type(value).__name__}.")
    return attribute

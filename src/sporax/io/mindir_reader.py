"""Read the weights stored in a MindIR file written by MindSpore (``formats.md`` C.3)."""
import os

import ml_dtypes
import numpy as np

from sporax.io.wire import WireError, iterate_fields

# MindIR TensorProto.data_type codes.
_NUMPY_BY_CODE = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32,
                  7: np.int64, 9: np.bool_, 10: np.float16, 11: np.float64, 12: np.uint32,
                  13: np.uint64, 16: ml_dtypes.bfloat16}


def _submessages(data, span, number):
    for field, wire_type, value, _ in iterate_fields(data, *span):
        if field == number and wire_type == 2:
            yield value


def _tensor(data, span, file_name):
    dims, code, name, ref_key, raw, external = [], None, None, None, None, None
    for field, wire_type, value, offset in iterate_fields(data, *span):
        if field == 1 and wire_type == 0:
            dims.append(value - (1 << 64) if value >= 1 << 63 else value)
        elif field == 2 and wire_type == 0:
            code = value
        elif field == 7 and wire_type == 2:
            name = bytes(data[value[0]:value[1]]).decode("utf-8", "replace")
        elif field == 9 and wire_type == 2:
            raw = data[value[0]:value[1]]
        elif field == 12 and wire_type == 2:
            external = value
        elif field == 13 and wire_type == 2:
            ref_key = bytes(data[value[0]:value[1]]).decode("utf-8", "replace")
    key = ref_key or (name.split(":", 1)[-1] if name else None)
    if code not in _NUMPY_BY_CODE:
        raise WireError(f"parameter {key!r} has unsupported data type code {code}", span[0])
    dtype = np.dtype(_NUMPY_BY_CODE[code])
    if raw is None:
        if external is not None:
            raise NotImplementedError(f"{file_name}: parameter {key!r} is stored in an external "
                                      "_variables/ data file; sporax reads only embedded weights.")
        raw = b""
    count = int(np.prod(dims, dtype=np.int64)) if dims else 1
    if len(raw) != count * dtype.itemsize:
        raise WireError(f"parameter {key!r} of shape {dims} has {len(raw)} bytes", span[0])
    return key, np.frombuffer(bytes(raw), dtype).reshape(dims).copy()


def read_parameters(data, file_name):
    """``{name: ndarray}`` for the weights of a MindSpore MindIR (ModelProto.graph.parameter)."""
    parameters = {}
    try:
        for graph in _submessages(data, (0, len(data)), 7):
            for tensor_span in _submessages(data, graph, 3):
                key, value = _tensor(data, tensor_span, file_name)
                parameters[key] = value
    except WireError as error:
        raise ValueError(f"For 'load', {os.path.basename(file_name)}: byte {error.offset}: {error}. "
                         "The file is truncated or is not a MindIR file.") from None
    return parameters

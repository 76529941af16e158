"""``Dataset.save``: write a pipeline's rows to MindRecord files, with MindSpore's schema rules.

Each column becomes one field, typed from its first row: 0-d numbers are scalar fields
(bool and integers up to 32 bits -> int32, uint32/64-bit integers -> int64, float16/32 ->
float32, float64), 0-d strings are ``string`` fields, 0-d or 1-element bytes ``bytes`` fields;
arrays are array fields of shape ``[-1, *shape[1:]]`` with the same type rules. Every scalar
field is indexed, in column order; the description is ``"mindrecord"``.
"""
import os

import numpy as np

from sporax.mindrecord import FileWriter
from sporax.mindrecord.writer import shard_paths

_INT32_KINDS = (np.bool_, np.int8, np.int16, np.int32, np.uint8, np.uint16)
_BATCH_ROWS = 1000  # rows handed to the writer at a time


def _field(where, name, value):
    array = np.asarray(value)
    if array.dtype.kind == "S":
        if array.size != 1:
            raise RuntimeError(f"{where}: column '{name}' holds {array.size} bytes values; "
                               "mindrecord stores one bytes value per row.")
        return {"type": "bytes"}, lambda v: bytes(np.asarray(v).reshape(-1)[0])
    if array.dtype.kind == "U":
        if array.ndim:
            raise RuntimeError(f"{where}: Invalid data, mindrecord can not support "
                               f"multi-dimensional string tensor (column '{name}').")
        return {"type": "string"}, lambda v: str(np.asarray(v).reshape(()))
    if array.dtype.type in _INT32_KINDS:
        kind = "int32"
    elif array.dtype.kind in "iu":
        kind = "int64"
    elif array.dtype in (np.float16, np.float32):
        kind = "float32"
    elif array.dtype == np.float64:
        kind = "float64"
    else:
        raise RuntimeError(f"{where}: column '{name}' has type {array.dtype}, which mindrecord "
                           "cannot store.")
    if array.ndim == 0:
        return {"type": kind}, lambda v: np.asarray(v).astype(kind).item()
    spec = {"type": kind, "shape": [-1] + list(array.shape[1:])}
    return spec, lambda v: np.ascontiguousarray(np.asarray(v).astype(kind))


def save(dataset, file_name, num_files=1, file_type="mindrecord"):
    """Write every row of one epoch of ``dataset`` to ``file_name`` (``num_files`` shards)."""
    where = "Dataset.save"
    if file_type != "mindrecord":
        raise ValueError(f"{where}: file_type must be 'mindrecord', but got {file_type!r}.")
    if not isinstance(num_files, int) or isinstance(num_files, bool) or not 1 <= num_files <= 1000:
        raise ValueError(f"{where}: num_files must be an int in [1, 1000], but got {num_files!r}.")
    if not isinstance(file_name, str) or not file_name:
        raise TypeError(f"{where}: file_name must be a non-empty str, but got {file_name!r}.")
    names = dataset.get_col_names()
    for path in shard_paths(file_name, num_files):
        if os.path.exists(path) or os.path.exists(path + ".db"):
            raise RuntimeError(f"{where}: Invalid file, mindrecord files already exist. Please "
                               f"check file path: {os.path.abspath(path)}.")
    writer = FileWriter(file_name, num_files)
    converters, pending = None, []
    for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
        if converters is None:
            specs = [_field(where, name, value) for name, value in zip(names, row)]
            converters = [convert for _, convert in specs]
            schema = {name: spec for name, (spec, _) in zip(names, specs)}
            writer.add_schema(schema, "mindrecord")
            scalars = [name for name in names if "shape" not in schema[name]
                       and schema[name]["type"] != "bytes"]
            if scalars:
                writer.add_index(scalars)
        pending.append({name: convert(value)
                        for name, convert, value in zip(names, converters, row)})
        if len(pending) == _BATCH_ROWS:
            writer.write_raw_data(pending)
            pending = []
    if converters is None:
        raise RuntimeError(f"{where}: the dataset has no rows to save.")
    if pending:
        writer.write_raw_data(pending)
    writer.commit()

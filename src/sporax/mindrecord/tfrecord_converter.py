"""``TFRecordToMR``: tf.train.Example TFRecord files to MindRecord, read without TensorFlow."""
import os
from string import punctuation

import numpy as np

from sporax.mindrecord.converters import _write_in_batches
from sporax.mindrecord.writer import SUCCESS, FileWriter, check_file_name

_SPECIAL = set(punctuation + " ") - {"_"}
_TYPES = {"int32": "int32", "int64": "int64", "float32": "float32", "float64": "float64",
          "float": "float32", "string": "string", "bytes": "string"}


def _field_name(key):
    """A feature name as a valid MindRecord field name (punctuation and spaces become '_')."""
    return "".join("_" if c in _SPECIAL else c for c in key)


def _type_name(dtype):
    # tf.int64, tf.string ... carry .name; numpy dtypes and plain strings are taken as well
    name = getattr(dtype, "name", None) or str(dtype)
    name = name.replace("tf.", "")
    if name not in _TYPES:
        raise ValueError(f"TFRecordToMR: feature type {dtype!r} is not supported; use int64, "
                         "float32 or string (tf.int64, tf.float32, tf.string).")
    return _TYPES[name]


class TFRecordToMR:
    """Convert a TFRecord file of ``tf.train.Example`` records to MindRecord.

    Each ``feature_dict`` entry (a ``tf.io.FixedLenFeature`` or any object with ``shape`` and
    ``dtype``) becomes a field: shape [] a scalar (a string field is ``bytes`` when named in
    ``bytes_fields``), shape [n] an array of n int64/float32 values. TensorFlow is not needed:
    the records are decoded here.

    Args:
        source (str): The TFRecord file.
        destination (str): The MindRecord file to write.
        feature_dict (dict): {feature name: FixedLenFeature}.
        bytes_fields (list[str], optional): string features that hold raw bytes (images).
            Default None.

    Examples:
        >>> import tensorflow as tf  # doctest: +SKIP
        >>> from sporax.mindrecord import TFRecordToMR
        >>> features = {"image": tf.io.FixedLenFeature([], tf.string),
        ...             "label": tf.io.FixedLenFeature([], tf.int64)}  # doctest: +SKIP
        >>> TFRecordToMR("/data/a.tfrecord", "/data/a.mindrecord", features, ["image"]).transform()  # doctest: +SKIP
    """

    def __init__(self, source, destination, feature_dict, bytes_fields=None):
        if not isinstance(source, str):
            raise ValueError("Parameter source must be string.")
        check_file_name(source)
        if not isinstance(destination, str):
            raise ValueError("Parameter destination must be string.")
        check_file_name(destination)
        if not isinstance(feature_dict, dict) or not feature_dict:
            raise ValueError("Parameter feature_dict must be a non-empty dict of "
                             "{name: FixedLenFeature}.")
        self.source, self.destination, self.feature_dict = source, destination, feature_dict
        if bytes_fields is not None and not isinstance(bytes_fields, list):
            raise ValueError(f"Parameter bytes_fields: {bytes_fields} must be list(str).")
        for item in bytes_fields or []:
            if not isinstance(item, str):
                raise ValueError(f"Parameter bytes_fields's item: {item} is not str.")
            if item not in feature_dict:
                raise ValueError(f"Parameter bytes_fields's item: {item} is not in feature_dict: "
                                 f"{list(feature_dict)}.")
            if _type_name(feature_dict[item].dtype) != "string":
                raise ValueError(f"Parameter bytes_field: {item} should be tf.string in "
                                 "feature_dict.")
        self.bytes_fields_list = [_field_name(item) for item in bytes_fields or []]
        self.mindrecord_schema = self._schema()

    def _schema(self):
        schema = {}
        for key, feature in self.feature_dict.items():
            name, kind = _field_name(key), _type_name(feature.dtype)
            shape = list(feature.shape)
            if not shape:
                schema[name] = {"type": "bytes" if name in self.bytes_fields_list else kind}
                continue
            if len(shape) != 1 or not isinstance(shape[0], int) or shape[0] < 1:
                raise ValueError(f"Parameter feature_dict[{key}].shape should be [] or [n] with "
                                 f"n > 0, but got {shape}.")
            if kind == "string":
                raise ValueError(f"Parameter feature_dict[{key}].dtype is tf.string which "
                                 "shape[0] is not None. It is not supported.")
            schema[name] = {"type": kind, "shape": [shape[0]]}
        return schema

    def _row(self, example):
        row = {}
        for key, feature in self.feature_dict.items():
            name = _field_name(key)
            spec = self.mindrecord_schema[name]
            if key not in example:
                default = getattr(feature, "default_value", None)
                if default is None:
                    raise ValueError(f"TFRecordToMR: a record of {self.source} has no feature "
                                     f"{key!r} and feature_dict gives it no default_value.")
                value = np.asarray(default)
            else:
                value = example[key]
            if "shape" in spec:
                row[name] = np.asarray(value, dtype=spec["type"]).reshape(spec["shape"])
            elif spec["type"] == "bytes":
                row[name] = value.tobytes() if isinstance(value, np.ndarray) else bytes(value)
            elif spec["type"] == "string":
                raw = value.tobytes() if isinstance(value, np.ndarray) else value
                row[name] = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
            elif spec["type"].startswith("int"):
                row[name] = int(np.asarray(value).reshape(-1)[0])
            else:
                row[name] = float(np.asarray(value).reshape(-1)[0])
        return row

    def tfrecord_iterator(self):
        """Yield each record of ``source`` as a MindRecord row."""
        # the TFRecord decoder lives with the pipeline's TFRecordDataset (imported when used:
        # sporax.dataset itself imports this package)
        from sporax.dataset.engine.tfrecord import parse_example, read_records

        for record in read_records(self.source):
            yield self._row(parse_example(record))

    def tfrecord_iterator_oldversion(self):
        """The same rows (TensorFlow 1.x had its own iterator; there is one reader here)."""
        return self.tfrecord_iterator()

    def run(self):
        writer = FileWriter(self.destination)
        writer.add_schema(self.mindrecord_schema, "TFRecord to MindRecord")
        _write_in_batches(writer, self.tfrecord_iterator(), parallel_writer=True)
        return SUCCESS

    def transform(self):
        """Convert ``source`` to ``destination``."""
        return self.run()

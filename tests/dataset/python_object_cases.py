"""Dict-valued (Python object) dataset columns: cases run by MindSpore 2.10 (recorded once into
``tests/fixtures/dataset/python_objects_oracle.json`` by
``tests/fixtures/dataset/record_python_objects_oracle.py``) and by sporax in ``test_python_objects.py``.

Each case is a function of the ``mindspore.dataset`` module (``ds``) returning a list of strings:
the ``repr`` of the rows it iterates, or ``error: TEXT`` for an expected error.
"""
import numpy as np


def _reprs(dataset, limit=2, **kwargs):
    out = []
    for row in dataset.create_dict_iterator(num_epochs=1, **kwargs):
        out.append(repr(row))
        if len(out) == limit:
            break
    return out


def _mixed(ds, nested=False):
    def generate():
        for i in range(4):
            leaves = {"i": i, "f": i * 0.5, "s": "ab", "l": [i, i + 1], "t": (i, 2), "b": True,
                      "arr": np.ones(2, np.float32) * i}
            if nested:
                leaves["n"] = {"a": np.int32(i)}
            yield leaves, i
    return ds.GeneratorDataset(generate, column_names=["c", "d"], shuffle=False)


def dict_leaves_numpy(ds):
    return _reprs(_mixed(ds, nested=True), output_numpy=True)


def dict_leaves_tensor(ds):
    return _reprs(_mixed(ds, nested=True))


def batch_dicts_numpy(ds):
    return _reprs(_mixed(ds).batch(2), output_numpy=True)


def batch_dicts_tensor(ds):
    return _reprs(_mixed(ds).batch(2))


def batch_nested_dict_error(ds):
    try:
        _reprs(_mixed(ds, nested=True).batch(2), output_numpy=True)
    except RuntimeError as exc:
        return ["error: " + ("failed to create a NumPy array with primitive types"
                             if "failed to create a NumPy array with primitive types" in str(exc) else str(exc))]
    return ["no error"]


def map_returns_dict(ds):
    def to_dict(x):
        return {"x": x, "square": x ** 2}
    data = ds.GeneratorDataset(lambda: iter(range(3)), column_names=["col1"]).map(to_dict, input_columns=["col1"])
    return _reprs(data, limit=3, output_numpy=True)


def per_batch_map_returns_dicts(ds):
    def per_batch(col1, batch_info):
        return {"original": col1, "index": np.arange(3)}, {"copied": col1}
    data = ds.GeneratorDataset(lambda: iter(range(6)), column_names=["col1"])
    data = data.batch(batch_size=3, per_batch_map=per_batch, output_columns=["col1", "col2"])
    return _reprs(data, output_numpy=True)


def int64_columns_numpy(ds):
    data = ds.NumpySlicesDataset({"a": np.arange(3), "b": np.arange(3, dtype=np.uint64),
                                  "c": np.arange(3, dtype=np.int32), "f": np.arange(3.0)}, shuffle=False)
    return _reprs(data, output_numpy=True) + _reprs(data.batch(2), limit=1, output_numpy=True)


def dict_column_types_and_shapes(ds):
    data = _mixed(ds)
    return [repr(data.output_types()), repr(data.output_shapes()), repr(data.batch(2).output_shapes())]


def dict_none_leaves(ds):
    # A detection sample dict keeps None for fields an image lacks (no segments, no keypoints).
    class Samples:
        def __getitem__(self, i):
            return {"none": None, "l": [i, None], "nested": {"g": None, "h": 1.5}, "arr": np.ones(2) * i}

        def __len__(self):
            return 4

    def collate(samples, batch_info):
        nones = [repr((sample["none"], sample["l"][1], sample["nested"]["g"])) for sample in samples]
        return np.stack([sample["arr"] for sample in samples]), nones
    plain = ds.GeneratorDataset(Samples(), column_names=["samples"], shuffle=False)
    batched = ds.GeneratorDataset(Samples(), column_names=["samples"], shuffle=False).batch(
        2, per_batch_map=collate, input_columns=["samples"], output_columns=["x", "text"])
    return _reprs(plain, output_numpy=True) + _reprs(batched, output_numpy=True)


CASES = [dict_leaves_numpy, dict_leaves_tensor, batch_dicts_numpy, batch_dicts_tensor, batch_nested_dict_error,
         map_returns_dict, per_batch_map_returns_dicts, int64_columns_numpy,
         dict_column_types_and_shapes, dict_none_leaves]

"""serialize / deserialize / to_json against JSON and rows recorded from MindSpore 2.10.

Fixtures: tests/fixtures/dataset_serdes (record_serdes_oracle.py wrote them with the oracle).
"""
import json
import os

import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.transforms as T  # noqa: F401  (used by the recorded expressions)
import sporax.dataset.vision as vision  # noqa: F401

HERE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "dataset_serdes")
META = json.load(open(os.path.join(HERE, "meta.json")))
ROWS = np.load(os.path.join(HERE, "rows.npz"))
DATA = os.path.realpath(os.path.join(HERE, "data"))


def recorded(name):
    """The oracle's JSON for ``name`` with its data paths pointing at this checkout."""
    with open(os.path.join(HERE, f"{name}.json")) as handle:
        text = handle.read()
    return json.loads(text.replace(META["data_root"], DATA))


def rows_of(dataset):
    out = {}
    for n, row in enumerate(dataset.create_dict_iterator(num_epochs=1, output_numpy=True)):
        for key, value in row.items():
            out[f"{n}:{key}"] = value
    return out


@pytest.fixture
def default_seed(monkeypatch):
    """MindSpore writes DistributedSampler's seed from the dataset seed: use the default one."""
    from sporax.dataset.core import config

    monkeypatch.setitem(config._state, "seed", 5489)


DETERMINISTIC = sorted(name for name, case in META["cases"].items() if case.get("rows"))


@pytest.mark.parametrize("name", DETERMINISTIC)
def test_oracle_json_rebuilds_to_the_oracle_rows(name):
    rows = rows_of(ds.deserialize(input_dict=recorded(name)))
    expected = {key.split("/", 1)[1]: ROWS[key] for key in ROWS.files if key.startswith(name + "/")}
    assert sorted(rows) == sorted(expected)
    for key, value in expected.items():
        if value.dtype.kind == "U":  # string rows: the text (NumPy's string width may differ)
            assert rows[key].dtype.kind == "U" and str(rows[key]) == str(value), key
            continue
        assert rows[key].dtype == value.dtype, key
        np.testing.assert_allclose(rows[key], value, rtol=1e-6, atol=1e-6, err_msg=key)


@pytest.mark.parametrize("name", [name for name, case in META["cases"].items()
                                  if case.get("round_trip_equal")])
def test_serialize_writes_the_json_mindspore_wrote(name, default_seed):
    document = recorded(name)
    assert ds.serialize(ds.deserialize(input_dict=document)) == document


def test_deserialize_reads_a_file_and_to_json_writes_one(tmp_path, default_seed):
    path = tmp_path / "pipeline.json"
    path.write_text(json.dumps(recorded("mnist_map_batch")))
    data = ds.deserialize(json_filepath=str(path))
    out = tmp_path / "again.json"
    assert data.to_json(str(out)) == recorded("mnist_map_batch")
    assert json.loads(out.read_text()) == recorded("mnist_map_batch")


def test_shuffled_random_pipeline_rebuilds_to_the_same_sporax_pipeline():
    ds.config.set_seed(7)
    rebuilt = ds.deserialize(input_dict=recorded("imagefolder_shuffle_random"))
    # The JSON holds MindSpore's RandomSampler(replacement=True, num_samples=4) for shuffle=True.
    direct = (ds.ImageFolderDataset(os.path.join(DATA, "images"), decode=True,
                                    sampler=ds.RandomSampler(True, 4))
              .map([vision.RandomHorizontalFlip(0.30000001192092896), vision.Resize(5)],
                   input_columns="image")
              .shuffle(3).batch(2, drop_remainder=True).repeat(2))
    first = rows_of(rebuilt)
    ds.config.set_seed(7)
    second = rows_of(direct)
    assert sorted(first) == sorted(second) and len(first) == 8
    for key in first:
        np.testing.assert_array_equal(first[key], second[key])


@pytest.mark.parametrize("text", sorted(META["operations"]))
def test_transforms_serialize_as_mindspore_writes_them(text):
    op = eval(text)  # noqa: S307 (the recorded, fixed expressions)
    data = ds.NumpySlicesDataset([np.zeros((4, 4, 3), np.uint8)], shuffle=False).map(op)
    written = ds.serialize(data)["operations"]
    assert written == META["operations"][text]
    rebuilt = ds.deserialize(input_dict=recorded("mnist_map_batch") | {
        "children": [recorded("mnist_map_batch")["children"][0]["children"][0] |
                     {"operations": written}]})
    assert ds.serialize(rebuilt)["children"][0]["operations"] == written


def test_unknown_operations_are_named():
    document = recorded("mnist_take_skip_project_rename")
    document["children"][0]["op_type"] = "Foo"
    document["op_type"] = "Bar"
    with pytest.raises(RuntimeError, match="unsupported operation type: Bar, Foo"):
        ds.deserialize(input_dict=document)
    with pytest.raises(RuntimeError, match="unsupported operation type: GeneratorDataset"):
        ds.deserialize(input_dict=recorded("numpy_slices_pyfunc"))
    document = recorded("mnist_map_batch")
    document["children"][0]["children"][0]["operations"][1]["tensor_op_name"] = "Baz"
    with pytest.raises(RuntimeError, match="unsupported operation: Baz"):
        ds.deserialize(input_dict=document)
    del document["op_type"]
    with pytest.raises(RuntimeError, match="Failed to find op_type in json"):
        ds.deserialize(input_dict=document)


def test_python_functions_are_written_by_name_and_refused_on_rebuild():
    data = ds.MnistDataset(os.path.join(DATA, "mnist"), shuffle=False).map(lambda x: x)
    written = ds.serialize(data)
    assert written["operations"] == [{"python_module": __name__, "tensor_op_name": "<lambda>"}]
    with pytest.raises(RuntimeError, match="unsupported operation: <lambda>"):
        ds.deserialize(input_dict=written)


def test_deserialize_arguments_as_mindspore():
    assert ds.deserialize() is None
    assert ds.deserialize(input_dict={}) is None
    with pytest.raises(RuntimeError, match="failed to open json file: /no/such.json"):
        ds.deserialize(json_filepath="/no/such.json")


# What MindSpore 2.10 writes for TypeCast of each type (printed by /tmp/ms/bin/python).
TYPE_CAST_JSON = {"int32": "int32", "float16": "float16", "bool_": "bool", "uint8": "uint8"}


@pytest.mark.parametrize("name", sorted(TYPE_CAST_JSON))
def test_type_cast_to_a_mindspore_type_serializes(name):
    import sporax

    data = ds.NumpySlicesDataset({"x": np.arange(4, dtype=np.float32)}, shuffle=False)
    data = data.map(operations=[T.TypeCast(getattr(sporax, name))], input_columns=["x"])
    written = ds.serialize(data)["operations"]
    assert written == [{"tensor_op_name": "TypeCast",
                        "tensor_op_params": {"data_type": TYPE_CAST_JSON[name]}}]
    # rebuilt inside a pipeline MindSpore can rebuild (a GeneratorDataset it cannot)
    source = recorded("mnist_map_batch")["children"][0]["children"][0]
    rebuilt = ds.deserialize(input_dict=source | {"operations": written, "input_columns": ["label"],
                                                  "output_columns": ["label"]})
    labels = [row["label"] for row in rebuilt.create_dict_iterator(output_numpy=True)]
    assert labels and {label.dtype.name for label in labels} == {TYPE_CAST_JSON[name]}


def test_deserialize_of_a_path_string_fails_when_the_pipeline_is_used():
    """MindSpore 2.10 (dataset_autotune page: ds.deserialize("/path/to/autotune_out_0.json")): a non-dict
    input_dict gives a DeserializedDataset without reading anything; get_dataset_size, output_shapes and
    iteration then raise RuntimeError ("Exception thrown from dataset pipeline ..."); None gives None."""
    data = ds.deserialize("/path/to/autotune_out_0.json")
    assert type(data).__name__ == "DeserializedDataset" and isinstance(data, ds.Dataset)
    for use in (data.get_dataset_size, data.output_shapes, lambda: next(iter(data.create_tuple_iterator()))):
        with pytest.raises(RuntimeError, match="Exception thrown from dataset pipeline"):
            use()
    assert ds.deserialize(None) is None and ds.deserialize(json_filepath=None) is None

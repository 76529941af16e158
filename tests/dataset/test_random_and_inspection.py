"""RandomDataset (schema-driven random rows, MindSpore's one-byte fill), compare and show."""
import logging

import numpy as np
import pytest

import sporax.dataset as ds


def _schema():
    schema = ds.Schema()
    schema.add_column("image", de_type="uint8", shape=[2, 3])
    schema.add_column("label", de_type="int32", shape=[1])
    return schema


def test_random_dataset_follows_the_schema():
    dataset = ds.RandomDataset(schema=_schema(), total_rows=5)
    assert dataset.get_col_names() == ["image", "label"] and dataset.get_dataset_size() == 5
    rows = list(dataset.create_tuple_iterator(output_numpy=True))
    assert len(rows) == 5
    for image, label in rows:
        assert image.dtype == np.uint8 and image.shape == (2, 3)
        assert label.dtype == np.int32 and label.shape == (1,)
        # every tensor is one random byte repeated, as MindSpore fills them
        assert len(set(image.reshape(-1).tolist())) == 1
        assert len(set(label.view(np.uint8).tolist())) == 1
    again = list(ds.RandomDataset(schema=_schema(), total_rows=5)
                 .create_tuple_iterator(output_numpy=True))
    assert all((a[0] == b[0]).all() for a, b in zip(rows, again))


def test_random_dataset_columns_list_and_schemaless():
    dataset = ds.RandomDataset(schema=_schema(), total_rows=3, columns_list=["label"])
    assert dataset.get_col_names() == ["label"]
    free = ds.RandomDataset(total_rows=2)
    names = free.get_col_names()
    assert 1 <= len(names) <= 4 and names[0] == "c0"
    assert len(list(free.create_tuple_iterator(output_numpy=True))) == 2
    with pytest.raises(ValueError, match="columns_list"):
        ds.RandomDataset(schema=_schema(), columns_list=["nope"])
    with pytest.raises(TypeError, match="total_rows"):
        ds.RandomDataset(total_rows="3")


def test_compare_and_show(caplog):
    a = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).batch(2)
    b = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).batch(2)
    c = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).batch(3)
    assert ds.compare(a, b) and not ds.compare(a, c)
    with caplog.at_level(logging.INFO, logger="sporax.dataset"):
        assert ds.show(c, indentation=None) is None
    assert '"op_type": "Batch"' in caplog.text and '"batch_size": 3' in caplog.text


def test_obs_mind_dataset_says_what_to_use_instead():
    with pytest.raises(NotImplementedError, match="MindDataset"):
        ds.OBSMindDataset(["s3://bucket/a.mindrecord"], "https://obs.example.com", "ak", "sk",
                          "s3://bucket/sync")
    with pytest.raises(TypeError, match="dataset_files"):
        ds.OBSMindDataset("s3://bucket/a.mindrecord", "https://obs.example.com", "ak", "sk", "x")

"""RandomDataset (schema-driven random rows, MindSpore's one-byte fill), compare and show."""
import json
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


def _fake_obs(monkeypatch, tmp_path, storage):
    """A stand-in for Huawei's OBS SDK module: buckets are folders under ``storage``."""
    import shutil
    import sys
    import types

    class Response:
        def __init__(self, status, contents=()):
            self.status, self.errorCode, self.errorMessage = status, "", "missing"
            self.body = types.SimpleNamespace(contents=[types.SimpleNamespace(key=k) for k in contents])

    class ObsClient:
        def __init__(self, access_key_id, secret_access_key, server):
            assert (access_key_id, secret_access_key, server) == ("ak", "sk", "https://obs.test")

        def getObject(self, bucket, key, downloadPath=None):
            source = storage / bucket / key
            if not source.exists():
                return Response(404)
            shutil.copy(source, downloadPath)
            return Response(200)

        def putContent(self, bucket, key, content=None):
            target = storage / bucket / key
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content)
            return Response(200)

        def listObjects(self, bucket, prefix=None):
            folder = storage / bucket / prefix
            names = [str(p.relative_to(storage / bucket)) for p in folder.glob("*")] if folder.exists() else []
            return Response(200, names)

    monkeypatch.setitem(sys.modules, "obs", types.SimpleNamespace(ObsClient=ObsClient))
    monkeypatch.setattr(ds.OBSMindDataset, "LOCAL_PATH", str(tmp_path / "cache"))


def test_obs_mind_dataset_downloads_and_reads(monkeypatch, tmp_path):
    from sporax.mindrecord import FileWriter

    storage = tmp_path / "storage"
    (storage / "bucket" / "data").mkdir(parents=True)
    writer = FileWriter(str(storage / "bucket" / "data" / "a.mindrecord"), 1)
    writer.add_schema({"label": {"type": "int32"}, "data": {"type": "bytes"}}, "d")
    writer.write_raw_data([{"label": i, "data": bytes([i])} for i in range(6)])
    writer.commit()
    _fake_obs(monkeypatch, tmp_path, storage)
    data = ds.OBSMindDataset(["obs://bucket/data/a.mindrecord"], "https://obs.test", "ak", "sk",
                             "obs://bucket/sync", columns_list=["label"], shuffle=False)
    assert data.get_col_names() == ["label"]
    assert [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == list(range(6))
    assert (tmp_path / "cache" / "a.mindrecord.db").exists()
    monkeypatch.setenv("BATCH_JOB_ID", "job1")
    shard = ds.OBSMindDataset(["obs://bucket/data/a.mindrecord"], "https://obs.test", "ak", "sk",
                              "obs://bucket/sync", shuffle=False, num_shards=1, shard_id=0)
    assert shard.get_dataset_size() == 6
    # two ranks: rank 1 is already ready; rank 0 writes its ready-file, waits, then reads half
    (storage / "bucket" / "sync" / "job1" / "1").mkdir(parents=True)
    (storage / "bucket" / "sync" / "job1" / "1" / "1.txt").write_text("ready")
    half = ds.OBSMindDataset(["obs://bucket/data/a.mindrecord"], "https://obs.test", "ak", "sk",
                             "obs://bucket/sync", shuffle=False, num_shards=2, shard_id=0)
    half._runtime.config.RETRY_DELTA_TIME = 0
    assert half.get_dataset_size() == 3
    assert (storage / "bucket" / "sync" / "job1" / "1" / "0.txt").exists()
    missing = ds.OBSMindDataset(["obs://bucket/data/b.mindrecord"], "https://obs.test", "ak",
                                "sk", "obs://bucket/sync")
    with pytest.raises(RuntimeError, match="downloading obs://bucket/data/b.mindrecord failed"):
        missing.get_col_names()


def test_obs_mind_dataset_arguments():
    with pytest.raises(TypeError, match="dataset_files"):
        ds.OBSMindDataset("s3://bucket/a.mindrecord", "https://obs.example.com", "ak", "sk", "x")
    with pytest.raises(TypeError, match="server"):
        ds.OBSMindDataset(["s3://bucket/a.mindrecord"], 5, "ak", "sk", "x")


def test_dataset_size_attribute_as_mindspore_keeps_it():
    # MindSpore 2.10: every dataset has a public dataset_size, None until get_dataset_size fills it (mindyolo's
    # trainer reads dataloader.dataset_size); a sampler change empties it, a value set by hand is returned as is.
    data = ds.NumpySlicesDataset(np.arange(10), ["x"], shuffle=False)
    batched = data.batch(3)
    looped = batched.repeat(4)
    assert (data.dataset_size, batched.dataset_size, looped.dataset_size) == (None, None, None)
    assert looped.get_dataset_size() == 16
    assert (looped.dataset_size, batched.dataset_size, data.dataset_size) == (16, None, None)
    assert batched.get_dataset_size() == 4 and batched.dataset_size == 4
    data.use_sampler(ds.SequentialSampler(num_samples=4))
    assert data.dataset_size is None and data.get_dataset_size() == 4
    assert batched.get_dataset_size() == 4  # kept from before, as in MindSpore
    kept = ds.NumpySlicesDataset(np.arange(10), ["x"], shuffle=False).filter(lambda x: x % 2 == 0)
    kept.dataset_size = 7
    assert kept.get_dataset_size() == 7
    assert len(list(kept.create_tuple_iterator(output_numpy=True))) == 5


def test_schema_json_is_mindspores_layout():
    # Recorded from MindSpore 2.10: a list of columns with sorted keys; a column without a shape has rank 1
    # (sporax wrote a {name: {...}} dict with rank 0)
    schema = ds.Schema()
    schema.add_column("a", de_type="float32", shape=[3])
    schema.add_column("b", de_type="int64")
    assert json.loads(schema.to_json()) == {"columns": [
        {"name": "a", "rank": 1, "shape": [3], "type": "float32"},
        {"name": "b", "rank": 1, "type": "int64"}]}
    assert str(schema) == schema.to_json()
    assert schema.to_json().splitlines()[3] == '      "name": "a",'
    again = ds.Schema()
    again.from_json(json.loads(schema.to_json()))
    assert again.columns_and_types() == (["a", "b"], [np.dtype("float32"), np.dtype("int64")])

"""FileWriter/FileReader round trips in sporax: every field type, shards, index fields."""
import numpy as np
import pytest

from sporax.mindrecord import FileReader, FileWriter

SCHEMA = {"label": {"type": "int32"}, "big": {"type": "int64"}, "f32": {"type": "float32"},
          "f64": {"type": "float64"}, "name": {"type": "string"}, "data": {"type": "bytes"},
          "mat": {"type": "float32", "shape": [2, 3]}, "ids": {"type": "int64", "shape": [-1]},
          "small": {"type": "int32", "shape": [2, -1]}, "vec": {"type": "float64", "shape": [3]}}


def make_rows(count):
    return [{"label": i - 1, "big": 10 ** 12 * i - 7, "f32": 1.5 * i, "f64": 0.1 * i,
             "name": "é" * i, "data": bytes(range(i + 1)),
             "mat": np.arange(6, dtype=np.float32).reshape(2, 3) * i,
             "ids": np.arange(i + 1, dtype=np.int64) * (-300) ** i,
             "small": np.array([[i, -i], [40000 * i, 7]], np.int32),
             "vec": np.array([0.1, i, -2.5])} for i in range(count)]


def check_equal(row, expected):
    assert sorted(row) == sorted(expected)
    for key, value in expected.items():
        if isinstance(value, np.ndarray):
            assert row[key].dtype == value.dtype and row[key].shape == value.shape
            np.testing.assert_array_equal(row[key], value)
        else:
            assert row[key] == pytest.approx(value) if isinstance(value, float) else row[key] == value


def test_round_trip_every_field_type(tmp_path):
    path = str(tmp_path / "all.mindrecord")
    writer = FileWriter(path)
    writer.add_schema(SCHEMA, "every type")
    writer.add_index(["label", "name"])
    rows = make_rows(4)
    writer.write_raw_data(rows)
    writer.commit()
    reader = FileReader(path)
    assert reader.len() == 4
    for got, expected in zip(reader.get_next(), rows):
        check_equal(got, expected)
    reader.close()


def test_shards_read_as_one_set(tmp_path):
    path = str(tmp_path / "sh.mindrecord")
    writer = FileWriter(path, shard_num=3)
    writer.add_schema({"id": {"type": "int64"}, "img": {"type": "bytes"}}, "sharded")
    writer.write_raw_data([{"id": i, "img": bytes([i]) * 3} for i in range(10)])
    writer.commit()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"sh.mindrecord{k}{suffix}" for k in range(3) for suffix in ("", ".db")]
    ids = [row["id"] for row in FileReader(str(tmp_path / "sh.mindrecord1")).get_next()]
    assert ids == list(range(10))  # every shard of the set, shard by shard
    only = [row["id"] for row in FileReader([str(tmp_path / "sh.mindrecord2")]).get_next()]
    assert only == [7, 8, 9]


def shard_sizes(path, shards):
    return [len(list(FileReader([f"{path}{k}"]).get_next())) for k in range(shards)]


def test_rows_written_one_at_a_time_spread_over_shards(tmp_path):
    path = str(tmp_path / "one.mindrecord")
    writer = FileWriter(path, shard_num=4)
    writer.add_schema({"id": {"type": "int32"}, "img": {"type": "bytes"}}, "one by one")
    writer.add_index(["id"])
    for i in range(10):
        writer.write_raw_data([{"id": i, "img": b"x"}])
    writer.commit()
    assert shard_sizes(path, 4) == [3, 3, 2, 2]
    assert sorted(row["id"] for row in FileReader(path + "0").get_next()) == list(range(10))


def test_parallel_writer_sends_each_call_to_one_shard(tmp_path):
    path = str(tmp_path / "par.mindrecord")
    writer = FileWriter(path, shard_num=2)
    writer.add_schema({"id": {"type": "int32"}}, "parallel")
    for start in (0, 3, 6):
        writer.write_raw_data([{"id": i} for i in range(start, start + 3)], parallel_writer=True)
    with pytest.raises(RuntimeError, match="consistent"):
        writer.write_raw_data([{"id": 9}])
    writer.commit()
    assert shard_sizes(path, 2) == [6, 3]
    # as MindSpore's parallel workers write them, each shard is a set of its own
    assert [row["id"] for row in FileReader(path + "1").get_next()] == [3, 4, 5]


def test_open_for_append_adds_rows_to_one_shard(tmp_path):
    path = str(tmp_path / "app.mindrecord")
    writer = FileWriter(path, shard_num=2)
    writer.add_schema({"id": {"type": "int32"}, "v": {"type": "float64", "shape": [-1]}}, "a")
    writer.add_index(["id"])
    writer.write_raw_data([{"id": i, "v": np.arange(i + 1.0)} for i in range(4)])
    writer.commit()
    appender = FileWriter.open_for_append(path + "1")
    appender.write_raw_data([{"id": 10, "v": np.array([0.5])}])
    appender.commit()
    assert [row["id"] for row in FileReader(path + "0").get_next()] == [0, 1, 2, 3, 10]
    assert [row["id"] for row in FileReader([path + "1"]).get_next()] == [2, 3, 10]


def test_shards_left_empty_are_read_as_no_rows(tmp_path):
    """Four rows over eight shards (DeepText's data_to_mindrecord_byte_image on a small set): the shards
    that got no row are a header alone, which MindSpore 2.10 writes too and reads; MindDataset over the
    set gives the four rows, in the order MindSpore 2.10 reads sporax's files."""
    from sporax.dataset import MindDataset

    writer = FileWriter(str(tmp_path / "text"), 8)
    writer.add_schema({"image": {"type": "bytes"}, "annotation": {"type": "int32", "shape": [-1, 6]}}, "text")
    for index in range(4):
        writer.write_raw_data([{"image": bytes([index]) * (10 + index),
                                "annotation": np.full((index + 1, 6), index, np.int32)}])
    writer.commit()
    sizes = sorted((tmp_path / f"text{shard}").stat().st_size for shard in range(8))
    assert sizes[0] < 1000  # an empty shard: its header only
    dataset = MindDataset(str(tmp_path / "text0"), columns_list=["image", "annotation"], shuffle=False)
    assert dataset.get_dataset_size() == 4
    rows = list(dataset.create_dict_iterator(output_numpy=True))
    assert [row["annotation"].shape for row in rows] == [(1, 6), (2, 6), (3, 6), (4, 6)]

"""MindDataset over MindRecord files: columns, sharding, padding, samplers, shuffle modes,
bytes columns into vision.Decode, and Dataset.save, against MindSpore 2.10's recorded runs."""
import io
import json
import os
import sys

import numpy as np
import pytest
from PIL import Image

import sporax.dataset as ds
from sporax.dataset import vision
from sporax.mindrecord import FileReader, FileWriter

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "mindrecord")
sys.path.insert(0, FIXTURES)
import scenarios  # noqa: E402

with open(os.path.join(FIXTURES, "expected_reads.json")) as _handle:
    OPTIONS = json.load(_handle)["sharded_options"]


@pytest.fixture(scope="module")
def sharded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sharded")
    scenarios.unpack_recorded("sharded", str(folder))
    return str(folder / "sharded.mindrecord0")


def ids(data):
    return [int(row["id"]) for row in data.create_dict_iterator(output_numpy=True, num_epochs=1)]


@pytest.mark.parametrize("shard_id", [0, 1])
def test_num_shards_interleave_rows_as_mindspore(sharded, shard_id):
    data = ds.MindDataset(sharded, shuffle=False, num_shards=2, shard_id=shard_id)
    assert data.get_dataset_size() == 14
    assert ids(data) == OPTIONS[f"num_shards=2,shard_id={shard_id}"]


@pytest.mark.parametrize("shard_id", range(4))
def test_padded_sample_evens_the_shards(sharded, shard_id):
    data = ds.MindDataset(sharded, columns_list=["id"], shuffle=False, num_shards=4,
                          shard_id=shard_id, padded_sample={"id": -1}, num_padded=1)
    assert ids(data) == OPTIONS[f"padded,num_shards=4,shard_id={shard_id}"]


def test_samplers_num_samples_and_file_lists(sharded):
    assert ids(ds.MindDataset(sharded, shuffle=False, num_samples=5)) == OPTIONS["num_samples=5"]
    assert ids(ds.MindDataset(sharded, sampler=ds.SequentialSampler(2, 3))) == \
        OPTIONS["SequentialSampler(2,3)"]
    assert ids(ds.MindDataset(sharded, sampler=ds.SubsetSampler([5, 1, 3]))) == \
        OPTIONS["SubsetSampler([5,1,3])"]
    files = [sharded[:-1] + "1", sharded]
    assert ids(ds.MindDataset(files, shuffle=False)) == OPTIONS["files"]


def test_shuffle_modes(sharded):
    in_order = ids(ds.MindDataset(sharded, shuffle=False))
    files = [in_order[:9], in_order[9:18], in_order[18:]]
    ds.config.set_seed(5)
    shuffled = ids(ds.MindDataset(sharded, shuffle=True))
    assert sorted(shuffled) == sorted(in_order) and shuffled != in_order
    for same in (ds.Shuffle.GLOBAL, ds.Shuffle.ADAPTIVE, None):
        ds.config.set_seed(5)
        assert ids(ds.MindDataset(sharded, shuffle=same)) == shuffled
    assert ids(ds.MindDataset(sharded, shuffle=ds.Shuffle.FALSE)) == in_order
    partial = ids(ds.MindDataset(sharded, shuffle=ds.Shuffle.PARTIAL))
    assert sorted(partial) == sorted(in_order) and partial != in_order
    file_order = ids(ds.MindDataset(sharded, shuffle=ds.Shuffle.FILES))
    assert sorted(file_order[k:k + 9] for k in range(0, 27, 9)) == sorted(files)
    in_file = ids(ds.MindDataset(sharded, shuffle=ds.Shuffle.INFILE))
    assert [sorted(in_file[k:k + 9]) for k in range(0, 27, 9)] == [sorted(f) for f in files]
    assert in_file != in_order
    with pytest.raises(ValueError, match="num_samples"):
        ds.MindDataset(sharded, shuffle=ds.Shuffle.FILES, num_samples=3)


def test_index_access(sharded):
    data = ds.MindDataset(sharded, columns_list=["id", "v"], shuffle=False)
    row = data[3]
    assert int(row[0]) == 3 and row[0].dtype == np.int64
    np.testing.assert_array_equal(row[1], np.array([3, -3], np.float32))
    assert int(data[26][0]) == 105
    with pytest.raises(RuntimeError, match=r"\[0, 26\], but got 27"):
        data[27]
    shuffled = ds.MindDataset(sharded, columns_list=["id"])
    assert sorted(int(shuffled[i][0]) for i in range(27)) == sorted(ids(data))


def test_argument_errors(sharded):
    with pytest.raises(RuntimeError, match="requires num_padded"):
        ds.MindDataset(sharded, columns_list=["id"], padded_sample={"id": -1})
    with pytest.raises(RuntimeError, match="padded_sample is not"):
        ds.MindDataset(sharded, num_padded=1)
    with pytest.raises(ValueError, match="cannot match columns_list"):
        ds.MindDataset(sharded, columns_list=["id", "img"], padded_sample={"id": -1}, num_padded=1)
    with pytest.raises(RuntimeError, match="fields are"):
        ds.MindDataset(sharded, columns_list=["nope"])
    # MindSpore 2.10 (recorded): shuffle beside a sampler is refused, even shuffle=False.
    with pytest.raises(RuntimeError, match="sampler and shuffle cannot be specified"):
        ds.MindDataset(sharded, shuffle=False, sampler=ds.SequentialSampler(2, 3))
    with pytest.raises(TypeError, match="shuffle"):
        ds.MindDataset(sharded, shuffle="yes")


def test_bytes_column_decodes_and_batches(tmp_path):
    path = str(tmp_path / "images.mindrecord")
    writer = FileWriter(path)
    writer.add_schema({"image": {"type": "bytes"}, "label": {"type": "int32"}}, "images")
    images = []
    for i in range(4):
        array = np.full((5, 6, 3), 40 * i, np.uint8)
        buffer = io.BytesIO()
        Image.fromarray(array).save(buffer, format="PNG")
        images.append(array)
        writer.write_raw_data([{"image": buffer.getvalue(), "label": i}])
    writer.commit()
    data = ds.MindDataset(path, shuffle=False).map(vision.Decode(), input_columns="image").batch(2)
    batches = list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))
    assert len(batches) == 2
    np.testing.assert_array_equal(batches[1][0], np.stack(images[2:]))
    np.testing.assert_array_equal(batches[1][1], np.array([2, 3], np.int32))


def test_save_writes_mindrecord_that_reads_back(tmp_path):
    def rows():
        for i in range(5):
            yield (np.array(i, np.uint8), np.array("s%d" % i), np.arange(3, dtype=np.int16) + i,
                   np.ones((2, 3), np.float16) * i)

    path = str(tmp_path / "saved.mindrecord")
    ds.GeneratorDataset(rows, ["u8", "s", "v", "m"], shuffle=False).save(path)
    schema = FileReader(path).schema()
    assert schema == {"u8": {"type": "int32"}, "s": {"type": "string"},
                      "v": {"type": "int32", "shape": [-1]},
                      "m": {"type": "float32", "shape": [-1, 3]}}
    got = list(ds.MindDataset(path, shuffle=False).create_dict_iterator(output_numpy=True))
    assert [int(r["u8"]) for r in got] == list(range(5))
    assert [str(r["s"]) for r in got] == ["s%d" % i for i in range(5)]
    np.testing.assert_array_equal(got[4]["v"], np.arange(3, dtype=np.int32) + 4)
    assert got[4]["m"].dtype == np.float32 and got[4]["m"].shape == (2, 3)
    with pytest.raises(RuntimeError, match="already exist"):
        ds.GeneratorDataset(rows, ["u8", "s", "v", "m"], shuffle=False).save(path)
    batched = ds.GeneratorDataset(rows, ["u8", "s", "v", "m"], shuffle=False).project(["v"]).batch(2)
    batched.save(str(tmp_path / "batched.mindrecord"), num_files=2)
    back = list(FileReader(str(tmp_path / "batched.mindrecord0")).get_next())
    assert [row["v"].shape for row in back] == [(2, 3), (2, 3), (1, 3)]

"""A damaged MindRecord file gives a clear error naming the file; bad arguments raise
MindSpore's error types."""
import os
import shutil
import sqlite3

import numpy as np
import pytest

import sporax.dataset as ds
from sporax.mindrecord import (
    FileReader,
    FileWriter,
    MRMDefineIndexError,
    MRMInvalidSchemaError,
    ParamTypeError,
    ParamValueError,
)

HEADER, PAGE = 1 << 14, 1 << 15


@pytest.fixture
def good_file(tmp_path):
    path = str(tmp_path / "good.mindrecord")
    writer = FileWriter(path)
    writer.set_header_size(HEADER)
    writer.set_page_size(PAGE)
    writer.add_schema({"label": {"type": "int32"}, "img": {"type": "bytes"},
                       "vec": {"type": "float32", "shape": [-1]}}, "good")
    writer.write_raw_data([{"label": i, "img": bytes([i]) * 50, "vec": np.ones(i + 1, np.float32)}
                           for i in range(8)])
    writer.commit()
    return path


def damaged_copy(good_file, name):
    path = os.path.join(os.path.dirname(good_file), name + ".mindrecord")
    shutil.copy(good_file, path)
    shutil.copy(good_file + ".db", path + ".db")
    # the index names its shard file: rename it as a copy of a data set would have to
    connection = sqlite3.connect(path + ".db")
    connection.execute("UPDATE SHARD_NAME SET NAME = ?", (os.path.basename(path),))
    connection.commit()
    connection.close()
    return path


def read_all(path, api):
    if api == "FileReader":
        return list(FileReader(path).get_next())
    return list(ds.MindDataset(path, shuffle=False).create_dict_iterator(output_numpy=True))


def damage(path, how):
    if how == "truncated":
        with open(path, "r+b") as handle:
            handle.truncate(HEADER + 100)
    elif how == "bad header":
        with open(path, "r+b") as handle:
            handle.write(b"\xff" * 8)
    elif how == "header json":
        with open(path, "r+b") as handle:
            handle.seek(8)
            handle.write(b"#")
    elif how == "missing .db":
        os.remove(path + ".db")
    elif how == "bad .db":
        with open(path + ".db", "wb") as handle:
            handle.write(b"not a database" * 100)
    elif how == "record bytes":
        with open(path, "r+b") as handle:
            handle.seek(HEADER + PAGE)  # the raw page: first record's length prefix
            handle.write(b"\x77" * 8)


@pytest.mark.parametrize("api", ["FileReader", "MindDataset"])
@pytest.mark.parametrize("how", ["truncated", "bad header", "header json", "missing .db",
                                 "bad .db", "record bytes"])
def test_damaged_file_error_names_the_file(good_file, how, api):
    path = damaged_copy(good_file, how.replace(" ", "_").replace(".", ""))
    assert len(read_all(path, api)) == 8
    damage(path, how)
    with pytest.raises(RuntimeError, match="Invalid file") as caught:
        read_all(path, api)
    assert path in str(caught.value)


def test_missing_shard_of_a_set(tmp_path):
    path = str(tmp_path / "set.mindrecord")
    writer = FileWriter(path, shard_num=2)
    writer.add_schema({"a": {"type": "int32"}})
    writer.write_raw_data([{"a": 1}, {"a": 2}])
    writer.commit()
    os.remove(path + "1")
    with pytest.raises(RuntimeError, match="set.mindrecord1 does not exist"):
        FileReader(path + "0")


def test_missing_file_errors(tmp_path):
    missing = str(tmp_path / "none.mindrecord")
    with pytest.raises(RuntimeError, match="none.mindrecord"):
        FileReader(missing)
    with pytest.raises(ValueError, match="does not exist"):
        ds.MindDataset(missing)


def test_writer_argument_errors(tmp_path):
    with pytest.raises(ParamValueError, match="shard_num"):
        FileWriter(str(tmp_path / "a.mindrecord"), shard_num=0)
    writer = FileWriter(str(tmp_path / "a.mindrecord"))
    with pytest.raises(MRMInvalidSchemaError, match="illegal attribute 'int8'"):
        writer.add_schema({"a": {"type": "int8"}})
    with pytest.raises(MRMInvalidSchemaError, match="composed of"):
        writer.add_schema({"a b": {"type": "int32"}})
    with pytest.raises(MRMInvalidSchemaError, match="Schema content is empty"):
        writer.add_schema({})
    with pytest.raises(RuntimeError, match="page size"):
        writer.set_page_size(100)
    with pytest.raises(RuntimeError, match="header size"):
        writer.set_header_size(1 << 30)
    writer.add_schema({"a": {"type": "int32"}, "b": {"type": "bytes"}})
    with pytest.raises(MRMDefineIndexError, match="not primitive"):
        writer.add_index(["b"])
    with pytest.raises(ParamTypeError, match="index_fields"):
        writer.add_index("a")
    with pytest.raises(ParamTypeError, match="raw_data"):
        writer.write_raw_data({"a": 1, "b": b"x"})


def test_rows_not_matching_the_schema_are_dropped_with_a_warning(tmp_path):
    path = str(tmp_path / "w.mindrecord")
    writer = FileWriter(path)
    writer.add_schema({"a": {"type": "int32"}, "v": {"type": "float32", "shape": [2]}})
    with pytest.warns(UserWarning) as caught:
        writer.write_raw_data([{"a": 1, "v": np.zeros(2, np.float32)},
                               {"a": 1.5, "v": np.zeros(2, np.float32)},
                               {"a": 2, "v": np.zeros(2, np.float64)}])
    assert [str(w.message)[:31] for w in caught] == ["for schema, 1 th data is wrong,",
                                                     "for schema, 2 th data is wrong,"]
    writer.commit()
    assert [row["a"] for row in FileReader(path).get_next()] == [1]


def test_existing_files_need_overwrite(tmp_path, good_file):
    writer = FileWriter(good_file)
    writer.add_schema({"a": {"type": "int32"}})
    with pytest.raises(RuntimeError, match="already exist"):
        writer.write_raw_data([{"a": 1}])
    writer = FileWriter(good_file, overwrite=True)
    writer.add_schema({"a": {"type": "int32"}})
    writer.write_raw_data([{"a": 7}])
    writer.commit()
    assert list(FileReader(good_file).get_next()) == [{"a": 7}]
    with pytest.raises(RuntimeError, match="flushed"):
        writer.write_raw_data([{"a": 1}])


def _overwrite(path, offset, data):
    with open(path, "r+b") as handle:
        handle.seek(offset)
        handle.write(data)


@pytest.mark.parametrize("api", ["FileReader", "MindDataset"])
@pytest.mark.parametrize("target, replacement", [
    (b'"float32"', b'"f]oat32"'),       # a field type NumPy does not know
    (b'"type":"int32"', b'"typ":"int32"'),  # a field without a type
    (b'"page_id"', b'"page_ix"'),       # a page without its id
    (b'"page_size":', b'"page_sizX":'),  # a page without its size
    (b'"shape":[-1]', b'"shape":[-9]'),  # a shape no writer produces
])
def test_damaged_header_fields_name_the_file(good_file, api, target, replacement):
    path = damaged_copy(good_file, "fields")
    data = open(path, "rb").read()
    offset = data.find(target)
    assert offset > 0, f"{target!r} is not in the header"
    _overwrite(path, offset, replacement[:len(target)].ljust(len(target), b" "))
    with pytest.raises(RuntimeError, match="Invalid file") as caught:
        read_all(path, api)
    assert path in str(caught.value)

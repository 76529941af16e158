"""MindRecord files against MindSpore 2.10: byte-identical writing and reading its files.

The fixtures (tests/fixtures/mindrecord, recorded by record.py with MindSpore 2.10) are the
files MindSpore writes for each scenario and what it reads back from them.
"""
import json
import os
import sqlite3
import sys

import numpy as np
import pytest

import sporax.dataset as ds
from sporax.mindrecord import FileReader, FileWriter

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "mindrecord")
sys.path.insert(0, FIXTURES)
import scenarios  # noqa: E402

with open(os.path.join(FIXTURES, "expected_reads.json")) as _handle:
    EXPECTED = json.load(_handle)
NAMES = sorted(scenarios.SCENARIOS)


def first_file(folder, name):
    path = os.path.join(folder, name + ".mindrecord")
    return path if os.path.exists(path) else path + "0"


def index_tables(path):
    connection = sqlite3.connect(path)
    try:
        return (connection.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall(),
                connection.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall(),
                connection.execute("SELECT * FROM SHARD_NAME").fetchall())
    finally:
        connection.close()


@pytest.mark.parametrize("name", NAMES)
def test_sporax_writes_the_bytes_mindspore_writes(name, tmp_path):
    oracle, ours = tmp_path / "oracle", tmp_path / "ours"
    oracle.mkdir()
    ours.mkdir()
    expected_files = scenarios.unpack_recorded(name, str(oracle))
    assert scenarios.write(FileWriter, str(ours), name) == expected_files
    for file in expected_files:
        if file.endswith(".db"):
            assert index_tables(str(ours / file)) == index_tables(str(oracle / file)), file
        else:
            assert (ours / file).read_bytes() == (oracle / file).read_bytes(), file


@pytest.mark.parametrize("name", [n for n in NAMES if n != "empty"])
def test_file_reader_reads_mindspore_files(name, tmp_path):
    scenarios.unpack_recorded(name, str(tmp_path))
    reader = FileReader(first_file(str(tmp_path), name))
    rows = [{k: scenarios.encode(v) for k, v in row.items()} for row in reader.get_next()]
    reader.close()
    assert rows == EXPECTED[name]["file_reader"]
    assert len(rows) == len(scenarios.expected_rows(name))


@pytest.mark.parametrize("name", [n for n in NAMES if n != "empty"])
def test_mind_dataset_reads_mindspore_files(name, tmp_path):
    scenarios.unpack_recorded(name, str(tmp_path))
    data = ds.MindDataset(first_file(str(tmp_path), name), shuffle=False)
    assert data.get_col_names() == EXPECTED[name]["columns"]
    rows = [{k: scenarios.encode(v) for k, v in row.items()}
            for row in data.create_dict_iterator(output_numpy=True, num_epochs=1)]
    assert rows == EXPECTED[name]["mind_dataset"]


def test_values_read_back_are_the_values_written(tmp_path):
    scenarios.unpack_recorded("every_type", str(tmp_path))
    rows = list(FileReader(str(tmp_path / "every_type.mindrecord")).get_next())
    for got, written in zip(rows, scenarios.expected_rows("every_type")):
        for key, value in written.items():
            if isinstance(value, np.ndarray):
                np.testing.assert_array_equal(got[key], value)
                assert got[key].dtype == value.dtype
            else:
                assert got[key] == value

"""Unshuffled file sources read their files as MindSpore 2.10's readers do, and pipeline operations
naming a missing column fail when the pipeline runs; recorded on MindSpore 2.10 (CPU, 2 cores).

MindSpore's TextFileDataset/CSVDataset (shuffle=False) sort the files, cut a shard's rows
(ceil(total / num_shards) consecutive rows, wrapping past the end) into one block per file, hand
block i to reader i % num_parallel_workers and take one row from each reader in turn.
"""
import numpy as np
import pytest

import sporax.dataset as ds

FILES = {"u0.txt": ["a1", "a2", "a3"], "u1.txt": ["b1", "b2"], "u2.txt": ["c1", "c2", "c3", "c4"],
         "u3.txt": ["d1"], "u4.txt": ["e1", "e2"]}

# (num_parallel_workers, extra arguments) -> MindSpore 2.10's lines
TEXT_ORDERS = [
    (1, {}, "a1 a2 a3 b1 b2 c1 c2 c3 c4 d1 e1 e2"),
    (2, {}, "a1 b1 a2 b2 a3 d1 c1 c2 c3 c4 e1 e2"),
    (1, {"num_shards": 3, "shard_id": 1}, "b2 c1 c2 c3"),
    (2, {"num_shards": 3, "shard_id": 1}, "b2 c1 c2 c3"),
    (2, {"num_samples": 6}, "a1 b1 a2 b2 a3 d1"),
    (1, {"num_samples": 6}, "a1 a2 a3 b1 b2 c1"),
    (2, {"num_samples": 3, "num_shards": 2, "shard_id": 1}, "c2 d1 c3"),
    (1, {"num_samples": 3, "num_shards": 2, "shard_id": 1}, "c2 c3 c4"),
    (2, {"num_shards": 5, "shard_id": 4}, "a1 a2 a3"),
]


@pytest.fixture
def text_files(tmp_path):
    for name, lines in FILES.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    return [str(tmp_path / name) for name in FILES]


def lines(dataset):
    return " ".join(str(row["text"]) for row in dataset.create_dict_iterator(output_numpy=True))


@pytest.mark.parametrize("workers,options,expected", TEXT_ORDERS)
def test_text_file_lines_in_mindspore_reader_order(text_files, workers, options, expected):
    data = ds.TextFileDataset(text_files, shuffle=False, num_parallel_workers=workers, **options)
    assert lines(data) == expected
    assert data.get_dataset_size() == len(expected.split())


def test_text_file_order_sorts_files_and_repeats(text_files):
    data = ds.TextFileDataset(text_files[::-1], shuffle=False, num_parallel_workers=2)
    assert lines(data) == "a1 b1 a2 b2 a3 d1 c1 c2 c3 c4 e1 e2"
    assert lines(data.repeat(2)) == " ".join(["a1 b1 a2 b2 a3 d1 c1 c2 c3 c4 e1 e2"] * 2)


def test_an_empty_file_takes_its_reader_turn(tmp_path):
    for name, text in {"v0.txt": "p1\np2\np3\n", "v1.txt": "", "v2.txt": "q1\nq2\n",
                       "v3.txt": "r1\nr2\n"}.items():
        (tmp_path / name).write_text(text)
    data = ds.TextFileDataset(sorted(str(p) for p in tmp_path.iterdir()), shuffle=False,
                              num_parallel_workers=2)
    assert lines(data) == "p1 r1 p2 r2 p3 q1 q2"


def test_csv_rows_in_mindspore_reader_order(tmp_path):
    for i, rows in enumerate([["1,a", "2,b", "3,c"], ["4,d"], ["5,e", "6,f"]]):
        (tmp_path / f"c{i}.csv").write_text("x,y\n" + "\n".join(rows) + "\n")
    files = [str(tmp_path / f"c{i}.csv") for i in (2, 0, 1)]

    def xs(**options):
        data = ds.CSVDataset(files, shuffle=False, **options)
        return [int(row["x"]) for row in data.create_dict_iterator(output_numpy=True)]
    assert xs(num_parallel_workers=1) == [1, 2, 3, 4, 5, 6]
    assert xs(num_parallel_workers=2) == [1, 4, 2, 3, 5, 6]
    assert xs(num_parallel_workers=2, num_shards=2, shard_id=1) == [4, 5, 6]


def one_column():
    return ds.NumpySlicesDataset({"a": [1, 2, 3, 4]}, shuffle=False)


# operation on a column 'b' the data lacks -> (MindSpore's get_dataset_size, or None where it raises)
MISSING = [
    ("map", lambda: one_column().map(lambda x: x, input_columns=["b"]), 4),
    ("project", lambda: one_column().project(["b"]), 4),
    ("rename", lambda: one_column().rename(["b"], ["c"]), 4),
    ("filter", lambda: one_column().filter(lambda x: True, input_columns=["b"]), None),
    ("batch", lambda: one_column().batch(2, input_columns=["b"], per_batch_map=lambda x, i: (x,)), 2),
]


@pytest.mark.parametrize("name,build,size", MISSING, ids=[case[0] for case in MISSING])
def test_missing_column_raises_runtime_error_when_run(name, build, size):
    data = build()  # MindSpore 2.10 builds the pipeline
    if size is None:
        with pytest.raises(RuntimeError, match="'b'"):
            data.get_dataset_size()
    else:
        assert data.get_dataset_size() == size
    with pytest.raises(RuntimeError, match=f"{name}: column 'b' given in .* does not exist"):
        data.create_dict_iterator()
    with pytest.raises(RuntimeError, match="'b'"):
        data.batch(2).get_col_names()  # a node built on top still builds, and raises when asked


def test_string_columns_report_plain_string_types():
    strings = ds.NumpySlicesDataset({"s": ["ab", "c"]}, shuffle=False)
    assert strings.output_types() == [np.dtype("<U")]
    assert strings.batch(2).output_types() == [np.dtype("<U")]
    raw = ds.NumpySlicesDataset({"s": np.array([b"ab", b"c"])}, shuffle=False)
    assert raw.output_types() == [np.dtype("S")]
    assert str(strings.output_types()[0]) == "<U0" and strings.output_shapes() == [[]]

"""Rows that come before a failing row reach the user before the error.

Measured against MindSpore 2.10 (same pipelines, a source or map function raising at row 37 of
100): MindSpore delivers rows 0-36 and then raises for generator and random-access sources and
for maps on threads or processes; after ``batch(8)`` it delivers the complete batches before the
failing row (never the partial one). sporax does the same, every time, independent of timing.
"""
import numpy as np
import pytest

import sporax.dataset as ds

FAILING_ROW = 37


def generate():
    for i in range(100):
        if i == FAILING_ROW:
            raise ValueError("bad row")
        yield (np.array(i),)


class RandomAccess:
    def __getitem__(self, index):
        if index == FAILING_ROW:
            raise ValueError("bad row")
        return (np.array(index),)

    def __len__(self):
        return 100


def fail_at_37(x):
    if int(x) == FAILING_ROW:
        raise ValueError("bad map")
    return x


def plus_1000(x):
    return x + 1000


def keep_all_but_fail_at_37(x):
    if int(x) == FAILING_ROW:
        raise ValueError("bad predicate")
    return True


def collect(dataset):
    """The rows delivered before the error, and the error."""
    rows = []
    with pytest.raises(RuntimeError) as info:
        for row in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True):
            rows.append(row[0].tolist())
    return rows, str(info.value)


def numbers():
    return ds.NumpySlicesDataset({"x": np.arange(100)}, shuffle=False)


SOURCES = {
    "generator": lambda: ds.GeneratorDataset(generate, ["x"]),
    "random_access_1_worker": lambda: ds.GeneratorDataset(RandomAccess(), ["x"], shuffle=False),
    "random_access_threads": lambda: ds.GeneratorDataset(
        RandomAccess(), ["x"], shuffle=False, num_parallel_workers=3, python_multiprocessing=False),
    "random_access_processes": lambda: ds.GeneratorDataset(
        RandomAccess(), ["x"], shuffle=False, num_parallel_workers=2, python_multiprocessing=True),
}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_source_failure_delivers_rows_before_it(name):
    rows, message = collect(SOURCES[name]())
    assert rows == list(range(FAILING_ROW))
    assert "37" in message and "bad row" in message


@pytest.mark.parametrize("workers, processes", [(1, False), (3, False), (2, True)])
def test_map_failure_delivers_rows_before_it(workers, processes):
    data = numbers().map(fail_at_37, "x", num_parallel_workers=workers,
                         python_multiprocessing=processes)
    rows, message = collect(data)
    assert rows == list(range(FAILING_ROW))
    assert "fail_at_37" in message and "row 37" in message and "bad map" in message


def test_fused_maps_pass_rows_before_the_failure_through_the_later_maps():
    # Threaded maps with the same worker count run fused in one task per block: the rows before
    # the failure still go through the map after the failing one.
    data = numbers().map(fail_at_37, "x", num_parallel_workers=2).map(
        plus_1000, "x", num_parallel_workers=2)
    rows, message = collect(data)
    assert rows == [i + 1000 for i in range(FAILING_ROW)]
    assert "row 37" in message


def test_map_other_columns_stay_with_their_rows():
    data = ds.NumpySlicesDataset({"x": np.arange(100), "y": -np.arange(100)}, shuffle=False)
    data = data.map(fail_at_37, "x", num_parallel_workers=2)
    kept = []
    with pytest.raises(RuntimeError, match="row 37"):
        for row in data.create_dict_iterator(num_epochs=1, output_numpy=True):
            kept.append((int(row["x"]), int(row["y"])))
    assert kept == [(i, -i) for i in range(FAILING_ROW)]


def test_filter_failure_delivers_rows_before_it():
    rows, message = collect(numbers().filter(keep_all_but_fail_at_37, ["x"]))
    assert rows == list(range(FAILING_ROW))
    assert "filter" in message and "37" in message


@pytest.mark.parametrize("drop_remainder", [False, True])
@pytest.mark.parametrize("make", ["generator", "map"])
def test_batch_delivers_complete_batches_before_the_failure(make, drop_remainder):
    source = SOURCES["generator"]() if make == "generator" else \
        numbers().map(fail_at_37, "x", num_parallel_workers=2)
    rows, _ = collect(source.batch(8, drop_remainder=drop_remainder))
    # Rows 32-36 form a partial batch: like MindSpore, it is not delivered.
    assert rows == [list(range(start, start + 8)) for start in range(0, 32, 8)]


def test_rows_before_error_with_small_prefetch_and_shuffled_reading():
    # A shuffled source: the rows read before the failing index are delivered in sampler order.
    ds.config.set_seed(3)
    previous = ds.config.get_prefetch_size()
    ds.config.set_prefetch_size(1)
    try:
        order = [row[0].tolist() for row in ds.GeneratorDataset(
            [(np.array(i),) for i in range(100)], ["x"], shuffle=True).create_tuple_iterator(
                num_epochs=1, output_numpy=True)]
        ds.config.set_seed(3)
        rows, _ = collect(ds.GeneratorDataset(RandomAccess(), ["x"], shuffle=True,
                                              num_parallel_workers=2, python_multiprocessing=False))
    finally:
        ds.config.set_prefetch_size(previous)
    assert rows == order[:order.index(FAILING_ROW)]


@pytest.mark.slow
def test_map_on_spawned_processes_delivers_rows_before_the_failure():
    previous = ds.config.get_multiprocessing_start_method()
    ds.config.set_multiprocessing_start_method("spawn")
    try:
        rows, message = collect(numbers().map(fail_at_37, "x", num_parallel_workers=2,
                                              python_multiprocessing=True))
    finally:
        ds.config.set_multiprocessing_start_method(previous)
    assert rows == list(range(FAILING_ROW))
    assert "row 37" in message

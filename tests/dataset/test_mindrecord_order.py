"""MindDataset's row order under a dataset seed: the orders MindSpore 2.10 printed, run for run.

Recorded on MindSpore 2.10 (CPU) with ``ds.config.set_seed(seed)`` reading MindRecord files of rows
{"id": i} (one file, or 20 rows over a 3-file set of 7/7/6 rows). Each list is one epoch of one
iterator; a new iterator starts again at the first epoch's order.
"""
import numpy as np
import pytest

import sporax.dataset as ds
from sporax.dataset.engine import mindrecord_order
from sporax.mindrecord import FileWriter


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """{"10": path, "37": path, "set": [3 paths]}: MindRecord files of rows id = 0, 1, ..."""
    folder = tmp_path_factory.mktemp("order")
    made = {}
    for n in (10, 37):
        path = str(folder / f"rows{n}.mindrecord")
        writer = FileWriter(path)
        writer.add_schema({"id": {"type": "int64"}}, "rows")
        writer.write_raw_data([{"id": i} for i in range(n)])
        writer.commit()
        made[str(n)] = path
    path = str(folder / "set.mindrecord")
    writer = FileWriter(path, shard_num=3)
    writer.add_schema({"id": {"type": "int64"}}, "rows")
    writer.write_raw_data([{"id": i} for i in range(20)])
    writer.commit()
    made["set"] = [path + str(k) for k in range(3)]
    return made


def epochs(dataset, count):
    it = dataset.create_tuple_iterator(num_epochs=count, output_numpy=True)
    return [[np.asarray(r[0]).tolist() for r in it] for _ in range(count)]


def test_global_shuffle_passes_and_new_iterators(files, seeded):
    seeded(0)
    data = ds.MindDataset(files["10"], columns_list=["id"], shuffle=True)
    first = [2, 7, 1, 6, 8, 0, 4, 9, 5, 3]
    assert epochs(data, 3) == [first, [5, 2, 8, 9, 7, 3, 4, 0, 1, 6], [9, 7, 4, 6, 8, 1, 3, 5, 0, 2]]
    assert epochs(data, 1) == [first]
    seeded(1)
    assert epochs(ds.MindDataset(files["10"], columns_list=["id"], shuffle=True), 2) == [
        [8, 0, 4, 7, 1, 9, 6, 5, 2, 3], [7, 1, 6, 3, 4, 2, 9, 8, 5, 0]]
    seeded(5)
    assert epochs(ds.MindDataset(files["37"], columns_list=["id"]), 1) == [
        [33, 35, 23, 20, 2, 31, 21, 0, 4, 29, 10, 5, 19, 11, 22, 9, 1, 26, 7, 30, 13, 18, 14, 32, 36, 25,
         15, 3, 16, 12, 24, 27, 34, 8, 28, 17, 6]]


def test_shuffle_levels_samplers_and_item_access(files, seeded):
    seeded(2)
    first = [3, 4, 6, 9, 2, 8, 5, 0, 7, 1]
    for level in (ds.Shuffle.GLOBAL, ds.Shuffle.ADAPTIVE, ds.Shuffle.PARTIAL):
        assert epochs(ds.MindDataset(files["10"], columns_list=["id"], shuffle=level), 1) == [first]
    data = ds.MindDataset(files["10"], columns_list=["id"], shuffle=True)
    assert [int(data[i][0]) for i in range(3)] == first[:3]
    order = [35, 20, 27, 21, 29, 9, 1, 22, 2, 24, 10, 12, 25, 23, 14, 8, 34, 15, 31, 3, 13, 7, 26, 5, 16, 30,
             28, 4, 32, 6, 36, 0, 11, 17, 19, 33, 18]
    assert epochs(ds.MindDataset(files["37"], columns_list=["id"], sampler=ds.RandomSampler()), 1) == [order]
    # num_samples keeps the first rows; later epochs shuffle only those.
    assert epochs(ds.MindDataset(files["37"], columns_list=["id"], sampler=ds.RandomSampler(num_samples=7)),
                  3) == [[35, 20, 27, 21, 29, 9, 1], [1, 35, 21, 20, 27, 29, 9], [21, 1, 20, 27, 9, 35, 29]]


def test_draws_with_replacement(files, seeded):
    # shuffle=True with num_samples draws with replacement; epoch 2 draws from epoch 1's rows.
    seeded(2)
    data = ds.MindDataset(files["37"], columns_list=["id"], shuffle=True, num_samples=7)
    assert epochs(data, 2) == [[20, 35, 8, 33, 2, 32, 0], [0, 35, 0, 20, 0, 20, 32]]
    assert epochs(ds.MindDataset(files["37"], columns_list=["id"],
                                 sampler=ds.RandomSampler(replacement=True, num_samples=7)), 1) == [
        [20, 35, 8, 33, 2, 32, 0]]
    seeded(7)
    assert epochs(ds.MindDataset(files["37"], columns_list=["id"], shuffle=True, num_samples=7), 2) == [
        [32, 0, 28, 6, 5, 28, 19], [32, 28, 0, 0, 28, 6, 28]]


def test_shards_shuffle_afresh_every_epoch(files, seeded):
    seeded(2)
    want = [[20, 29, 22, 10, 23, 34, 3, 26, 30, 32, 0, 19, 35], [35, 36, 16, 11, 3, 20, 0, 18, 28, 7, 27, 14, 6]]
    assert epochs(ds.MindDataset(files["37"], columns_list=["id"], shuffle=True, num_shards=3, shard_id=1),
                  2) == want
    assert epochs(ds.MindDataset(files["37"], columns_list=["id"], sampler=ds.DistributedSampler(3, 1)),
                  2) == want
    assert epochs(ds.MindDataset(files["37"], columns_list=["id"], shuffle=True, num_shards=3, shard_id=1,
                                 num_samples=5), 1) == [want[0][:5]]
    seeded(9)
    assert [epochs(ds.MindDataset(files["10"], columns_list=["id"], shuffle=True, num_shards=3, shard_id=k), 2)
            for k in range(3)] == [[[7, 3, 5, 9], [6, 5, 1, 8]], [[0, 6, 2, 7], [4, 3, 9, 6]],
                                   [[8, 1, 4, 0], [7, 2, 0, 4]]]


def test_file_sets(files, seeded):
    seeded(3)
    read = {level: epochs(ds.MindDataset(files["set"], columns_list=["id"], shuffle=level), 2)
            for level in (ds.Shuffle.GLOBAL, ds.Shuffle.FILES, ds.Shuffle.INFILE)}
    assert read[ds.Shuffle.GLOBAL] == [[19, 9, 12, 17, 1, 6, 13, 11, 2, 10, 14, 15, 16, 7, 18, 4, 3, 0, 8, 5],
                                       [7, 14, 13, 16, 17, 18, 3, 9, 6, 10, 12, 11, 8, 0, 4, 5, 19, 15, 1, 2]]
    # FILES moves runs of the previous epoch's order, so epoch 2's runs need not be whole files.
    assert read[ds.Shuffle.FILES] == [list(range(14, 20)) + list(range(14)), list(range(8, 20)) + list(range(8))]
    assert read[ds.Shuffle.INFILE] == [[6, 0, 3, 1, 2, 4, 5, 13, 7, 10, 8, 9, 11, 12, 19, 16, 17, 14, 15, 18],
                                       [3, 6, 1, 2, 5, 0, 4, 10, 13, 8, 9, 12, 7, 11, 16, 17, 19, 15, 14, 18]]
    seeded(2)
    assert epochs(ds.MindDataset(files["set"], columns_list=["id"], shuffle=ds.Shuffle.FILES, num_shards=2,
                                 shard_id=1), 1) == [[15, 17, 19, 1, 3, 5, 7, 9, 11, 13]]
    assert epochs(ds.MindDataset(files["set"], columns_list=["id"], shuffle=True, num_shards=2, shard_id=1),
                  1) == [[12, 9, 19, 10, 1, 17, 6, 18, 13, 8]]


def test_repeat_passes_continue_across_epochs(files, seeded):
    # Epoch 2 of repeat(3) reads passes 3-5 of the chain, for MindDataset and the samplers alike.
    seeded(2)
    data = ds.MindDataset(files["10"], columns_list=["id"], shuffle=True).repeat(3).batch(4)
    assert epochs(data, 2) == [
        [[3, 4, 6, 9], [2, 8, 5, 0], [7, 1, 8, 1], [9, 3, 4, 5], [0, 2, 6, 7], [2, 9, 0, 4], [3, 6, 8, 1], [5, 7]],
        [[9, 5, 1, 2], [6, 8, 0, 7], [4, 3, 5, 0], [8, 7, 9, 3], [4, 2, 6, 1], [9, 3, 6, 1], [4, 2, 7, 5], [0, 8]]]
    data = ds.NumpySlicesDataset(list(range(10)), shuffle=True).repeat(3).batch(4)
    assert epochs(data, 2) == [
        [[5, 0, 3, 1], [8, 4, 6, 2], [7, 9, 1, 0], [7, 4, 3, 6], [9, 2, 5, 8], [1, 2, 3, 7], [6, 4, 0, 8], [5, 9]],
        [[7, 5, 4, 3], [6, 0, 8, 2], [9, 1, 7, 8], [4, 1, 5, 3], [6, 9, 0, 2], [4, 9, 6, 0], [8, 3, 1, 7], [5, 2]]]


@pytest.mark.parametrize("seed, n, head, tail", [
    # 1000 rows: two swap positions per engine draw; 50000 rows (above sqrt(2**31)): one.
    (1234, 1000, [862, 729, 198, 380, 979, 399, 340, 134], [636, 483, 623, 188, 864]),
    (1, 50000, [6523, 41693, 27942, 29115, 7858, 35780, 37700, 44483], [27955, 49101, 17469, 35510, 18238]),
])
def test_large_orders(seed, n, head, tail):
    # head: epoch 1's first rows; tail: epoch 2's last rows (epoch 2 reshuffles epoch 1's order).
    chain = mindrecord_order.ReaderPasses()
    assert chain.chained(mindrecord_order.global_step(n), (seed, n), 0, range(n))[:8] == head
    second = chain.chained(mindrecord_order.global_step(n), (seed, n), 1, range(n))
    assert second[-5:] == tail and sorted(second) == list(range(n))

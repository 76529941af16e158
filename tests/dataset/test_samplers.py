"""Samplers: index order and counts recorded from MindSpore 2.10."""
import numpy as np
import pytest

import sporax.dataset as ds


def values(sampler, n=10):
    data = ds.NumpySlicesDataset(np.arange(n), sampler=sampler)
    return [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]


def test_sequential_subset_and_distributed():
    assert values(ds.SequentialSampler(2, 3)) == [2, 3, 4]
    assert values(ds.SubsetSampler([5, 1, 7])) == [5, 1, 7]
    assert values([5, 1, 7]) == [5, 1, 7]
    assert values(ds.DistributedSampler(3, 1, shuffle=False)) == [1, 4, 7, 0]
    assert values(ds.DistributedSampler(3, 1, shuffle=False, num_samples=2)) == [1, 4]
    assert sorted(values(ds.SubsetRandomSampler([1, 3, 5]))) == [1, 3, 5]


def test_random_samplers_counts():
    size = lambda sampler, n=10: ds.NumpySlicesDataset(np.arange(n), sampler=sampler).get_dataset_size()  # noqa: E731
    assert size(ds.RandomSampler(True, 20)) == 10
    assert size(ds.RandomSampler(False, 20)) == 10
    assert size(ds.RandomSampler(True, 5)) == 5
    assert sorted(values(ds.RandomSampler())) == list(range(10))
    drawn = values(ds.RandomSampler(replacement=True), 10)
    assert len(drawn) == 10 and set(drawn) <= set(range(10))
    assert size(ds.WeightedRandomSampler([0, 0, 1, 0], 5), 4) == 4
    assert values(ds.WeightedRandomSampler([0, 0, 1, 0], 5), 4) == [2, 2, 2, 2]


def test_child_sampler_samples_the_child_output():
    parent = ds.DistributedSampler(2, 0, shuffle=False)
    parent.add_child(ds.SequentialSampler(1, 5))
    assert values(parent) == [1, 3, 5]


def test_user_sampler_and_pk_sampler():
    class EveryThird(ds.Sampler):
        def __iter__(self):
            return iter(range(0, self.dataset_size, 3))
    assert values(EveryThird()) == [0, 3, 6, 9]
    # MindSpore 2.10 refuses a PKSampler on a GeneratorDataset (and NumpySlicesDataset), even with a label
    # column: ValueError "GeneratorDataset doesn't support PKSampler." (sporax raised RuntimeError when run)
    with pytest.raises(ValueError, match="^GeneratorDataset doesn't support PKSampler"):
        ds.NumpySlicesDataset({"x": np.arange(7), "label": np.arange(7) % 3}, sampler=ds.PKSampler(2))
    with pytest.raises(ValueError, match="^GeneratorDataset doesn't support PKSampler"):
        ds.GeneratorDataset([(i, i % 2) for i in range(6)], ["x", "label"], sampler=ds.PKSampler(2))


def test_sampler_argument_conflicts():
    with pytest.raises(ValueError, match="Conflicting"):
        ds.NumpySlicesDataset(np.arange(4), sampler=ds.SequentialSampler(), shuffle=True)
    with pytest.raises(ValueError, match="Conflicting"):
        ds.NumpySlicesDataset(np.arange(4), sampler=ds.SequentialSampler(), num_shards=2, shard_id=0)
    with pytest.raises(ValueError, match="together"):
        ds.NumpySlicesDataset(np.arange(4), shard_id=0)
    with pytest.raises(ValueError, match="less than"):
        ds.NumpySlicesDataset(np.arange(4), num_shards=2, shard_id=2)
    # MindSpore 2.10 builds the sampler and raises when the pipeline runs or is sized
    too_far = ds.NumpySlicesDataset(np.arange(4), sampler=ds.DistributedSampler(2, 0, offset=3))
    with pytest.raises(RuntimeError, match="offset must be no more than num_shards"):
        too_far.get_dataset_size()


def shard_rows(n, num_shards, offset, shuffle=False, num_samples=None):
    return [values(ds.DistributedSampler(num_shards, i, shuffle=shuffle, num_samples=num_samples, offset=offset), n)
            for i in range(num_shards)]


def test_distributed_sampler_offset_as_mindspore():
    # Recorded from MindSpore 2.10 (sporax raised NotImplementedError for any offset): no padding,
    # shard d reads the positions p with (p + offset) % num_shards == d.
    assert shard_rows(10, 3, 2) == [[1, 4, 7], [2, 5, 8], [0, 3, 6, 9]]
    assert shard_rows(10, 3, 0) == [[0, 3, 6, 9], [1, 4, 7], [2, 5, 8]]
    assert shard_rows(10, 4, 3) == [[1, 5, 9], [2, 6], [3, 7], [0, 4, 8]]
    assert shard_rows(10, 3, 1, num_samples=2) == [[2, 5], [0, 3], [1, 4]]
    ds.config.set_seed(5)
    assert shard_rows(10, 3, 1, shuffle=True) == [[2, 3, 5], [0, 9, 4, 7], [6, 1, 8]]
    sizes = [ds.NumpySlicesDataset(np.arange(10), sampler=ds.DistributedSampler(3, i, shuffle=False, offset=1))
             .get_dataset_size() for i in range(3)]
    assert sizes == [3, 4, 3]


@pytest.mark.parametrize("sampler, message", [
    (lambda: ds.SubsetSampler([-1, 2]), r"Sample ID \(-1\) is out of bound, expected range \[0, 9\]"),
    (lambda: ds.SubsetRandomSampler([-1, 2]), r"Sample ID \(-1\) is out of bound"),
    (lambda: ds.SequentialSampler(10, 4), "start_index must be less than num_rows, but got start_index: 10"),
    (lambda: ds.WeightedRandomSampler([-1, 1], 2), "must not contain negative numbers"),
    (lambda: ds.WeightedRandomSampler([0, 0], 2), "must not be all zero"),
    (lambda: ds.DistributedSampler(3, 3), r"shard_id must be in range \[0, 3\), but got: 3"),
], ids=["subset-negative", "subset-random-negative", "sequential-start", "weighted-negative", "weighted-zero",
        "distributed-shard-id"])
def test_invalid_sampler_values_fail_when_run_as_mindspore(sampler, message):
    # MindSpore 2.10 builds these samplers and raises RuntimeError when the pipeline runs (sporax read
    # index -1 as the last row, yielded no rows for start_index 10, or raised ValueError at construction)
    data = ds.NumpySlicesDataset(np.arange(10), sampler=sampler())
    with pytest.raises(RuntimeError, match=message):
        [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]


class _UserSampler:
    """A user's sampler class, not derived from ds.Sampler: only __iter__ and __len__."""

    def __iter__(self):
        return iter([2, 0, 1])

    def __len__(self):
        return 3


@pytest.mark.parametrize("source", ["slices", "generator"])
@pytest.mark.parametrize("sampler", [_UserSampler, lambda: [2, 0, 1], lambda: iter([2, 0, 1])])
def test_a_user_sampler_decides_order_and_sharding_itself(source, sampler):
    # MindSpore 2.10: shuffle and num_shards are ignored beside a user's sampler, num_samples caps it.
    def rows(**kwargs):
        if source == "slices":
            data = ds.NumpySlicesDataset({"x": np.arange(3)}, sampler=sampler(), **kwargs)
        else:
            data = ds.GeneratorDataset([(np.array(i),) for i in range(3)], ["x"], sampler=sampler(), **kwargs)
        return [int(r["x"]) for r in data.create_dict_iterator(output_numpy=True)]

    assert rows(shuffle=False) == [2, 0, 1]
    assert rows(shuffle=True) == [2, 0, 1]
    assert rows(num_shards=2, shard_id=0) == [2, 0, 1]
    assert rows(num_samples=2) == [2, 0]


def test_a_dataset_sampler_beside_shuffle_still_conflicts():
    class Mine(ds.Sampler):
        def __iter__(self):
            return iter([1, 0])

    with pytest.raises(ValueError, match="Conflicting arguments during sampler assignments"):
        ds.NumpySlicesDataset(np.arange(3), sampler=Mine(), shuffle=False)


def _rows(dataset):
    return [int(row[0]) for row in dataset.create_tuple_iterator(output_numpy=True)]


def test_use_sampler_and_add_sampler():
    # Rows recorded from MindSpore 2.10.
    dataset = ds.GeneratorDataset(list(range(10)), "c", sampler=ds.SequentialSampler(1, 6))
    dataset.use_sampler(ds.SequentialSampler(2, 3))
    assert _rows(dataset) == [2, 3, 4]
    dataset = ds.GeneratorDataset(list(range(10)), "c", sampler=ds.SequentialSampler(1, 6))
    dataset.add_sampler(ds.SequentialSampler(2, 3))
    assert _rows(dataset) == [3, 4, 5]
    dataset = ds.NumpySlicesDataset(list(range(10)), "c", shuffle=False)
    dataset.add_sampler(ds.SequentialSampler(2, 5))
    assert _rows(dataset) == [2, 3, 4, 5, 6]
    with pytest.raises(TypeError, match="can not be None"):
        dataset.use_sampler(None)
    with pytest.raises(TypeError, match="built-in dataset sampler"):
        dataset.add_sampler(3)

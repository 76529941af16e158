"""mindspore.dataset.dataloader (DataLoader, Dataset, samplers, collation) against MindSpore 2.10's recorded results."""
import numpy as np
import pytest

import sporax as ms
from sporax.dataset.dataloader import (
    BatchSampler, DataLoader, Dataset, DistributedSampler, IterableDataset, RandomSampler, SequentialSampler,
    TensorDataset, default_collate, default_convert, get_worker_info,
)
from sporax.dataset.dataloader.collation import collate


class Pairs(Dataset):
    """Item i is (float32 [i, 2i], i)."""

    def __init__(self, size):
        self.size = size

    def __getitem__(self, index):
        return np.array([index, index * 2], np.float32), index

    def __len__(self):
        return self.size


class Split(IterableDataset):
    """range(size), split between the DataLoader's workers by get_worker_info()."""

    def __init__(self, size):
        self.size = size

    def __iter__(self):
        worker = get_worker_info()
        return iter(range(self.size) if worker is None else range(worker.id, self.size, worker.num_workers))

    def __len__(self):
        return self.size


def _lists(batches, column=None):
    return [(batch if column is None else batch[column]).asnumpy().tolist() for batch in batches]


# (DataLoader of (dataset, kwargs), MindSpore 2.10's batches of the label column / of the stream)
LOADED = [
    (lambda: DataLoader(Pairs(10), batch_size=4, shuffle=True, generator=np.random.default_rng(7)), 1,
     [[8, 0, 7, 1], [3, 6, 2, 4], [5, 9]]),
    (lambda: DataLoader(Pairs(10), batch_size=4, drop_last=True), 1, [[0, 1, 2, 3], [4, 5, 6, 7]]),
    (lambda: DataLoader(Pairs(6), batch_size=4, num_workers=2), 1, [[0, 1, 2, 3], [4, 5]]),
    (lambda: DataLoader(Pairs(5), batch_sampler=[[0, 1], [4]]), 1, [[0, 1], [4]]),
    (lambda: DataLoader(Pairs(6), batch_size=2, sampler=DistributedSampler(Pairs(6), num_replicas=2, rank=1, seed=4)),
     1, [[2, 5], [3]]),
    (lambda: DataLoader(Split(7), batch_size=2, num_workers=2), None, [[0, 2], [1, 3], [4, 6], [5]]),
    (lambda: DataLoader(Split(7), batch_size=2, num_workers=3, drop_last=True), None, [[0, 3], [1, 4], [2, 5]]),
    (lambda: DataLoader(Split(7), batch_size=3), None, [[0, 1, 2], [3, 4, 5], [6]]),
    (lambda: DataLoader(Split(7), batch_size=3, drop_last=True), None, [[0, 1, 2], [3, 4, 5]]),
]


@pytest.mark.parametrize("make, column, expected", LOADED)
def test_dataloader_batches_as_mindspore(make, column, expected):
    assert _lists(make(), column) == expected


def test_dataloader_batch_layout_and_lengths():
    features, labels = next(iter(DataLoader(Pairs(10), batch_size=4)))
    assert (features.dtype, labels.dtype) == (ms.float32, ms.int64)
    np.testing.assert_array_equal(features.asnumpy(), [[0, 0], [1, 2], [2, 4], [3, 6]])
    assert (len(DataLoader(Pairs(10), batch_size=4)), len(DataLoader(Pairs(10), batch_size=4, drop_last=True))) == (3, 2)
    assert (len(DataLoader(Split(7), batch_size=3)), len(DataLoader(Split(7), batch_size=3, drop_last=True))) == (3, 2)
    unbatched = list(DataLoader(Pairs(2), batch_size=None))  # default_convert: the tuple becomes a list
    assert isinstance(unbatched[1], list) and unbatched[1][1] == 1 and unbatched[1][0].asnumpy().tolist() == [1, 2]
    assert list(DataLoader(Pairs(1), collate_fn=lambda batch: batch))[0][0][1] == 0


def test_shuffle_with_workers_draws_the_worker_seed_first():
    """MindSpore 2.10: with workers the base seed is drawn from the generator before the permutation."""
    def epochs(**kwargs):
        loader = DataLoader(Pairs(8), batch_size=3, shuffle=True, generator=np.random.default_rng(11), **kwargs)
        return [_lists(loader, 1) for _ in range(2)]
    assert epochs(num_workers=2) == [[[5, 6, 1], [0, 3, 4], [2, 7]], [[1, 2, 0], [7, 5, 6], [3, 4]]]
    assert epochs(num_workers=2, persistent_workers=True) == [[[5, 6, 1], [0, 3, 4], [2, 7]],
                                                              [[7, 2, 6], [1, 5, 3], [0, 4]]]
    assert epochs() == [[[3, 1, 7], [5, 4, 2], [0, 6]], [[7, 2, 6], [1, 5, 3], [0, 4]]]


def test_workers_see_their_worker_info_and_errors_name_the_worker():
    seen = []
    loader = DataLoader(Pairs(4), num_workers=2, worker_init_fn=lambda wid: seen.append(
        (wid, get_worker_info().id, get_worker_info().num_workers)))
    assert len(list(loader)) == 4 and seen == [(0, 0, 2), (1, 1, 2)] and get_worker_info() is None

    class Failing(Pairs):
        def __getitem__(self, index):
            raise KeyError("nope")
    with pytest.raises(RuntimeError, match=r"DataLoader worker 0 \(pid: \d+\) caught KeyError with message"):
        list(DataLoader(Failing(3), num_workers=1))
    with pytest.raises(KeyError, match="nope"):  # without workers the error is the dataset's own
        list(DataLoader(Failing(3)))


def test_samplers_as_mindspore():
    assert list(RandomSampler(list(range(10)), generator=np.random.default_rng(3))) == [9, 6, 0, 2, 1, 4, 7, 5, 3, 8]
    assert list(RandomSampler(list(range(5)), replacement=True, num_samples=40, generator=np.random.default_rng(3))) == [
        4, 0, 0, 1, 0, 4, 4, 2, 0, 0, 1, 2, 3, 2, 1, 0, 3, 3, 0, 0, 2, 1, 4, 2, 2, 2, 3, 2, 0, 3, 3, 4, 3, 1, 1, 3, 3,
        3, 4, 1]
    assert list(RandomSampler(list(range(4)), num_samples=10, generator=np.random.default_rng(3))) == [
        3, 2, 1, 0, 3, 1, 0, 2, 3, 1]
    np.random.seed(5)  # without a generator the sampler seeds itself from numpy.random
    assert list(RandomSampler(list(range(6)))) == [0, 5, 4, 3, 2, 1]
    sampler = DistributedSampler(list(range(10)), num_replicas=3, rank=1)
    assert (list(sampler), len(sampler)) == ([6, 3, 0, 4], 4)
    sampler.set_epoch(2)
    assert list(sampler) == [0, 9, 4, 2]
    sampler = DistributedSampler(list(range(10)), num_replicas=3, rank=2, shuffle=False, drop_last=True)
    assert (list(sampler), len(sampler)) == ([2, 5, 8], 3)
    alone = DistributedSampler(list(range(10)))  # no process group: world size 1, rank 0
    assert (alone.num_replicas, alone.rank, list(alone)) == (1, 0, [4, 6, 2, 7, 3, 5, 9, 0, 8, 1])
    sequential = SequentialSampler(list(range(10)))
    assert list(BatchSampler(sequential, 4, False)) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert list(BatchSampler(sequential, 4, True)) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_collate_and_convert_as_mindspore():
    assert repr(default_collate([0, 1, 2])) == "Tensor(shape=[3], dtype=Int64, value= [0, 1, 2])"
    assert repr(default_collate([{"data": 0, "label": 2}, {"data": 1, "label": 3}])) == (
        "{'data': Tensor(shape=[2], dtype=Int64, value= [0, 1]), 'label': Tensor(shape=[2], dtype=Int64, value= [2, 3])}")
    assert [t.asnumpy().tolist() for t in default_collate([(0, 3), (1, 4), (2, 5)])] == [[0, 1, 2], [3, 4, 5]]
    assert default_collate([1.5, 2.5]).dtype == ms.float64
    assert default_collate([np.float32(1.5), np.float32(2.5)]).dtype == ms.float32
    assert repr(default_collate([True, False])) == "Tensor(shape=[2], dtype=Bool, value= [ True, False])"
    assert default_collate(["a", "b"]) == ["a", "b"]
    assert repr(default_convert({"data": np.array([0, 1, 2])})) == (
        "{'data': Tensor(shape=[3], dtype=Int64, value= [0, 1, 2])}")
    assert default_convert(np.array(["text"])).tolist() == ["text"]
    converted = default_convert((np.array([1.0]), 3))
    assert isinstance(converted, list) and converted[1] == 3 and converted[0].dtype == ms.float64
    assert repr(collate([(0, 3), (1, 4)], collate_fn_map={int: lambda batch, *, collate_fn_map: ms.tensor(batch)})) == (
        "[Tensor(shape=[2], dtype=Int64, value= [0, 1]), Tensor(shape=[2], dtype=Int64, value= [3, 4])]")
    rows = list(TensorDataset(ms.Tensor([0, 1], dtype=ms.int32), ms.Tensor([2, 3], dtype=ms.int32)))
    assert repr(rows[1]) == "(Tensor(shape=[], dtype=Int32, value= 1), Tensor(shape=[], dtype=Int32, value= 3))"


# (call, MindSpore 2.10's exception type and message)
BAD = [
    (lambda: DataLoader(Pairs(3), batch_size=0), ValueError, "batch_size must be positive, but got: 0."),
    (lambda: DataLoader(Pairs(3), batch_size=True), TypeError, "batch_size must be <class 'int'>, but got: bool."),
    (lambda: DataLoader(Pairs(3), shuffle=1), TypeError, "shuffle must be <class 'bool'>, but got: int."),
    (lambda: DataLoader(Pairs(3), num_workers=-1), ValueError, "num_workers must be non-negative, but got: -1."),
    (lambda: DataLoader(Pairs(3), sampler=[0], shuffle=True), ValueError, "sampler cannot be specified with shuffle."),
    (lambda: DataLoader(Pairs(3), batch_sampler=[[0]], batch_size=2), ValueError,
     "batch_size cannot be specified with batch_sampler."),
    (lambda: DataLoader(Pairs(3), prefetch_factor=2), ValueError,
     "prefetch_factor must only be specified when num_workers is greater than 0, but got: 0."),
    (lambda: DataLoader(Pairs(3), generator=3), TypeError,
     "generator must be <class 'numpy.random._generator.Generator'>, but got: int."),
    (lambda: DataLoader(Pairs(3), persistent_workers=True), ValueError,
     "persistent_workers must only be specified when num_workers is greater than 0, but got: 0."),
    (lambda: DataLoader(Split(3), shuffle=True), ValueError, "shuffle cannot be specified when dataset is iterable style."),
    (lambda: DataLoader(object()), NotImplementedError, "object should implement __getitem__ method if it is map style."),
    (lambda: BatchSampler([0, 1], 0, False), ValueError, "batch_size must be positive, but got: 0."),
    (lambda: RandomSampler([0], generator=3), TypeError, "generator must be numpy.random.Generator, but got: int"),
    (lambda: TensorDataset(ms.Tensor([1, 2]), ms.Tensor([1])), ValueError,
     "All tensors must have the same size in the first dimension."),
    (lambda: default_collate([object()]), TypeError,
     "Cannot find the appropriate collate function for type <class 'object'> in collate_fn_map."),
    (lambda: default_collate([[1, 2], [1]]), RuntimeError, "Each element in list of batch must be of equal size."),
    (lambda: default_collate([np.array(["a"])]), TypeError, "NumPy arrays with dtype <U1 are not supported for collation."),
    (lambda: Dataset()[0], NotImplementedError, "Dataset must implement __getitem__ method."),
]


@pytest.mark.parametrize("call, error, message", BAD)
def test_bad_arguments_raise_as_mindspore(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message

"""DatasetCache: an in-process cache with MindSpore's constructor, errors and observable effects.

Error texts in ORACLE_ERRORS were recorded from MindSpore 2.10 (its DatasetCache validation and
its cache validation pass, which runs before it contacts the cache server).
"""
import os

import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.vision as vision

DATA = os.path.join(os.path.dirname(__file__), "..", "fixtures", "dataset_serdes", "data")
MNIST = os.path.join(DATA, "mnist")
IMAGES = os.path.join(DATA, "images")


class Counting:
    """A deterministic map function that counts its calls."""

    def __init__(self, width=1):
        self.calls = 0
        self.width = width

    def __call__(self, image):
        self.calls += 1
        value = image.astype(np.float64).sum()
        return np.full((self.width,), value)


def epochs(dataset, count=3):
    iterator = dataset.create_tuple_iterator(num_epochs=count, output_numpy=True)
    return [[[np.array(column) for column in row] for row in iterator] for _ in range(count)]


def same(first, second):
    assert len(first) == len(second)
    for epoch_a, epoch_b in zip(first, second):
        assert len(epoch_a) == len(epoch_b)
        for row_a, row_b in zip(epoch_a, epoch_b):
            for a, b in zip(row_a, row_b):
                np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("shuffle", [False, True])
def test_cached_map_gives_the_same_rows_and_runs_its_function_once_per_row(shuffle):
    ds.config.set_seed(3)
    plain_pipeline = ds.MnistDataset(MNIST, usage="train", shuffle=shuffle).map(Counting(), "image")
    plain = epochs(plain_pipeline)
    ds.config.set_seed(3)
    function, cache = Counting(), ds.DatasetCache(session_id=1)
    cached = ds.MnistDataset(MNIST, usage="train", shuffle=shuffle).map(function, "image", cache=cache)
    same(epochs(cached), plain)
    assert function.calls == 12  # epoch 1 filled the cache; epochs 2 and 3 read it
    assert cache.get_stat().num_mem_cached == 12
    # A new iterator over the same pipeline (its epochs continue: 4th order) reads the cache too.
    same(epochs(cached, 1), epochs(plain_pipeline, 1))
    assert function.calls == 12


def test_cached_source_reads_each_row_once():
    cache = ds.DatasetCache(session_id=2)
    data = ds.ImageFolderDataset(IMAGES, shuffle=True, cache=cache)
    reads = []
    original = data._read

    def counting_read(indices):
        reads.extend(int(i) for i in indices)
        return original(indices)

    data._read = counting_read
    ds.config.set_seed(5)
    cached = epochs(data.map(vision.Decode(), "image"))
    ds.config.set_seed(5)
    plain = epochs(ds.ImageFolderDataset(IMAGES, shuffle=True).map(vision.Decode(), "image"))
    same(cached, plain)
    assert sorted(reads) == list(range(6))


def test_two_pipelines_sharing_a_cache_keep_their_own_rows():
    cache = ds.DatasetCache(session_id=3)
    double = ds.MnistDataset(MNIST, shuffle=False).map(lambda x: x * 2, "image", cache=cache)
    triple = ds.MnistDataset(MNIST, shuffle=False).map(lambda x: x * 3, "image", cache=cache)
    first, second = epochs(double, 2), epochs(triple, 2)
    assert not np.array_equal(first[1][0][0], second[1][0][0])


def test_size_limit_recomputes_what_does_not_fit_unless_spilling():
    row_bytes = 8 * 32000  # each mapped row is 256000 bytes, 256004 with its label: four fit in 1 MiB
    function, cache = Counting(row_bytes // 8), ds.DatasetCache(session_id=4, size=1)
    plain = epochs(ds.MnistDataset(MNIST, usage="train", shuffle=False).map(Counting(row_bytes // 8), "image"))
    same(epochs(ds.MnistDataset(MNIST, usage="train", shuffle=False).map(function, "image", cache=cache)), plain)
    assert cache.get_stat().num_mem_cached == 4 and cache.get_stat().num_disk_cached == 0
    assert function.calls == 12 + 2 * 8

    function, cache = Counting(row_bytes // 8), ds.DatasetCache(session_id=5, size=1, spilling=True)
    same(epochs(ds.MnistDataset(MNIST, usage="train", shuffle=False).map(function, "image", cache=cache)), plain)
    stat = cache.get_stat()
    assert (stat.num_mem_cached, stat.num_disk_cached, function.calls) == (4, 8, 12)
    assert stat.avg_cache_sz == row_bytes + 4  # the mapped image and the uint32 label


ORACLE_ERRORS = [
    (dict(session_id=-1), ValueError, "Input session_id is not within the required interval of [1, 4294967295]."),
    (dict(session_id=1.5), TypeError, "Argument session_id with value 1.5 is not of type [<class 'int'>], but got <class 'float'>."),
    (dict(session_id=2 ** 32), ValueError, "Input session_id is not within the required interval of [1, 4294967295]."),
    (dict(session_id=True), TypeError, "Argument session_id with value True is not of type (<class 'int'>,), but got <class 'bool'>."),
    (dict(session_id=1, size=-1), ValueError, "Input size must be greater than 0."),
    (dict(session_id=1, size=1.0), TypeError, "Argument size with value 1.0 is not of type [<class 'int'>], but got <class 'float'>."),
    (dict(session_id=1, spilling=1), TypeError, "Argument spilling with value 1 is not of type [<class 'bool'>], but got <class 'int'>."),
    (dict(session_id=1, hostname=3), TypeError, "Argument hostname with value 3 is not of type [<class 'str'>], but got <class 'int'>."),
    (dict(session_id=1, port=80), ValueError, "Input port is not within the required interval of [1025, 65535]."),
    (dict(session_id=1, port="1"), TypeError, "Argument port with value 1 is not of type [<class 'int'>], but got <class 'str'>."),
    (dict(session_id=1, num_connections=0), ValueError, "Input num_connections is not within the required interval of [1, 2147483647]."),
    (dict(session_id=1, prefetch_size=2 ** 31), ValueError, "Input prefetch_size is not within the required interval of [1, 2147483647]."),
]


@pytest.mark.parametrize("arguments, error, message", ORACLE_ERRORS)
def test_constructor_errors_match_mindspore(arguments, error, message):
    with pytest.raises(error) as info:
        ds.DatasetCache(**arguments)
    assert str(info.value) == message


def test_arguments_are_kept_and_get_stat_needs_a_run():
    cache = ds.DatasetCache(7, size=3, spilling=True, hostname="127.0.0.1", port=50052,
                            num_connections=4, prefetch_size=8)
    assert (cache.session_id, cache.size, cache.spilling, cache.hostname, cache.port,
            cache.num_connections, cache.prefetch_size) == (7, 3, True, "127.0.0.1", 50052, 4, 8)
    with pytest.raises(RuntimeError, match="GetStat called but the cache is not in use yet"):
        cache.get_stat()
    with pytest.raises(TypeError, match="Argument cache with value 1 is not of type"):
        ds.MnistDataset(MNIST, cache=1)
    with pytest.raises(TypeError, match="Argument cache with value x is not of type"):
        ds.MnistDataset(MNIST).map(lambda x: x, cache="x")


PIPELINES_UNDER_CACHE = [
    (lambda c: ds.ImageFolderDataset(IMAGES).map([vision.Decode(), vision.RandomHorizontalFlip()], cache=c),
     "MapNode containing random operation is not supported as a descendant of cache."),
    (lambda c: ds.ImageFolderDataset(IMAGES).repeat(2).map(vision.Decode(), cache=c),
     "A cache over a RepeatNode of a mappable dataset is not supported."),
    (lambda c: ds.MnistDataset(MNIST).batch(2).map(lambda x: x, cache=c),
     "BatchNode is not supported as a descendant operator under a cache."),
    (lambda c: ds.ImageFolderDataset(IMAGES).take(2).map(vision.Decode(), cache=c),
     "TakeNode (possibly from Split) is not supported as a descendant operator under a cache."),
    (lambda c: ds.ImageFolderDataset(IMAGES).skip(2).map(vision.Decode(), cache=c),
     "SkipNode is not supported as a descendant operator under a cache."),
    (lambda c: ds.ImageFolderDataset(IMAGES).filter(lambda label: True, ["label"]).map(vision.Decode(), cache=c),
     "FilterNode is not supported as a descendant operator under a cache."),
    (lambda c: ds.ImageFolderDataset(IMAGES, cache=c).map(vision.Decode(), cache=c),
     "Nested cache operations over ImageFolderDataset is not supported."),
    (lambda c: ds.NumpySlicesDataset([1, 2], shuffle=False).map(lambda x: x, cache=c),
     "There is currently no support for GeneratorOp under cache."),
]


@pytest.mark.parametrize("make, message", PIPELINES_UNDER_CACHE)
def test_operations_mindspore_refuses_under_a_cache(make, message):
    with pytest.raises(RuntimeError) as info:
        list(make(ds.DatasetCache(9)).create_tuple_iterator(num_epochs=1))
    assert message in str(info.value)


def test_cache_is_written_to_and_read_from_json():
    cache = ds.DatasetCache(11, size=2, spilling=True)
    data = ds.MnistDataset(MNIST, shuffle=False).map(Counting(), "image", cache=cache)
    written = ds.serialize(data)
    assert written["cache"] == {"cache_memory_size": 2, "cache_prefetch_size": 20,
                                "hostname": "127.0.0.1", "num_connections": 12, "port": 50052,
                                "session_id": 11, "spill": True}
    source = ds.serialize(ds.MnistDataset(MNIST, shuffle=False, cache=cache))
    rebuilt = ds.deserialize(input_dict=source)
    assert rebuilt.cache.session_id == 11 and rebuilt.cache.spilling


def test_a_row_that_does_not_fit_stops_the_caching():
    """MindSpore's server stops caching once a row does not fit (its log: 'will not cache any
    more data'); later, smaller rows are not cached either."""
    calls = []

    def first_row_big(image):
        calls.append(1)
        return np.zeros(300000 if len(calls) == 1 else 1)  # 2.4 MB, then 8 bytes

    cache = ds.DatasetCache(session_id=12, size=1)
    data = ds.MnistDataset(MNIST, usage="train", shuffle=False).map(first_row_big, "image", cache=cache)
    epochs(data, 2)
    assert cache.get_stat().num_mem_cached == 0 and len(calls) == 24

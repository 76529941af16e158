"""RandomSampler's row order under a dataset seed: the orders MindSpore 2.10 printed, run for run.

Recorded on MindSpore 2.10 (CPU) with ``ds.config.set_seed(seed)``; the tutorial pages shuffle small
GeneratorDatasets this way, so their losses depend on this order.
"""
import numpy as np
import pytest

import sporax.dataset as ds


def rows(dataset, **kwargs):
    return [int(r[0]) for r in dataset.create_tuple_iterator(output_numpy=True, **kwargs)]


def generator(n, **kwargs):
    return ds.GeneratorDataset([(np.array(i),) for i in range(n)], column_names=["x"], **kwargs)


def test_passes_of_one_iterator_and_new_iterators(seeded):
    seeded(1)
    data = generator(10, shuffle=True)
    first = [9, 0, 2, 5, 7, 4, 6, 3, 1, 8]
    # Each new iterator starts again at the first pass, as MindSpore's does.
    assert rows(data) == first
    assert rows(data) == first
    epochs = data.create_tuple_iterator(num_epochs=3, output_numpy=True)
    assert [[int(r[0]) for r in epochs] for _ in range(3)] == [
        first, [4, 9, 5, 0, 1, 7, 6, 2, 3, 8], [0, 9, 3, 7, 5, 6, 8, 2, 4, 1]]
    assert [list(map(int, b[0])) for b in generator(10, shuffle=True).batch(3).create_tuple_iterator(
        output_numpy=True)] == [[9, 0, 2], [5, 7, 4], [6, 3, 1], [8]]
    assert rows(ds.NumpySlicesDataset(list(range(10)), column_names=["x"], shuffle=True)) == first
    assert rows(generator(10, sampler=ds.RandomSampler())) == first
    assert rows(generator(7, shuffle=True)) == [1, 0, 6, 3, 5, 4, 2]


def test_other_seeds_and_sizes(seeded):
    seeded(3)
    assert rows(generator(10, shuffle=True)) == [3, 1, 8, 5, 2, 6, 9, 7, 0, 4]
    seeded(0)
    assert rows(generator(10, shuffle=True)) == [0, 2, 1, 5, 9, 8, 4, 7, 6, 3]
    it = generator(160, shuffle=True).create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [int(r[0]) for r in it][:10] == [27, 121, 136, 53, 56, 105, 89, 157, 26, 34]
    assert [int(r[0]) for r in it][:10] == [6, 118, 49, 91, 87, 37, 21, 88, 8, 122]


@pytest.mark.parametrize("seed, n, head, tail, checksum", [
    # Up to 65535 rows GCC's shuffle draws two swap positions per draw; above, one.
    (7, 50000, [8650, 48849, 39642, 5878, 33856, 17003, 42287, 39867], [27139, 46785, 39712, 27507],
     25042803720),
    (2, 70000, [11080, 18031, 56653, 6132, 33646, 6278, 5128, 14384], [6700, 44739, 12157, 12516],
     34931337403),
])
def test_large_permutations(seeded, seed, n, head, tail, checksum):
    seeded(seed)
    order = np.array(rows(ds.NumpySlicesDataset(np.arange(n), column_names=["x"], shuffle=True)))
    assert order[:8].tolist() == head and order[-4:].tolist() == tail
    assert int((order * np.arange(n) % 1000003).sum()) == checksum


def test_shuffle_with_num_samples_draws_with_replacement(seeded):
    # MindSpore: shuffle plus num_samples is RandomSampler(replacement=True, num_samples=...).
    seeded(1)
    assert rows(generator(10, shuffle=True, num_samples=4)) == [4, 9, 7, 9]


def test_repeat_passes_and_distributed_shards(seeded):
    seeded(5)
    slices = lambda n, **kw: ds.NumpySlicesDataset(np.arange(n), column_names=["x"], **kw)  # noqa: E731
    assert rows(slices(12, shuffle=True).repeat(2)) == [
        11, 8, 5, 2, 10, 6, 7, 1, 9, 0, 4, 3, 4, 7, 5, 0, 8, 2, 10, 9, 3, 1, 11, 6]
    assert rows(slices(12, shuffle=True, num_shards=2, shard_id=0)) == [10, 2, 1, 4, 11, 0]

    def shard(n, shards, sid, epochs, **kw):
        data = slices(n, sampler=ds.DistributedSampler(shards, sid, shuffle=True, **kw))
        it = data.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
        return [[int(r[0]) for r in it] for _ in range(epochs)]

    assert shard(12, 2, 1, 2) == [[6, 9, 3, 8, 7, 5], [8, 11, 3, 10, 5, 7]]
    assert shard(10, 3, 2, 2) == [[2, 3, 5, 6], [4, 3, 1, 8]]
    assert shard(10, 3, 0, 1) == [[0, 9, 4, 7]]
    assert shard(10, 3, 1, 1, num_samples=2) == [[6, 1]]


SAMPLED = {  # ds.config.set_seed(3), 20 rows, two epochs of one iterator, on MindSpore 2.10
    "subset": [[7, 13, 1, 5, 11, 3, 9], [5, 9, 7, 1, 3, 13, 11]],
    "weighted": [[2, 17, 3, 11, 9, 0, 1, 5, 2, 14, 3, 9]] * 2,
    "weighted without replacement": [[5, 6, 2, 10, 7, 0, 8, 11, 18, 19, 3, 13]] * 2,
}


@pytest.mark.parametrize("name", sorted(SAMPLED))
def test_subset_and_weighted_samplers_equal_mindspores(seeded, name):
    # SubsetRandomSampler re-shuffles the previous pass with a fresh std::mt19937(seed); WeightedRandomSampler
    # re-seeds every pass, so its epochs repeat.
    seeded(3)
    sampler = {"subset": lambda: ds.SubsetRandomSampler([1, 3, 5, 7, 9, 11, 13]),
               "weighted": lambda: ds.WeightedRandomSampler([1, 2, 3, 4] * 5, 12),
               "weighted without replacement": lambda: ds.WeightedRandomSampler([1, 2, 3, 4] * 5, 12,
                                                                                replacement=False)}[name]()
    data = ds.NumpySlicesDataset({"x": np.arange(20)}, sampler=sampler)
    iterator = data.create_tuple_iterator(output_numpy=True, num_epochs=2)
    assert [[int(row[0]) for row in iterator] for _ in range(2)] == SAMPLED[name]


@pytest.mark.parametrize("shuffle,expected", [
    # label * 100 + pixel (class c's image i has pixel 40 c + i); two epochs, ds.config.set_seed(3), MindSpore 2.10
    (True, [[280, 282, 143, 141, 0, 2], [283, 283, 142, 140, 3, 3]]),
    (False, [[2, 0, 142, 143, 281, 280], [3, 3, 142, 140, 283, 283]]),
])
def test_pk_sampler_equals_mindspores(seeded, tmp_path, shuffle, expected):
    # Classes shuffled once by std::mt19937(seed) (shuffle=True), rows drawn with replacement, pass k from seed + k.
    from PIL import Image

    for label in range(3):
        (tmp_path / f"c{label}").mkdir()
        for index in range(4):
            Image.fromarray(np.full((2, 2, 3), 40 * label + index, np.uint8)).save(tmp_path / f"c{label}/{index}.png")
    seeded(3)
    data = ds.ImageFolderDataset(str(tmp_path), sampler=ds.PKSampler(2, shuffle=shuffle), decode=True)
    iterator = data.create_tuple_iterator(output_numpy=True, num_epochs=2)
    got = [[int(label) * 100 + int(image[0, 0, 0]) for image, label in iterator] for _ in range(2)]
    assert got == expected

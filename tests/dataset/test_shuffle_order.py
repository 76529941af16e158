"""``Dataset.shuffle`` reads MindSpore 2.10's exact order under a dataset seed: its ShuffleOp's buffer over one
``std::mt19937_64(seed)`` per iterator (``engine/shuffling.py``).

Recorded on MindSpore 2.10: ``ds.config.set_seed(3)``, ``NumpySlicesDataset({"x": np.arange(20)},
shuffle=False).shuffle(buffer_size)``, two epochs of one iterator; the engine's outputs with GCC 12's
``std::mt19937_64``.

Generator sources, repeat passes and new iterators: tests/fixtures/dataset/shuffle_buffer_mindspore.json (recorded by
record_shuffle_buffer.py): the stream runs on across one iterator's epochs and repeat passes and restarts with a new
iterator. The data-processing tutorial page prints the order of shuffle(buffer_size=2).
"""
import json
import os

import numpy as np
import pytest

import sporax.dataset as ds
from sporax.dataset.engine.sampler_order import Twister64Words

SHUFFLED = {  # buffer_size -> the two epochs' rows
    4: [[3, 4, 5, 1, 6, 0, 9, 8, 2, 12, 11, 13, 10, 14, 15, 18, 7, 16, 19, 17],
        [1, 4, 2, 5, 6, 3, 0, 9, 7, 11, 8, 13, 14, 16, 15, 17, 10, 18, 19, 12]],
    20: [[7, 17, 13, 12, 5, 8, 15, 9, 10, 11, 0, 3, 16, 14, 4, 1, 18, 2, 6, 19],
         [9, 6, 4, 1, 14, 5, 8, 3, 2, 10, 7, 19, 15, 16, 13, 11, 0, 18, 12, 17]],
}
SHUFFLED[50] = SHUFFLED[20]  # a buffer larger than the data drains it from the start, as the full one does


@pytest.mark.parametrize("buffer_size", sorted(SHUFFLED))
def test_seeded_shuffle_equals_mindspores(seeded, buffer_size):
    seeded(3)
    data = ds.NumpySlicesDataset({"x": np.arange(20)}, shuffle=False).shuffle(buffer_size)
    iterator = data.create_tuple_iterator(output_numpy=True, num_epochs=2)
    got = [[int(row[0]) for row in iterator] for _ in range(2)]
    assert got == SHUFFLED[buffer_size]


def test_twister64_equals_libstdcxx():
    # Outputs 0, 1, 311 and 312 straddle the first state refill.
    for seed, expected in {5489: [14514284786278117030, 4620546740167642908, 1370093900783164344,
                                  6776537281339823025],
                           3: [10307413207671831467, 3611203882987592167, 10714221028055778472,
                               7969819108467188234]}.items():
        words = Twister64Words(seed)
        values = [words() for _ in range(313)]
        assert [values[i] for i in (0, 1, 311, 312)] == expected


SPLITS = {  # (source shuffle, randomize) -> each split's two epochs; ds.config.set_seed(3), 20 rows, [0.6, 0.4]
    (False, True): [[[3, 10, 8, 17, 11, 6, 19, 7, 18, 4, 1, 2]] * 2, [[9, 0, 13, 16, 14, 5, 15, 12]] * 2],
    (False, False): [[list(range(12))] * 2, [list(range(12, 20))] * 2],
    (True, True): [[[17, 1, 18, 5, 2, 19, 12, 7, 15, 11, 10, 8], [8, 19, 18, 11, 15, 10, 4, 12, 14, 0, 7, 16]],
                   [[4, 3, 0, 14, 13, 6, 16, 9], [13, 3, 2, 6, 9, 17, 5, 1]]],
    (True, False): [[[3, 10, 8, 17, 11, 6, 19, 7, 18, 4, 1, 2], [3, 7, 16, 8, 0, 17, 10, 12, 18, 13, 19, 15]],
                    [[9, 0, 13, 16, 14, 5, 15, 12], [1, 2, 9, 5, 6, 11, 14, 4]]],
}


@pytest.mark.parametrize("shuffle,randomize", sorted(SPLITS))
def test_seeded_split_equals_mindspores(seeded, shuffle, randomize):
    # Split j reads its window of the source's order for the epoch after one fixed permutation (randomize): the
    # windows of a shuffled source move every epoch, as in MindSpore.
    seeded(3)
    parts = ds.NumpySlicesDataset({"x": np.arange(20)}, shuffle=shuffle).split([0.6, 0.4], randomize=randomize)
    got = []
    for part in parts:
        iterator = part.create_tuple_iterator(output_numpy=True, num_epochs=2)
        got.append([[int(row[0]) for row in iterator] for _ in range(2)])
    assert got == SPLITS[shuffle, randomize]


BUFFER_FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "dataset", "shuffle_buffer_mindspore.json")
with open(BUFFER_FIXTURE) as handle:
    RECORDED = json.load(handle)


def _generator(rows):
    def generate():
        for i in range(rows):
            yield (np.array(i, np.int64),)
    return generate


@pytest.mark.parametrize("case", [key for key in RECORDED if key != "repeat"])
def test_shuffle_order_matches_mindspore(case, seeded):
    seed, rows, size, epochs = map(int, case.split("-"))
    seeded(seed)
    data = ds.GeneratorDataset(_generator(rows), ["x"]).shuffle(size)
    iterator = data.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
    assert [[int(row[0]) for row in iterator] for _ in range(epochs)] == RECORDED[case]["epochs"]
    again = [int(row[0]) for row in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    assert again == RECORDED[case]["new_iterator"]


def test_shuffle_under_repeat_runs_one_stream(seeded):
    seeded(3)
    data = ds.GeneratorDataset(_generator(7), ["x"]).shuffle(3).repeat(2)
    assert [int(row[0]) for row in data.create_tuple_iterator(num_epochs=1, output_numpy=True)] == RECORDED["repeat"]


class _Rows:
    """An iterable source with a length but no __getitem__: not random access."""

    def __iter__(self):
        return iter([(np.array(i, np.int32),) for i in range(7)])

    def __len__(self):
        return 7


@pytest.mark.parametrize("source", [_generator(7), _Rows()], ids=["generator", "iterable"])
@pytest.mark.parametrize("randomize", [False, True])
def test_split_of_a_generator_source_equals_mindspores(seeded, source, randomize):
    # Recorded on MindSpore 2.10, ds.config.set_seed(5): a source without __getitem__ splits as a pipeline does
    # (copies, each through one 10000-row shuffle buffer that keeps its order when randomized, then skip/take);
    # sporax gave every part all 7 rows
    seeded(5)
    parts = ds.GeneratorDataset(source, ["a"], shuffle=False).split([0.5, 0.5], randomize=randomize)
    got = [[int(row[0]) for row in part.create_tuple_iterator(output_numpy=True)] for part in parts]
    assert got == ([[5, 4, 0], [2, 3, 1, 6]] if randomize else [[0, 1, 2], [3, 4, 5, 6]])


def test_randomized_split_of_a_pipeline_equals_mindspores(seeded):
    # Recorded on MindSpore 2.10, ds.config.set_seed(3): randomize shuffles a mapped pipeline's parts (sporax kept the
    # order), and each part keeps its order across epochs
    seeded(3)
    data = ds.GeneratorDataset(_generator(9), ["a"], shuffle=False).map(lambda a: a * 10, "a")
    got = []
    for part in data.split([0.4, 0.6], randomize=True):
        iterator = part.create_tuple_iterator(output_numpy=True, num_epochs=2)
        got.append([[int(row[0]) for row in iterator] for _ in range(2)])
    assert got == [[[80, 70, 50, 10]] * 2, [[60, 0, 20, 30, 40]] * 2]
    data = ds.NumpySlicesDataset(np.arange(9), ["a"], shuffle=False).map(lambda a: a + 1, "a")
    got = [[int(row[0]) for row in part.create_tuple_iterator(output_numpy=True)] for part in data.split([4, 5])]
    assert got == [[9, 8, 6, 2], [7, 1, 3, 4, 5]]

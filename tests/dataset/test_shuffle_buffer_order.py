"""Dataset.shuffle(buffer_size) under a dataset seed reads rows in MindSpore 2.10's order (oracle:
tests/fixtures/dataset/shuffle_buffer_mindspore.json, recorded by record_shuffle_buffer.py): a
std::mt19937_64(seed) buffer whose stream runs on across one iterator's epochs and repeat passes, and
restarts with a new iterator. The data-processing tutorial page prints the order of shuffle(buffer_size=2)."""
import json
import os

import numpy as np
import pytest

import sporax.dataset as ds
from sporax.dataset.engine.sampler_order import Twister64Words

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "dataset", "shuffle_buffer_mindspore.json")
with open(FIXTURE) as handle:
    RECORDED = json.load(handle)


def _generator(rows):
    def generate():
        for i in range(rows):
            yield (np.array(i, np.int64),)
    return generate


def test_twister64_matches_the_cpp_standard_check_value():
    words = Twister64Words(5489)
    drawn = [words() for _ in range(10000)]
    assert drawn[0] == 14514284786278117030 and drawn[-1] == 9981545732273789042


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

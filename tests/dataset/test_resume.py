"""A pipeline resumed at a global step yields exactly the rows, order and random draws of an
uninterrupted run from that step on (shuffles, random transforms, batches, shards).

MindSpore 2.10's ``set_init_step`` (measured): the step counts across epochs; with
``NumpySlicesDataset(np.arange(10), shuffle=True)`` and ``set_init_step(13)`` an iterator with
``num_epochs=3`` delivers epoch 1 from its 4th row, then epoch 2 (the skipped epoch counts towards
``num_epochs``), and ``set_init_step(13)`` with ``num_epochs=1`` raises "Cannot reset the pipeline,
reset step must be less than dataset_size * num_epochs".
"""
import numpy as np
import pytest

import sporax.dataset as ds
from sporax.dataset import transforms


def add_one(x):
    return x + 1


def negate(x):
    return -x


def pipeline(num_shards=None, shard_id=None, batch=None):
    """A shuffled source, a random transform (one of two ops per row), optionally batched."""
    data = ds.NumpySlicesDataset({"x": np.arange(30)}, shuffle=True, num_shards=num_shards,
                                 shard_id=shard_id)
    data = data.map(transforms.RandomChoice([add_one, negate]), "x", num_parallel_workers=2)
    return data.batch(batch) if batch else data


def rows_of(iterator, epochs):
    return [[np.ravel(row[0]).tolist() for row in iterator] for _ in range(epochs)]


def uninterrupted(make, epochs):
    ds.config.set_seed(11)
    return rows_of(make().create_tuple_iterator(num_epochs=epochs, output_numpy=True), epochs)


@pytest.mark.parametrize("num_shards, shard_id, batch", [(None, None, None), (None, None, 4),
                                                         (3, 0, None), (3, 2, 4)])
def test_set_init_step_resumes_exactly(num_shards, shard_id, batch):
    make = lambda: pipeline(num_shards, shard_id, batch)  # noqa: E731
    full = uninterrupted(make, 3)
    assert full[0] != full[1]  # the shuffles really differ from epoch to epoch
    size = len(full[0])
    for step in (size + 3, 2 * size, 2 * size + size - 1):
        ds.config.set_seed(11)
        data = make()  # a fresh pipeline, as in a restarted process
        data.set_init_step(step)
        epoch, skip = divmod(step, size)
        resumed = rows_of(data.create_tuple_iterator(num_epochs=3, output_numpy=True), 3 - epoch)
        assert resumed == [full[epoch][skip:]] + full[epoch + 1:]


def test_set_init_step_counts_skipped_epochs_like_mindspore():
    data = ds.NumpySlicesDataset(np.arange(10), ["x"], shuffle=False)
    data.set_init_step(13)
    iterator = data.create_tuple_iterator(num_epochs=3, output_numpy=True)
    assert rows_of(iterator, 2) == [[[i] for i in range(3, 10)], [[i] for i in range(10)]]
    with pytest.raises(RuntimeError, match="epoch"):
        next(iterator)
    with pytest.raises(RuntimeError, match="reset step must be less than dataset_size"):
        data.create_tuple_iterator(num_epochs=1, output_numpy=True)


def test_init_step_is_inherited_from_the_child_as_in_mindspore():
    source = ds.NumpySlicesDataset(np.arange(10), ["x"], shuffle=False)
    source.set_init_step(4)
    batched = source.batch(2)
    assert batched.get_init_step() == 4
    batched.set_init_step(1)
    assert (batched.get_init_step(), source.get_init_step()) == (1, 4)
    assert source.zip(ds.NumpySlicesDataset(np.arange(10), ["y"])).get_init_step() == 0


def test_resumed_iterator_numbers_epochs_from_the_run_start():
    # Model.train's resume: whatever the object ran before, epoch k has the order of epoch k.
    full = uninterrupted(pipeline, 3)
    ds.config.set_seed(11)
    data = pipeline()
    rows_of(data.create_tuple_iterator(num_epochs=1, output_numpy=True), 1)  # used before
    size = len(full[0])
    assert rows_of(data._resumed_iterator(2 * size, num_epochs=1, output_numpy=True), 1) == [full[2]]
    assert rows_of(data._resumed_iterator(0, num_epochs=2, output_numpy=True), 2) == full[:2]


def test_resume_replays_mindspore_streams_of_skipped_epochs():
    # Seeded random ops that draw as MindSpore (per-worker streams running on across an iterator's epochs):
    # a resumed iterator replays the skipped epochs' draws, so it still equals an uninterrupted run.
    # (MindSpore 2.10 itself pushes the skip below the map and restarts its streams: "slightly different
    # outputs for random transformations", its warning says.)
    from sporax.dataset import vision

    def make():
        images = np.zeros((10, 4, 4, 3), np.uint8)
        images[:, :, :, 0] = np.arange(16).reshape(4, 4)
        return ds.NumpySlicesDataset({"x": images}, shuffle=False).map(vision.RandomHorizontalFlip(), "x",
                                                                         num_parallel_workers=2)

    def corners(iterator, epochs):
        return [[int(row[0][0, 0, 0]) for row in iterator] for _ in range(epochs)]

    ds.config.set_seed(11)
    full = corners(make().create_tuple_iterator(num_epochs=3, output_numpy=True), 3)
    ds.config.set_seed(11)
    data = make()
    data.set_init_step(13)
    assert corners(data.create_tuple_iterator(num_epochs=3, output_numpy=True), 2) == [full[1][3:], full[2]]

"""With dataset.config.set_seed, shuffles and random transforms repeat and ignore worker counts."""
import numpy as np
import pytest

import sporax.dataset as ds
from sporax.dataset.core.random import current_rng


def noisy(x):
    """A random 'transform' drawing from the pipeline's generator, as transforms must."""
    return x + current_rng().integers(0, 1000)


class BatchedNoise:
    """A transform with the optional batched fast path."""

    def __call__(self, x):
        return x + current_rng().integers(0, 1000)

    def _batch_call(self, x):
        return x + current_rng().integers(0, 1000, len(x))


def run(seed, workers, processes=False, operation=noisy, shuffle_buffer=None):
    ds.config.set_seed(seed)
    data = ds.NumpySlicesDataset({"x": np.arange(500) * 10000}, shuffle=True)
    if shuffle_buffer:
        data = data.shuffle(shuffle_buffer)
    data = data.map(operation, input_columns="x", num_parallel_workers=workers,
                    python_multiprocessing=processes).batch(16)
    return np.concatenate([b[0] for b in data.create_tuple_iterator(output_numpy=True)])


@pytest.mark.parametrize("operation", [noisy, BatchedNoise()])
def test_same_seed_same_output_for_any_worker_count(operation):
    reference = run(5, 1, operation=operation, shuffle_buffer=50)
    for workers in (2, 4):
        np.testing.assert_array_equal(run(5, workers, operation=operation, shuffle_buffer=50), reference)
    assert not np.array_equal(run(6, 1, operation=operation, shuffle_buffer=50), reference)
    # Rows are a permutation of the source plus noise below 1000.
    assert sorted((reference // 10000).tolist()) == list(range(500))


def test_processes_match_threads():
    np.testing.assert_array_equal(run(9, 2, processes=True), run(9, 1))


def test_epochs_reshuffle_but_repeat_across_runs():
    def epochs():
        ds.config.set_seed(11)
        data = ds.NumpySlicesDataset(np.arange(50))
        iterator = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
        return [[int(r[0]) for r in iterator] for _ in range(2)]
    first, second = epochs()
    assert first != second and sorted(first) == sorted(second) == list(range(50))
    assert epochs() == [first, second]


def test_eager_rng_follows_the_seed():
    ds.config.set_seed(1)
    a = current_rng().integers(0, 10**9)
    ds.config.set_seed(1)
    assert current_rng().integers(0, 10**9) == a


def test_split_randomize_is_seeded():
    def parts():
        ds.config.set_seed(4)
        return [sorted(int(r[0]) for r in p.create_tuple_iterator(output_numpy=True))
                for p in ds.NumpySlicesDataset(np.arange(20)).split([0.5, 0.5])]
    assert parts() == parts()


def test_vision_random_transforms_ignore_threads_and_processes():
    from sporax.dataset import vision
    images = np.random.default_rng(0).integers(0, 256, (300, 16, 16, 3), dtype=np.uint8)

    def out(workers, processes=False):
        ds.config.set_seed(21)
        data = ds.NumpySlicesDataset({"image": images}, shuffle=False).map(
            [vision.RandomCrop(16, padding=2), vision.RandomHorizontalFlip(), vision.HWC2CHW()],
            num_parallel_workers=workers, python_multiprocessing=processes)
        return np.concatenate([b[0] for b in data.batch(50).create_tuple_iterator(output_numpy=True)])
    # Under a seed these transforms draw as MindSpore's per-worker copies do (test_pipeline_random):
    # the requested worker count picks the draws, whether threads or processes run them.
    reference = out(3)
    assert reference.shape == (300, 3, 16, 16)
    np.testing.assert_array_equal(out(3), reference)
    np.testing.assert_array_equal(out(3, processes=True), reference)
    assert not np.array_equal(reference, images.transpose(0, 3, 1, 2))
    assert not np.array_equal(out(1), reference)

"""Batched fast paths (``_batch_call``) give exactly the per-row results; fused map chains too."""
import numpy as np
import pytest

import sporax.dataset as ds
from sporax.dataset import vision as V
from sporax.dataset.engine.mapping import MapDataset
from sporax.dataset.vision import resample
from sporax.dataset.vision.utils import Border, Inter

DTYPES = [np.uint8, np.float32, np.float64, np.int16, np.uint16, np.bool_]
SHAPES = [(7, 9), (12, 5, 1), (6, 11, 3), (9, 8, 4), (5, 5, 2)]


def random_images(rng, count, shape, dtype):
    if dtype == np.bool_:
        return rng.random((count,) + shape) < 0.5
    if np.dtype(dtype).kind == "f":
        return (rng.random((count,) + shape) * 300 - 20).astype(dtype)
    high = 256 if dtype == np.uint8 else 1000
    return rng.integers(0, high, (count,) + shape).astype(dtype)


def assert_batch_matches_rows(op, images):
    """``op._batch_call(images)`` equals the per-row results stacked: values, dtype and shape."""
    batched = op._batch_call(images)
    assert batched is not NotImplemented
    rows = np.stack([op(image) for image in images])
    assert batched.dtype == rows.dtype
    assert batched.shape == rows.shape
    np.testing.assert_array_equal(batched, rows)


@pytest.mark.parametrize("mode", list(Inter.__members__.values()), ids=lambda m: m.name)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_resize_batch_matches_per_row(mode, dtype):
    rng = np.random.default_rng(int(mode) * 10 + DTYPES.index(dtype))
    for trial in range(4):
        shape = SHAPES[rng.integers(len(SHAPES))]
        if mode in (Inter.ANTIALIAS, Inter.PILCUBIC) and dtype == np.bool_:
            continue  # Pillow's float planes have no bool round trip; the per-row path is the reference anyway
        size = int(rng.integers(1, 20)) if trial == 0 else (int(rng.integers(1, 25)), int(rng.integers(1, 25)))
        assert_batch_matches_rows(V.Resize(size, mode), random_images(rng, 3, shape, dtype))


def test_resize_batch_same_size_and_mnist_shape():
    rng = np.random.default_rng(7)
    images = random_images(rng, 64, (28, 28, 1), np.uint8)
    assert_batch_matches_rows(V.Resize((32, 32), Inter.LINEAR), images)
    assert_batch_matches_rows(V.Resize((28, 28), Inter.LINEAR), images)  # same size: a copy
    out = V.Resize((32, 32))._batch_call(images)
    assert out.shape == (64, 32, 32, 1) and out.flags.c_contiguous


@pytest.mark.parametrize("mode", [Inter.BILINEAR, Inter.BICUBIC, Inter.AREA, Inter.NEAREST], ids=lambda m: m.name)
def test_resize_batch_chunks_large_images_identically(mode, monkeypatch):
    # A small chunk budget forces the chunked loop (also taken by real large images).
    monkeypatch.setattr(resample, "_CHUNK_ELEMENTS", 600)
    rng = np.random.default_rng(3)
    for dtype in (np.uint8, np.float32):
        images = random_images(rng, 5, (10, 12, 3), dtype)
        assert_batch_matches_rows(V.Resize((14, 9), mode), images)
        assert_batch_matches_rows(V.Resize((6, 20), mode), images)


def test_resized_crop_batch_matches_per_row():
    rng = np.random.default_rng(11)
    for dtype in (np.uint8, np.float32):
        images = random_images(rng, 4, (12, 15, 3), dtype)
        for mode in (Inter.BILINEAR, Inter.NEAREST, Inter.ANTIALIAS):
            assert_batch_matches_rows(V.ResizedCrop(2, 3, 8, 9, (5, 13), mode), images)
        assert V.ResizedCrop(10, 0, 8, 9, 4)._batch_call(images) is NotImplemented  # out of bounds


@pytest.mark.parametrize("shape", [(7, 9), (6, 5, 1), (8, 7, 3)])
def test_crops_batch_match_per_row(shape):
    rng = np.random.default_rng(len(shape))
    for dtype in (np.uint8, np.float32, np.int16):
        images = random_images(rng, 3, shape, dtype)
        for size in (3, (4, 2), (5, 5), (9, 12), (shape[0], shape[1])):
            assert_batch_matches_rows(V.CenterCrop(size), images)
        assert_batch_matches_rows(V.Crop((1, 2), (3, 2)), images)
        assert V.Crop((5, 5), (4, 4))._batch_call(images) is NotImplemented  # per row raises the error


@pytest.mark.parametrize("mode", list(Border), ids=lambda b: b.name)
@pytest.mark.parametrize("shape", [(5, 6), (4, 5, 1), (4, 5, 3)])
def test_pads_batch_match_per_row(mode, shape):
    rng = np.random.default_rng(5)
    for dtype in (np.uint8, np.float32):
        images = random_images(rng, 3, shape, dtype)
        for padding in (0, 2, (1, 3), (0, 2, 3, 1)):
            for fill in (0, 9, (7, 8, 9)):
                assert_batch_matches_rows(V.Pad(padding, fill_value=fill, padding_mode=mode), images)
        assert_batch_matches_rows(V.PadToSize((7, 9), padding_mode=mode), images)
        assert_batch_matches_rows(V.PadToSize(9, offset=(1, 2), fill_value=3, padding_mode=mode), images)
        assert V.PadToSize(2)._batch_call(images) is NotImplemented  # smaller than the image


def test_grayscale_and_invert_batch_match_per_row():
    rng = np.random.default_rng(9)
    for dtype in (np.uint8, np.float32, np.uint16):
        images = random_images(rng, 4, (6, 7, 3), dtype)
        assert_batch_matches_rows(V.Grayscale(1), images)
        assert_batch_matches_rows(V.Grayscale(3), images)
        assert_batch_matches_rows(V.Invert(), images)
    gray = random_images(rng, 2, (6, 7), np.uint8)
    assert V.Grayscale()._batch_call(gray) is NotImplemented
    assert V.Invert()._batch_call(gray) is NotImplemented


@pytest.mark.parametrize("op", [V.Resize(4), V.CenterCrop(2), V.Pad(1), V.Crop((0, 0), 1), V.PadToSize(9)])
def test_batch_call_declines_what_the_per_row_path_rejects(op):
    assert op._batch_call(np.zeros((2, 4), np.uint8)) is NotImplemented  # rows of rank 1
    assert op._batch_call(np.zeros((2, 3, 3, 3, 3), np.uint8)) is NotImplemented  # rows of rank 4
    assert op._batch_call(np.array([["a", "b"], ["c", "d"]] * 2).reshape(2, 2, 2)) is NotImplemented
    assert op._batch_call(np.zeros((0, 4, 4), np.uint8)) is NotImplemented  # no rows


def _images_dataset(images, workers, operations_per_map):
    data = ds.NumpySlicesDataset({"image": images}, shuffle=False)
    for operations in operations_per_map:
        data = data.map(operations=operations, input_columns="image", num_parallel_workers=workers)
    return data


def _collect(data):
    return np.stack([row[0] for row in data.create_tuple_iterator(output_numpy=True, num_epochs=1)])


def test_pipeline_with_batched_resize_equals_eager_per_row():
    images = random_images(np.random.default_rng(1), 150, (28, 28, 1), np.uint8)
    ops = [V.Resize((32, 32), Inter.LINEAR), V.Rescale(1 / 255, 0), V.HWC2CHW()]
    expected = np.stack([ops[2](ops[1](ops[0](image))) for image in images])
    for workers in (1, 2):
        np.testing.assert_array_equal(_collect(_images_dataset(images, workers, [[op] for op in ops])), expected)


class _Declines:
    """Identity with a batched path that always gives up (forces the per-row fallback)."""

    def __call__(self, image):
        return image

    def _batch_call(self, images):
        return NotImplemented


def test_fallback_to_rows_redraws_from_the_block_generator():
    # RandomCrop draws in its batched attempt; when a later op declines, the per-row pass must
    # start the block's generator afresh so the rows match a plain per-row pipeline.
    images = random_images(np.random.default_rng(2), 100, (8, 8, 3), np.uint8)
    ds.config.set_seed(123)
    declining = _collect(_images_dataset(images, 1, [[V.RandomCrop(6, padding=2), _Declines()]]))
    ds.config.set_seed(123)
    per_row = _collect(_images_dataset(images, 1, [[V.RandomCrop(6, padding=2), lambda image: image]]))
    np.testing.assert_array_equal(declining, per_row)


def test_fused_map_chain_equals_separate_stages(monkeypatch):
    images = random_images(np.random.default_rng(4), 300, (10, 10, 3), np.uint8)
    maps = [[V.RandomCrop(8, padding=1)], [V.RandomHorizontalFlip()], [V.Resize((12, 6))],
            [lambda image: image + np.uint8(1)], [V.RandomVerticalFlip(), V.HWC2CHW()]]
    results = []
    for fused in (True, False):
        if not fused:
            monkeypatch.setattr(MapDataset, "_fused_chain", lambda self: [self])
        for workers in (1, 2):
            ds.config.set_seed(77)
            data = _images_dataset(images, workers, maps)
            if fused:
                assert len(data._fused_chain()) == len(maps)
            results.append(_collect(data))
    # Fused or not, the same rows; the seeded random maps draw per requested worker, as MindSpore's.
    np.testing.assert_array_equal(results[2], results[0])
    np.testing.assert_array_equal(results[3], results[1])


def test_maps_with_different_workers_or_processes_are_not_fused():
    data = ds.NumpySlicesDataset({"image": np.zeros((4, 2, 2, 3), np.uint8)}, shuffle=False)
    one = data.map(V.HWC2CHW(), num_parallel_workers=1)
    two = one.map(V.Rescale(1.0, 0.0), num_parallel_workers=2)
    assert two._fused_chain() == [two]
    procs = two.map(V.Rescale(1.0, 0.0), num_parallel_workers=2, python_multiprocessing=True)
    assert procs._fused_chain() == [procs]
    three = two.map(V.Rescale(2.0, 0.0), num_parallel_workers=2)
    assert three._fused_chain() == [two, three]


def _reference_shuffle(blocks, size, words, width, out_rows):
    """The row-by-row buffer loop of MindSpore's ShuffleOp the array version must reproduce (rows and block
    boundaries): emit slot ``word % rows``, move the last row into it, put the incoming row last."""
    import itertools

    from sporax.dataset.engine.block import from_rows

    def rows():
        buffer = []
        for block in blocks:
            for row in block.rows():
                if len(buffer) < size:
                    buffer.append(row)
                    continue
                slot = words() % size
                yield buffer[slot]
                buffer[slot] = buffer[-1]
                buffer[-1] = row
        while buffer:
            slot = words() % len(buffer)
            yield buffer[slot]
            buffer[slot] = buffer[-1]
            buffer.pop()

    stream, start = rows(), 0
    while True:
        chunk = list(itertools.islice(stream, out_rows))
        if not chunk:
            return
        yield from_rows(chunk, width, start)
        start += len(chunk)


def _source_blocks(rng, sizes, list_block=None):
    from sporax.dataset.engine.block import Block

    blocks, start = [], 0
    for index, count in enumerate(sizes):
        images = rng.integers(0, 255, (count, 2, 3)).astype(np.uint8)
        ids = np.arange(start, start + count, dtype=np.int64)
        columns = [images, ids]
        if index == list_block:  # rows that are not stacked: the rest of the epoch goes row by row
            columns = [list(images), [ids[i, ...] for i in range(count)]]
        blocks.append(Block(columns, count, start))
        start += count
    return blocks


@pytest.mark.parametrize("size", [2, 3, 7, 64, 100, 5000, 2147483647])
@pytest.mark.parametrize("list_block", [None, 0, 3, "large rows"])
def test_array_shuffle_equals_row_by_row_loop(size, list_block, monkeypatch):
    from sporax.dataset.engine import shuffling
    from sporax.dataset.engine.sampler_order import Twister64Words
    from sporax.dataset.engine.shuffling import shuffled_blocks

    if list_block == "large rows":  # rows above the size limit take the row loop from the start
        monkeypatch.setattr(shuffling, "_MAX_ROW_BYTES", 8)
        list_block = None

    sizes = [64, 64, 17, 64, 0, 5, 64, 64, 64, 64, 33, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64]  # > 1024 rows
    blocks = _source_blocks(np.random.default_rng(size), sizes, list_block)
    got = list(shuffled_blocks(iter(blocks), size, Twister64Words(size), 2, 64))
    want = list(_reference_shuffle(iter(blocks), size, Twister64Words(size), 2, 64))
    assert [(b.n, b.start) for b in got] == [(b.n, b.start) for b in want]
    for mine, theirs in zip(got, want):
        for row_mine, row_theirs in zip(mine.rows(), theirs.rows()):
            for value_mine, value_theirs in zip(row_mine, row_theirs):
                assert value_mine.shape == value_theirs.shape and value_mine.dtype == value_theirs.dtype
                np.testing.assert_array_equal(value_mine, value_theirs)
    ids = np.concatenate([np.stack([row[1] for row in block.rows()]) for block in got])
    assert sorted(ids.tolist()) == list(range(sum(sizes)))  # a permutation of every row


@pytest.mark.parametrize("mode", list(Border), ids=lambda b: b.name)
@pytest.mark.parametrize("shape", [(9, 7), (8, 8, 1), (10, 9, 3), (7, 9, 4)])
def test_random_crop_batch_matches_per_row_with_the_same_draws(mode, shape):
    from sporax.dataset.core.random import make_rng, set_current_rng

    images = random_images(np.random.default_rng(len(shape)), 6, shape, np.uint8)
    ops = [V.RandomCrop(6, padding=2, padding_mode=mode),
           V.RandomCrop((5, 4), padding=(1, 0, 3, 2), fill_value=(4, 5, 6), padding_mode=mode),
           V.RandomCrop(12, pad_if_needed=True, fill_value=7, padding_mode=mode), V.RandomCrop((3, 2))]
    previous = set_current_rng(make_rng(21))
    try:
        for op in ops:
            set_current_rng(make_rng(21))
            batched = op._batch_call(images)
            set_current_rng(make_rng(21))
            rows = np.stack([op(image) for image in images])
            assert batched.shape == rows.shape and batched.dtype == rows.dtype and batched.flags.c_contiguous
            np.testing.assert_array_equal(batched, rows)
    finally:
        set_current_rng(previous)

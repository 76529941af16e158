"""Dataset operations vs NumPy and MindSpore 2.10's recorded behaviour (sizes, order, columns)."""
import numpy as np
import pytest

import sporax.dataset as ds


def rows(dataset):
    return [[x.tolist() for x in row] for row in dataset.create_tuple_iterator(output_numpy=True)]


def abc(n=6):
    return ds.NumpySlicesDataset({"a": np.arange(n), "b": np.arange(n) * 10, "c": np.arange(n)},
                                 shuffle=False)


def ragged():
    def generate():
        for i in range(1, 5):
            yield (np.arange(i),)
    return ds.GeneratorDataset(generate, ["v"])


def test_batch_stacks_rows_and_keeps_remainder():
    data = ds.NumpySlicesDataset(np.arange(10), column_names=["x"], shuffle=False)
    assert rows(data.batch(4)) == [[[0, 1, 2, 3]], [[4, 5, 6, 7]], [[8, 9]]]
    assert data.batch(4).get_dataset_size() == 3
    assert data.batch(4, drop_remainder=True).get_dataset_size() == 2
    assert data.batch(3).get_batch_size() == 3 and data.get_batch_size() == 1


def test_batch_then_repeat_and_repeat_then_batch():
    # Recorded from MindSpore 2.10: batch does not cross epochs of an inner repeat.
    data = lambda: ds.NumpySlicesDataset(np.arange(10), shuffle=False)  # noqa: E731
    assert rows(data().batch(3).repeat(2)) == [[[0, 1, 2]], [[3, 4, 5]], [[6, 7, 8]], [[9]]] * 2
    assert data().batch(3).repeat(2).get_dataset_size() == 8
    assert rows(data().repeat(2).batch(3)) == [[[0, 1, 2]], [[3, 4, 5]], [[6, 7, 8]], [[9, 0, 1]],
                                               [[2, 3, 4]], [[5, 6, 7]], [[8, 9]]]
    assert data().repeat(2).batch(3).get_dataset_size() == 7
    assert data().batch(3, drop_remainder=True).repeat(2).get_dataset_size() == 6


def test_batch_of_images_is_one_array():
    images = np.random.default_rng(0).integers(0, 255, (10, 4, 4, 3), dtype=np.uint8)
    data = ds.NumpySlicesDataset({"image": images, "label": np.arange(10)}, shuffle=False)
    batches = list(data.batch(4).create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(np.concatenate([b[0] for b in batches]), images)
    assert batches[0][0].shape == (4, 4, 4, 3) and batches[-1][0].shape == (2, 4, 4, 3)
    assert data.batch(4).output_shapes() == [[4, 4, 4, 3], [4]]


def test_batch_rejects_ragged_rows_and_padded_batch_pads():
    with pytest.raises(RuntimeError, match="different shapes"):
        rows(ragged().batch(2))
    assert rows(ragged().padded_batch(2, pad_info={"v": (None, -1)})) == \
        [[[[0, -1], [0, 1]]], [[[0, 1, 2, -1], [0, 1, 2, 3]]]]
    assert rows(ragged().padded_batch(2, pad_info={"v": ([6], 7)})) == \
        [[[[0, 7, 7, 7, 7, 7], [0, 1, 7, 7, 7, 7]]], [[[0, 1, 2, 7, 7, 7], [0, 1, 2, 3, 7, 7]]]]
    assert rows(ragged().padded_batch(2, pad_info={})) == \
        [[[[0, 0], [0, 1]]], [[[0, 1, 2, 0], [0, 1, 2, 3]]]]


def test_padded_batch_cuts_axes_longer_than_the_pad_shape():
    def two_d():
        yield (np.arange(6, dtype=np.int32).reshape(2, 3),)
        yield (np.arange(4, dtype=np.int32).reshape(4, 1),)
    batched = ds.GeneratorDataset(two_d, ["c"], shuffle=False).padded_batch(2, pad_info={"c": ([3, 2], -1)})
    # recorded from MindSpore 2.10
    assert rows(batched) == [[[[[0, 1], [3, 4], [-1, -1]], [[0, -1], [1, -1], [2, -1]]]]]
    with pytest.raises(RuntimeError, match="rank"):
        rows(ragged().padded_batch(2, pad_info={"v": ([2, 2], -1)}))


def test_per_batch_map_columns_and_batch_info():
    data = abc(4).batch(2, per_batch_map=lambda a, info: ([x + 1 for x in a], [x * 0 for x in a]),
                        input_columns=["a"], output_columns=["a", "d"])
    # MindSpore 2.10 puts new columns first, then the others in reverse order.
    assert data.get_col_names() == ["a", "d", "c", "b"]
    assert rows(data) == [[[1, 2], [0, 0], [0, 1], [0, 10]], [[3, 4], [0, 0], [2, 3], [20, 30]]]
    info = abc(5).repeat(2).batch(2, per_batch_map=lambda a, info: (
        [np.array([info.get_epoch_num(), info.get_batch_num()])] * len(a),), input_columns=["a"])
    assert [r[0][0] for r in rows(info)] == [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]]


def test_bucket_batch_by_length():
    assert rows(ragged().bucket_batch_by_length(["v"], [2, 4], [1, 2, 3])) == \
        [[[[0]]], [[[0, 1, 0], [0, 1, 2]]], [[[0, 1, 2, 3]]]]
    assert rows(ragged().bucket_batch_by_length(["v"], [2, 4], [1, 2, 3], drop_remainder=True)) == \
        [[[[0]]], [[[0, 1, 0], [0, 1, 2]]]]


@pytest.mark.parametrize("inputs, outputs, expected", [
    (["a"], ["p", "q"], ["p", "q", "b", "c"]),
    (["a", "b"], ["s"], ["s", "c"]),
    (["b"], ["b"], ["a", "b", "c"]),
    (["b"], ["p", "q"], ["p", "q", "a", "c"]),
    (["c", "a"], ["p"], ["p", "b"]),
    (["c", "a"], ["p", "q"], ["q", "b", "p"]),
    (["c"], ["p", "q", "r"], ["p", "q", "r", "a", "b"]),
])
def test_map_output_column_order_matches_mindspore(inputs, outputs, expected):
    def function(*values):
        return values[0] if len(outputs) == 1 else tuple(values[:1]) * len(outputs)
    assert abc().map(function, input_columns=inputs, output_columns=outputs).get_col_names() == expected


def test_map_values_and_operation_lists():
    assert rows(abc(2).map(lambda a: (a, a + 1), input_columns=["a"], output_columns=["p", "q"])) == \
        [[0, 1, 0, 0], [1, 2, 10, 1]]
    assert rows(abc(3).map([lambda a: a + 1, lambda a: a * 2], input_columns="a")) == \
        [[2, 0, 0], [4, 10, 1], [6, 20, 2]]
    # Default input column: the first one.
    assert rows(abc(2).map(lambda a: a + 100)) == [[100, 0, 0], [101, 10, 1]]
    with pytest.raises(RuntimeError, match="output_columns"):
        rows(abc(3).map(lambda a: (a, a), input_columns="a"))
    with pytest.raises(TypeError, match="column_order"):
        abc().map(lambda a: a, column_order=["a"])
    # As MindSpore 2.10: built, then a RuntimeError when the pipeline runs or is asked its columns
    missing = abc().map(lambda a: a, input_columns=["zz"])
    with pytest.raises(RuntimeError, match="'zz' given in input_columns does not exist"):
        rows(missing)


@pytest.mark.parametrize("workers", [1, 3])
def test_map_on_workers_keeps_order(workers):
    data = ds.NumpySlicesDataset(np.arange(1000), ["x"], shuffle=False)
    out = [int(r[0]) for r in data.map(lambda x: x * 2, num_parallel_workers=workers)
           .create_tuple_iterator(output_numpy=True)]
    assert out == list(range(0, 2000, 2))


def test_map_with_processes_keeps_order():
    data = ds.NumpySlicesDataset(np.arange(300), ["x"], shuffle=False)
    mapped = data.map(lambda x: x + 1, num_parallel_workers=2, python_multiprocessing=True)
    assert [int(r[0]) for r in mapped.create_tuple_iterator(output_numpy=True)] == list(range(1, 301))


def test_processes_move_large_blocks_without_deadlock_or_leaks():
    import os
    images = np.random.default_rng(0).integers(0, 256, (1000, 32, 32, 3), dtype=np.uint8)
    before = set(os.listdir("/dev/shm")) if os.path.isdir("/dev/shm") else set()
    data = ds.NumpySlicesDataset({"image": images}, shuffle=False).map(
        lambda image: image.astype(np.float32), num_parallel_workers=2, python_multiprocessing=True)
    out = np.concatenate([b[0] for b in data.batch(100).create_tuple_iterator(output_numpy=True)])
    np.testing.assert_array_equal(out, images.astype(np.float32))
    if before or os.path.isdir("/dev/shm"):
        assert set(os.listdir("/dev/shm")) - before == set()


def test_project_rename_zip_concat():
    assert abc().project(["b", "a"]).get_col_names() == ["b", "a"]
    assert rows(abc(2).project("b")) == [[0], [10]]
    assert abc().rename(["a"], ["z"]).get_col_names() == ["z", "b", "c"]
    other = ds.NumpySlicesDataset({"d": np.arange(4)}, shuffle=False)
    zipped = abc().zip(other)
    assert zipped.get_col_names() == ["a", "b", "c", "d"] and zipped.get_dataset_size() == 4
    assert rows(zipped)[3] == [3, 30, 3, 3]
    # MindSpore 2.10 builds the zip and raises RuntimeError "... duplicate column y already exists when
    # zipping datasets." when it is asked its columns or run (sporax raised ValueError at zip())
    duplicated = abc().zip(abc())
    with pytest.raises(RuntimeError, match="duplicate column"):
        duplicated.get_col_names()
    with pytest.raises(RuntimeError, match="duplicate column"):
        rows(duplicated)
    assert rows(abc(2) + abc(3)) == [[0, 0, 0], [1, 10, 1], [0, 0, 0], [1, 10, 1], [2, 20, 2]]
    assert abc(2).concat([abc(1), abc(1)]).get_dataset_size() == 4
    # `other` already feeds `zipped`: a second pipeline needs its own source (MindSpore: "not a tree")
    assert ds.zip((abc(2), ds.NumpySlicesDataset({"d": np.arange(4)}, shuffle=False))).get_dataset_size() == 2


def test_filter_take_skip_sizes():
    even = abc().filter(lambda a: a % 2 == 0, input_columns=["a"])
    assert rows(even) == [[0, 0, 0], [2, 20, 2], [4, 40, 4]] and even.get_dataset_size() == 3
    assert rows(abc().filter(lambda a, b, c: a > 3)) == [[4, 40, 4], [5, 50, 5]]
    assert rows(abc().skip(2).take(2)) == [[2, 20, 2], [3, 30, 3]]
    assert rows(abc().repeat(2).skip(4).take(5)) == [[4, 40, 4], [5, 50, 5], [0, 0, 0], [1, 10, 1],
                                                     [2, 20, 2]]
    assert abc().take(-1).get_dataset_size() == 6 and abc().take(100).get_dataset_size() == 6
    assert abc().skip(10).get_dataset_size() == 0


def test_argument_errors():
    for call in (lambda: abc().take(0), lambda: abc().repeat(0)):
        with pytest.raises(ValueError):
            call()
    for call in (lambda: abc().skip(-1), lambda: abc().shuffle(1), lambda: abc().batch(0)):
        with pytest.raises(ValueError, match="interval"):
            call()
    with pytest.raises(TypeError, match="pad_info"):
        abc().batch(2, pad_info={})


def test_repeat_counts():
    assert abc().repeat().get_dataset_size() == 6
    assert abc().repeat(-1).get_repeat_count() == -1 and abc().repeat(3).get_repeat_count() == 3
    assert abc().get_repeat_count() == 1
    endless = abc(2).repeat().create_tuple_iterator(output_numpy=True)
    assert [int(next(endless)[0]) for _ in range(7)] == [0, 1, 0, 1, 0, 1, 0]
    endless.stop()


def test_shuffle_buffer_is_a_permutation_and_local():
    ds.config.set_seed(3)
    data = ds.NumpySlicesDataset(np.arange(100), shuffle=False).shuffle(4)
    out = [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]
    assert sorted(out) == list(range(100)) and out != list(range(100))
    # A buffer of 4 can only move a row forward by at most 3 positions.
    assert all(position >= value - 3 for position, value in enumerate(out))


def test_split_sizes_and_fractions():
    parts = abc(10).split([3, 7], randomize=False)
    assert [rows(p) for p in parts][0] == [[0, 0, 0], [1, 10, 1], [2, 20, 2]]
    assert [p.get_dataset_size() for p in abc(10).split([0.33, 0.67], randomize=False)] == [3, 7]
    assert [p.get_dataset_size() for p in abc(10).split([0.25, 0.75], randomize=False)] == [2, 8]
    assert [p.get_dataset_size() for p in abc(10).split([0.5, 0.2, 0.3])] == [5, 2, 3]
    first, second = abc(10).split([4, 6])
    values = [r[0] for r in rows(first)] + [r[0] for r in rows(second)]
    assert sorted(values) == list(range(10))
    with pytest.raises(RuntimeError, match="add up"):
        abc(10).split([3, 3])
    # randomize=True shuffles a pipeline's parts too (test_shuffle_order)
    mapped = abc(10).map(lambda a: a, input_columns="a").split([3, 7], randomize=False)
    assert [rows(p)[0][0] for p in mapped] == [0, 3]


def test_output_shapes_types_and_columns():
    data = abc(10)
    assert data.batch(3).output_shapes() == [[3], [3], [3]]
    assert data.batch(3).output_types() == [np.dtype("int64")] * 3
    assert data.get_col_names() == ["a", "b", "c"]


def test_output_shapes_estimate_marks_varying_dimensions():
    def generate():
        for i in range(4):
            yield np.zeros((i % 2 + 1, 3)), np.zeros(2)
    data = ds.GeneratorDataset(generate, ["a", "b"])
    # MindSpore 2.10: [[None, 3], [2]] estimated, [[1, 3], [2]] from the first row (sporax gave [[1, 3], [2]] both)
    assert data.output_shapes(estimate=True) == [[None, 3], [2]]
    assert data.output_shapes() == [[1, 3], [2]]
    # rows of different ranks: MindSpore 2.10 RuntimeError "Inconsistent shapes, expect same shape ..."
    ranks = ds.GeneratorDataset([(np.zeros(2),), (np.zeros((2, 2)),)], ["a"], shuffle=False)
    with pytest.raises(RuntimeError, match="Inconsistent shapes"):
        ranks.output_shapes(estimate=True)


def test_type_names_match_mindspore():
    data = abc()
    assert [type(x).__name__ for x in (
        data.map(lambda x: x, input_columns="a"), data.batch(2), data.shuffle(2), data.padded_batch(2),
        data + abc(), data.zip(ds.NumpySlicesDataset({"y": [1]})),
        data.bucket_batch_by_length(["a"], [1], [1, 1]), data.repeat(2), data.take(1), data.skip(1),
        data.project("a"), data.rename("a", "z"), data.filter(lambda a: True),
    )] == ["MapDataset", "BatchDataset", "ShuffleDataset", "PaddedBatchDataset", "ConcatDataset",
          "ZipDataset", "BucketBatchByLengthDataset", "RepeatDataset", "TakeDataset",
          "SkipDataset", "ProjectDataset", "RenameDataset", "FilterDataset"]


def test_numpy_slices_of_rows_of_different_lengths():
    # MindSpore 2.10 takes a list of rows of different lengths (its padded_batch docstring example);
    # rows and padded batches recorded from it.
    dataset = ds.NumpySlicesDataset([[1], [1, 2], [1, 2, 3], [1, 2, 3, 4]], "column1", shuffle=False)
    assert [r[0].tolist() for r in dataset.create_tuple_iterator(output_numpy=True)] == \
        [[1], [1, 2], [1, 2, 3], [1, 2, 3, 4]]
    batched = dataset.padded_batch(2, True, pad_info={})
    assert [r[0].tolist() for r in batched.create_tuple_iterator(output_numpy=True)] == \
        [[[1, 0], [1, 2]], [[1, 2, 3, 0], [1, 2, 3, 4]]]
    mixed = ds.NumpySlicesDataset({"a": [[1], [1, 2]], "b": [1, 2]}, shuffle=False)
    assert [[x.tolist() for x in r] for r in mixed.create_tuple_iterator(output_numpy=True)] == [[[1], 1], [[1, 2], 2]]
    with pytest.raises(TypeError, match="nested object data"):
        ds.NumpySlicesDataset([[1], [[1, 2], [3]]], "c")


def _concat_of(*ranges):
    datasets = [ds.NumpySlicesDataset(np.arange(start, stop), ["x"], shuffle=False) for start, stop in ranges]
    concatenated = datasets[0]
    for dataset in datasets[1:]:
        concatenated = concatenated + dataset
    return concatenated


@pytest.mark.parametrize("ranges,num_shards,expected", [
    # Rows and sizes recorded from MindSpore 2.10: shard k keeps the rows whose global index is k
    # modulo num_shards, without padding.
    (((0, 5), (100, 103)), 2, [[0, 2, 4, 101], [1, 3, 100, 102]]),
    (((0, 5), (100, 103)), 3, [[0, 3, 101], [1, 4, 102], [2, 100]]),
    (((0, 4), (100, 104), (200, 202)), 3, [[0, 3, 102, 201], [1, 100, 103], [2, 101, 200]]),
    (((0, 1), (100, 106)), 4, [[0, 103], [100, 104], [101, 105], [102]]),
])
def test_concat_use_sampler_shards_the_concatenated_rows(ranges, num_shards, expected):
    for shard_id, rows in enumerate(expected):
        data = _concat_of(*ranges)
        data.use_sampler(ds.DistributedSampler(num_shards=num_shards, shard_id=shard_id, shuffle=False))
        assert [int(row[0]) for row in data.create_tuple_iterator(output_numpy=True, num_epochs=1)] == rows
        assert data.get_dataset_size() == len(rows)


def test_concat_use_sampler_errors():
    data = _concat_of((0, 4), (100, 103))
    with pytest.raises(ValueError, match="shuffle"):
        data.use_sampler(ds.DistributedSampler(2, 0, shuffle=True))
    with pytest.raises(ValueError, match="num_samples"):
        data.use_sampler(ds.DistributedSampler(2, 0, shuffle=False, num_samples=2))
    with pytest.raises(ValueError, match="replacement"):
        data.use_sampler(ds.RandomSampler(replacement=True))
    with pytest.raises(ValueError, match="num_samples"):
        data.use_sampler(ds.RandomSampler(num_samples=3))
    with pytest.raises(TypeError, match="DistributedSampler"):
        data.use_sampler(ds.SequentialSampler())
    with pytest.raises(TypeError, match="DistributedSampler"):
        data.use_sampler(None)


def test_concat_use_sampler_random_interleaves_keeping_each_datasets_order():
    # MindSpore 2.10 (its concat example): a RandomSampler interleaves the datasets' rows at
    # random, each dataset's rows in their own order, a new interleaving each epoch.
    seed = ds.config.get_seed()
    ds.config.set_seed(3)
    try:
        data = _concat_of((0, 4), (100, 103), (200, 202))
        data.use_sampler(ds.RandomSampler())
        assert data.get_dataset_size() == 9
        iterator = data.create_tuple_iterator(output_numpy=True, num_epochs=3)
        epochs = [[int(row[0]) for row in iterator] for _ in range(3)]
    finally:
        ds.config.set_seed(seed)
    for rows in epochs:
        assert sorted(rows) == [0, 1, 2, 3, 100, 101, 102, 200, 201]
        for low in (0, 100, 200):
            assert [row for row in rows if low <= row < low + 100] == sorted(row for row in rows if low <= row < low + 100)
    assert len({tuple(rows) for rows in epochs}) > 1
    assert epochs[0] != sorted(epochs[0])

"""Iterators (tuple/dict, Tensors vs NumPy, epochs, columns) and dataset.config."""
import numpy as np
import pytest

import sporax.dataset as ds


def abc(n=6):
    return ds.NumpySlicesDataset({"a": np.arange(n), "b": np.arange(n) * 10, "c": np.arange(n)},
                                 shuffle=False)


def test_tuple_and_dict_iterators():
    row = next(iter(abc()))
    assert [type(x).__name__ for x in row] == ["Tensor"] * 3 and str(row[0].dtype) == "Int64"
    batch = next(abc().batch(2).create_dict_iterator())
    assert list(batch) == ["a", "b", "c"] and batch["b"].shape == (2,)
    np.testing.assert_array_equal(batch["b"].asnumpy(), [0, 10])
    picked = next(abc().create_tuple_iterator(columns=["c", "a"], output_numpy=True))
    assert [x.tolist() for x in picked] == [0, 0]
    assert type(abc().create_tuple_iterator()).__name__ == "TupleIterator"
    assert type(abc().create_dict_iterator()).__name__ == "DictIterator"


def test_epochs_of_one_iterator():
    iterator = abc(3).create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [[int(r[0]) for r in iterator] for _ in range(2)] == [[0, 1, 2], [0, 1, 2]]
    endless = abc(2).create_tuple_iterator(output_numpy=True)
    assert [len(list(endless)) for _ in range(3)] == [2, 2, 2]


def test_strings_stay_numpy():
    data = ds.GeneratorDataset([("abc",), ("de",)], ["s"], shuffle=False)
    value = next(data.create_tuple_iterator())[0]
    assert isinstance(value, np.ndarray) and value.tolist() == "abc"


def test_each_string_row_and_batch_is_as_wide_as_its_own_text():
    # MindSpore 2.10 hands out 'ab' as <U2 and 'c' as <U1 (not the column's <U3), in both iterator modes
    data = {"text": np.array(["ab", "c", "xyz"]), "b": np.array([b"ab", b"c", b"c"])}
    for output_numpy in (True, False):
        rows = list(ds.NumpySlicesDataset(data, shuffle=False).create_dict_iterator(output_numpy=output_numpy))
        assert [str(row["text"].dtype) for row in rows] == ["<U2", "<U1", "<U3"]
        assert [str(row["b"].dtype) for row in rows] == ["|S2", "|S1", "|S1"]
    batches = list(ds.NumpySlicesDataset(data, shuffle=False).batch(2).create_tuple_iterator(output_numpy=True))
    assert [(batch[0].tolist(), str(batch[0].dtype)) for batch in batches] == [(["ab", "c"], "<U2"), (["xyz"], "<U3")]
    matrix = ds.NumpySlicesDataset({"t": np.array([["ab", "c"], ["d", "e"]])}, shuffle=False)
    assert [str(row[0].dtype) for row in matrix.create_tuple_iterator(output_numpy=True)] == ["<U2", "<U1"]


def test_config_round_trip_and_errors():
    seed, prefetch, workers = ds.config.get_seed(), ds.config.get_prefetch_size(), ds.config.get_num_parallel_workers()
    try:
        ds.config.set_seed(123)
        ds.config.set_prefetch_size(4)
        ds.config.set_num_parallel_workers(3)
        assert (ds.config.get_seed(), ds.config.get_prefetch_size(),
                ds.config.get_num_parallel_workers()) == (123, 4, 3)
        assert [int(r[0]) for r in abc(5).map(lambda a: a + 1).create_tuple_iterator(output_numpy=True)] == [1, 2, 3, 4, 5]
        for call in (lambda: ds.config.set_seed(-1), lambda: ds.config.set_prefetch_size(0),
                     lambda: ds.config.set_num_parallel_workers(0)):
            with pytest.raises(ValueError, match="range"):
                call()
        ds.config.set_debug_mode(True)
        assert [int(r[0]) for r in abc(3).map(lambda a: a * 2).create_tuple_iterator(output_numpy=True)] == [0, 2, 4]
    finally:
        ds.config.set_debug_mode(False)
        ds.config.set_seed(seed)
        ds.config.set_prefetch_size(prefetch)
        ds.config.set_num_parallel_workers(workers)



def test_dynamic_shape_flag_round_trip():
    # MindSpore 2.10: False until set; a non-bool is a TypeError with this message.
    assert ds.config.get_dynamic_shape() is False
    try:
        ds.config.set_dynamic_shape(True)
        assert ds.config.get_dynamic_shape() is True
        with pytest.raises(TypeError, match="^is_dynamic must be a boolean dtype.$"):
            ds.config.set_dynamic_shape(1)
    finally:
        ds.config.set_dynamic_shape(False)

def test_video_backend():
    # MindSpore 2.10: "CPU" by default; a non-str is a TypeError, another name a ValueError.
    assert ds.config.get_video_backend() == "CPU"
    ds.config.set_video_backend("CPU")
    assert ds.config.get_video_backend() == "CPU"
    with pytest.raises(TypeError, match="backend"):
        ds.config.set_video_backend(1)
    with pytest.raises(ValueError, match="backend"):
        ds.config.set_video_backend("cpu")
    with pytest.raises(NotImplementedError, match="Ascend"):
        ds.config.set_video_backend("Ascend")
    assert ds.config.get_video_backend() == "CPU"


def test_dataset_size_of_unknown_length_runs_pipeline_once():
    def generate():
        for i in range(7):
            yield (np.array(i),)
    data = ds.GeneratorDataset(generate, ["x"])
    assert data.get_dataset_size() == 7
    assert data.filter(lambda x: x % 2 == 0).batch(2).get_dataset_size() == 2
    assert data.filter(lambda x: x % 2 == 0).batch(2).get_batch_size() == 2


def test_reset_and_flat_map_and_apply():
    data = abc(3)
    assert data.apply(lambda d: d.batch(2)).get_dataset_size() == 2
    flat = ds.NumpySlicesDataset({"n": [1, 2]}, shuffle=False).flat_map(
        lambda n: ds.NumpySlicesDataset({"v": np.arange(int(n))}, shuffle=False))
    assert [int(r[0]) for r in flat.create_tuple_iterator(output_numpy=True)] == [0, 0, 1]
    data.reset()
    assert data.get_dataset_size() == 3


def test_user_functions_get_arrays_for_scalar_columns():
    kinds = []
    data = ds.NumpySlicesDataset({"a": np.arange(3)}, shuffle=False)
    list(data.map(lambda a: kinds.append(type(a)) or a, num_parallel_workers=1)
         .create_tuple_iterator(output_numpy=True))
    assert kinds == [np.ndarray] * 3


def test_dataset_package_needs_no_jax():
    import os
    import subprocess
    import sys
    source = os.path.join(os.path.dirname(__file__), "..", "..", "src", "sporax")
    code = (
        "import sys, types\n"
        f"package = types.ModuleType('sporax'); package.__path__ = [{source!r}]\n"
        "sys.modules['sporax'] = package\n"
        "import numpy as np, sporax.dataset as ds\n"
        "d = ds.NumpySlicesDataset({'a': np.arange(10)}, shuffle=False).map(lambda a: a * 2).batch(4)\n"
        "assert [r[0].tolist() for r in d.create_tuple_iterator(output_numpy=True)][0] == [0, 2, 4, 6]\n"
        "assert 'jax' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_init_step_and_pipeline_queries():
    data = ds.NumpySlicesDataset(np.arange(10), shuffle=False).batch(3)
    data.set_init_step(2)
    assert data.get_init_step() == 2
    assert [r[0].tolist() for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)] == [[6, 7, 8], [9]]
    assert not data.is_shuffled() and data.shuffle(3).is_shuffled()
    assert ds.NumpySlicesDataset(np.arange(10)).is_shuffled()
    assert ds.NumpySlicesDataset(np.arange(10), num_shards=2, shard_id=0).is_sharded()
    synced = data.sync_wait("c")
    assert synced.is_sync() and not data.is_sync()
    synced.disable_sync()
    # The init step of the pipeline below is inherited, as MindSpore's get_init_step does.
    assert synced.get_init_step() == 2
    assert [len(r[0]) for r in synced.create_tuple_iterator(output_numpy=True)] == [3, 1]
    assert int(ds.config.get_error_samples_mode()) == int(ds.config.ErrorSamplesMode.RETURN) == 0


# MindSpore 2.10 recorded: rows (a * 2, b) of a map over a = 0..n-1, b = 10 * a, whose function
# raises on the rows in `bad`. SKIP drops them; REPLACE drops them and, at the epoch's end, appends
# as many good rows, taken in order (cycling when there are fewer).
_ERROR_SAMPLES_CASES = [
    ("SKIP", {1, 3}, 8, [(0, 0), (4, 20), (8, 40), (10, 50), (12, 60), (14, 70)]),
    ("SKIP", set(range(8)), 8, []),
    ("REPLACE", {0, 1}, 8, [(4, 20), (6, 30), (8, 40), (10, 50), (12, 60), (14, 70), (4, 20), (6, 30)]),
    ("REPLACE", set(range(1, 7)), 8, [(0, 0), (14, 70)] * 4),
    ("REPLACE", {2, 5, 9, 10, 11, 17}, 20,
     [(0, 0), (2, 10), (6, 30), (8, 40), (12, 60), (14, 70), (16, 80), (24, 120), (26, 130), (28, 140),
      (30, 150), (32, 160), (36, 180), (38, 190), (0, 0), (2, 10), (6, 30), (8, 40), (12, 60), (14, 70)]),
]


@pytest.mark.parametrize("mode, bad, n, expected", _ERROR_SAMPLES_CASES)
def test_error_samples_mode_skip_and_replace(mode, bad, n, expected):
    def double(x):
        if int(x) in bad:
            raise ValueError(f"bad row {int(x)}")
        return x * 2

    data = ds.NumpySlicesDataset({"a": np.arange(n, dtype=np.int32), "b": np.arange(n, dtype=np.int32) * 10},
                                 shuffle=False).map(double, input_columns=["a"], num_parallel_workers=2)
    ds.config.set_error_samples_mode(getattr(ds.config.ErrorSamplesMode, mode))
    try:
        rows = [(int(a), int(b)) for a, b in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    finally:
        ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.RETURN)
    assert rows == expected


def test_error_samples_mode_replace_all_failed_and_type_check():
    def fail(x):
        raise ValueError("always")

    ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.REPLACE)
    try:
        with pytest.raises(RuntimeError, match="all data is garbage and cannot be replaced"):
            list(ds.NumpySlicesDataset(np.arange(3), shuffle=False).map(fail).create_tuple_iterator(num_epochs=1))
    finally:
        ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.RETURN)
    # MindSpore: TypeError "Argument error_samples_mode with value 1 is not of type [<enum 'ErrorSamplesMode'>], ..."
    with pytest.raises(TypeError, match=r"value 1 is not of type \[<enum 'ErrorSamplesMode'>\], but got <class 'int'>"):
        ds.config.set_error_samples_mode(1)
    assert ds.config.get_error_samples_mode() == ds.config.ErrorSamplesMode.RETURN


def test_iterator_columns_naming_a_missing_column_is_runtime_error():
    # MindSpore 2.10: create_tuple_iterator(columns=["zz"]) raises RuntimeError "... Invalid column, column
    # name: zz does not exist." (sporax raised ValueError)
    data = ds.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False)
    with pytest.raises(RuntimeError, match="column name: zz does not exist"):
        data.create_tuple_iterator(columns=["zz"], output_numpy=True)
    assert [int(r[0]) for r in data.create_tuple_iterator(columns=["x"], output_numpy=True)] == [0, 1, 2]

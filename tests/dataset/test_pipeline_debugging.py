"""Debugging a pipeline as in MindSpore 2.10: set_debug_mode's hooks (mindspore.dataset.debug), map's errors."""
import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.transforms as T
from sporax.compat import table
from sporax.dataset.core import config, debug_hooks as debug


@pytest.fixture(autouse=True)
def _restore_config(monkeypatch):
    for key in ("debug_mode", "debug_hooks", "seed", "seed_set"):
        monkeypatch.setitem(config._state, key, config._state[key])


def _rows(dataset):
    return [row[0] for row in dataset.create_tuple_iterator(output_numpy=True)]


def test_the_module_is_served_at_mindspore_dataset_debug():
    assert table.ALIASES["mindspore.dataset.debug"] == "sporax.dataset.core.debug_hooks"


def test_default_hook_prints_metadata_before_the_first_and_after_each_operation(capsys):
    ds.config.set_debug_mode(True)
    data = ds.NumpySlicesDataset({"a": np.arange(6, dtype=np.float32).reshape(2, 3)}, shuffle=False)
    rows = _rows(data.map([T.TypeCast(np.int32), lambda x: x * 2], input_columns=["a"]).take(1))
    assert rows[0].tolist() == [0, 2, 4]
    # MindSpore 2.10's output for the first row
    assert capsys.readouterr().out.splitlines()[:6] == [
        "[Dataset debugger] Print the [INPUT] of the operation [TypeCast].",
        "Column 0. The dtype is [float32]. The shape is [(3,)].",
        "[Dataset debugger] Print the [OUTPUT] of the operation [TypeCast].",
        "Column 0. The dtype is [int32]. The shape is [(3,)].",
        "[Dataset debugger] Print the [OUTPUT] of the operation [<lambda>].",
        "Column 0. The dtype is [int32]. The shape is [(3,)]."]


def test_metadata_of_scalars_lists_and_strings(capsys):
    ds.config.set_debug_mode(True, debug_hook_list=[debug.PrintMetaDataHook()])
    data = ds.NumpySlicesDataset({"a": np.arange(1)}, shuffle=False)
    assert _rows(data.map([lambda x: x + 1, lambda x: [1, 2], lambda x: "s"], input_columns=["a"]))[0] == "s"
    assert capsys.readouterr().out.splitlines() == [
        "[Dataset debugger] Print the [INPUT] of the operation [<lambda>].",
        "Column 0. The dtype is [int64]. The shape is [()].",
        "[Dataset debugger] Print the [OUTPUT] of the operation [<lambda>].",
        "Column 0. ",  # a NumPy scalar: MindSpore prints nothing after the column number
        "[Dataset debugger] Print the [OUTPUT] of the operation [<lambda>].",
        "Column 0. The type is [<class 'list'>]. The size is [2].",
        "[Dataset debugger] Print the [OUTPUT] of the operation [<lambda>].",
        "Column 0. The type is [<class 'str'>]. The size is [1]."]


def test_print_data_hook_and_a_hook_placed_by_hand(capsys):
    ds.config.set_debug_mode(True, debug_hook_list=[debug.PrintDataHook()])
    data = ds.NumpySlicesDataset({"a": np.arange(2, dtype=np.float32).reshape(1, 2), "b": np.array([1])},
                                 shuffle=False)
    _rows(data.map(lambda x, y: (x + 1, y), input_columns=["a", "b"]))
    assert capsys.readouterr().out.splitlines() == [
        "[Dataset debugger] Print the [INPUT] of the operation [<lambda>].",
        "Column 0. The data is [[0. 1.]].", "Column 1. The data is [1].",
        "[Dataset debugger] Print the [OUTPUT] of the operation [<lambda>].",
        "Column 0. The data is [[1. 2.]].", "Column 1. The data is [1]."]

    class MyHook(debug.DebugHook):
        def compute(self, *args):
            print("myhook", len(args), [type(a).__name__ for a in args[0]])
            return args

    # An empty list keeps the hooks set before; off, a hand-placed hook still runs, without a header.
    ds.config.set_debug_mode(False, debug_hook_list=[])
    data = ds.NumpySlicesDataset({"a": np.arange(1)}, shuffle=False)
    assert _rows(data.map([T.TypeCast(np.int32), MyHook(), T.TypeCast(np.float32)], input_columns=["a"])) == [0.0]
    assert capsys.readouterr().out == "myhook 1 ['ndarray']\n"
    assert isinstance(MyHook()(np.ones(2), 3), tuple)


def test_errors_and_the_seed_debug_mode_fixes(monkeypatch):
    with pytest.raises(TypeError, match="debug_hook_list is not a list."):
        ds.config.set_debug_mode(True, debug_hook_list="x")
    with pytest.raises(TypeError, match="All items in debug_hook_list must be of type DebugHook."):
        ds.config.set_debug_mode(True, debug_hook_list=["x"])
    with pytest.raises(TypeError, match="abstract"):
        debug.DebugHook()

    class NoCompute(debug.DebugHook):
        def compute(self, *args):
            return super().compute(*args)

    with pytest.raises(RuntimeError, match=r"compute\(\) is not overridden in subclass of class DebugHook."):
        NoCompute()(np.ones(1))
    # An unset seed reads 5489; a pipeline run in debug mode sets it to 1 (MindSpore 2.10).
    monkeypatch.setitem(config._state, "seed", 5489)
    monkeypatch.setitem(config._state, "seed_set", False)
    ds.config.set_debug_mode(True, debug_hook_list=[])
    assert ds.config.get_seed() == 5489
    _rows(ds.NumpySlicesDataset({"a": np.arange(2)}))
    assert ds.config.get_seed() == 1


@pytest.mark.parametrize("operations, data, builtin", [
    ("crop", None, True), ("lambda, crop", None, True), ("crop, lambda", None, True), ("typecast, crop", None, True),
    ("topil", np.ones((1, 4, 4, 7), np.float32), False), ("compose(crop)", None, True),
    ("lambda raising", None, False)])
def test_a_failing_map_names_builtin_kernels_as_mindspore_does(operations, data, builtin):
    # MindSpore 2.10: a failing C++ transform is "Exception thrown from dataset pipeline..." (debugging
    # page minddata_debug); a Python-only transform (ToPIL) or a user function is "...user defined Python function".
    import sporax.dataset.vision as vision

    def crop():
        return vision.Crop((0, 0), (8, 8))

    def fail(x):
        raise ValueError("no")

    ops = {"crop": [crop()], "lambda, crop": [lambda x: x, crop()], "crop, lambda": [crop(), lambda x: x],
           "typecast, crop": [T.TypeCast(np.int32), crop()], "topil": [vision.ToPIL()],
           "compose(crop)": [T.Compose([crop()])], "lambda raising": [fail]}[operations]
    dataset = ds.NumpySlicesDataset({"a": data if data is not None else np.ones((1, 3, 4, 4))}, shuffle=False)
    with pytest.raises(RuntimeError) as info:
        list(dataset.map(ops, input_columns=["a"]))
    first = str(info.value).splitlines()[0]
    if builtin:
        assert first == "Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'."
        assert "failed. Crop:" in str(info.value)
    else:
        assert first == "Exception thrown from user defined Python function in dataset."


def test_autotune_prefix_is_checked_as_mindspore_checks_it(tmp_path, monkeypatch):
    # MindSpore 2.10 (tutorial page dataset/dataset_autotune: "/path/to/autotune_out" is refused).
    monkeypatch.setitem(config._state, "autotune", False)
    with pytest.raises(TypeError, match="json_filepath must be a str value but was: 5."):
        ds.config.set_enable_autotune(False, 5)
    ds.config.set_enable_autotune(False, "/path/to/x")  # not checked when disabling
    assert ds.config.get_enable_autotune() is False
    with pytest.raises(RuntimeError, match=r"Invalid json_filepath parameter.  Directory </path/to> does not exist."):
        ds.config.set_enable_autotune(True, "/path/to/autotune_out")
    assert ds.config.get_enable_autotune() is True  # left on, as in MindSpore
    with pytest.raises(RuntimeError, match="is a directory, not filename."):
        ds.config.set_enable_autotune(True, str(tmp_path))
    with pytest.raises(RuntimeError, match="cannot be the empty string."):
        ds.config.set_enable_autotune(True, "")
    ds.config.set_enable_autotune(True, str(tmp_path / "autotune_out"))
    ds.config.set_enable_autotune(False)

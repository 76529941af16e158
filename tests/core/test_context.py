"""set_context / get_context, modes, device targets and the auto parallel context (MindSpore 2.10 keys and errors)."""
import warnings

import pytest

from sporax.core import context


@pytest.fixture(autouse=True)
def restore_context():
    saved, requested = dict(context._context), dict(context._requested)
    yield
    context._context.clear()
    context._context.update(saved)
    context._requested.update(requested)
    context.reset_auto_parallel_context()
    context.reset_ps_context()


def test_constants():
    assert (context.GRAPH_MODE, context.PYNATIVE_MODE) == (0, 1)
    assert (context.STRICT, context.COMPATIBLE, context.LAX) == (0, 1, 2)
    assert context.ParallelMode.DATA_PARALLEL == "data_parallel"
    assert context.ParallelMode.MODE_LIST == ["stand_alone", "data_parallel", "hybrid_parallel",
                                              "semi_auto_parallel", "auto_parallel"]


def test_defaults():
    assert context.get_context("mode") == context.PYNATIVE_MODE
    assert context.get_context("device_target") in ("CPU", "GPU")
    assert context.get_context("device_id") == 0
    assert context.get_context("max_call_depth") == 1000
    assert context.get_context("jit_syntax_level") == context.LAX
    assert context.get_context("save_graphs_path") == "."


def test_set_mode_and_stored_keys():
    context.set_context(mode=context.GRAPH_MODE, max_call_depth=2000, save_graphs=True, pynative_synchronize=True)
    assert context.get_context("mode") == 0 and context.get_mode() == 0
    assert context.get_context("max_call_depth") == 2000
    assert context.get_context("save_graphs") == 2
    assert context.get_context("pynative_synchronize") is True
    context.set_context(jit_config={"jit_level": "O1"})
    assert context.get_context("jit_level") == "O1"


@pytest.mark.parametrize("kwargs, error, message", [
    ({"foo": 1}, ValueError, "the keyword argument foo is not recognized"),
    ({"mode": 5}, ValueError, r"context.GRAPH_MODE \(0\) or context.PYNATIVE_MODE \(1\)"),
    ({"mode": "x"}, TypeError, "The parameter 'mode' must be"),
    ({"device_target": "TPU"}, ValueError, "must be one of \\['CPU', 'GPU', 'Ascend', 'Davinci'\\]"),
    ({"device_id": -1}, ValueError, r"must be in range \[0, 4095\]"),
    ({"device_id": "1"}, TypeError, "The parameter 'device_id' must be"),
    ({"save_graphs": 5}, ValueError, "save_graphs should be 0-3"),
    ({"precision_mode": "x"}, ValueError, "through parameter ascend_config"),
])
def test_set_context_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        context.set_context(**kwargs)


def test_memory_and_path_keys_read_back_as_mindspore(tmp_path, monkeypatch):
    # Recorded on MindSpore 2.10 (CPU target): the defaults; the device-specific keys are ignored with a
    # warning; the level reads back as a number, the graphs path as the absolute (created) directory.
    defaults = {"mempool_block_size": 1.0, "max_device_memory": 1024.0, "variable_memory_max_size": "0",
                "memory_optimize_level": 0, "save_graphs_path": ".", "print_file_path": "", "ascend_config": {},
                "disable_format_transform": False, "env_config_path": ""}
    assert {key: context.get_context(key) for key in defaults} == defaults
    monkeypatch.chdir(tmp_path)
    (tmp_path / "env.json").write_text("{}")
    context.set_context(device_target="CPU")
    context.set_context(mempool_block_size="2GB", max_device_memory="3.5GB", variable_memory_max_size="4GB",
                        memory_optimize_level="O1", save_graphs_path="./g", print_file_path="p.log",
                        ascend_config={"precision_mode": "force_fp16"}, disable_format_transform=True,
                        env_config_path="env.json")
    assert {key: context.get_context(key) for key in defaults} == {
        **defaults, "memory_optimize_level": 1, "save_graphs_path": str(tmp_path.resolve() / "g"),
        "env_config_path": "env.json"}
    assert (tmp_path / "g").is_dir()
    # On the GPU the sizes read back in GB (MindSpore's reading of "NGB"); print_file_path and ascend_config stay
    # Ascend-only; disable_format_transform is the GPU's.
    context._context["device_target"] = "GPU"
    context.set_context(mempool_block_size="2GB", max_device_memory="3.5GB", print_file_path="p.log",
                        ascend_config={"precision_mode": "force_fp16"}, disable_format_transform=True)
    assert (context.get_context("mempool_block_size"), context.get_context("max_device_memory"),
            context.get_context("print_file_path"), context.get_context("ascend_config"),
            context.get_context("disable_format_transform")) == (2.0, 3.5, "", {}, True)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"memory_optimize_level": "O2"}, ValueError, "For 'context.set_context', the argument 'memory_optimize_level' "
                                                  "must be one of ['O0', 'O1'], but got O2."),
    ({"save_graphs_path": ""}, ValueError, "For 'context.set_context', the 'save_graphs_path' or the "
                                           "'print_file_path' is invalid type, it should be Non-empty string, "
                                           "but got ''."),
    ({"save_graphs_path": 3}, TypeError, "The parameter 'save_graphs_path' must be <class 'str'>, but got "
                                         "<class 'int'>"),
    ({"disable_format_transform": "x"}, TypeError, "The parameter 'disable_format_transform' must be "
                                                   "<class 'bool'>, but got <class 'str'>"),
    ({"env_config_path": 3}, TypeError, "The parameter 'env_config_path' must be <class 'str'>, but got "
                                        "<class 'int'>"),
    ({"env_config_path": "/no/such/env.json"}, ValueError, "For 'context.set_context', the 'env_config_path' file "
                                                           "'/no/such/env.json' is not exists, please check whether "
                                                           "'env_config_path' is correct.")])
def test_memory_and_path_key_errors_are_mindspores(kwargs, error, message):
    with pytest.raises(error) as info:
        context.set_context(**kwargs)
    assert str(info.value) == message


def test_get_context_unknown_key():
    with pytest.raises(ValueError, match="the argument foo is not recognized"):
        context.get_context("foo")


def test_unavailable_device_target_falls_back_with_one_warning(monkeypatch):
    monkeypatch.setattr(context, "_device_warned", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        context.set_context(device_target="Ascend")
        context.set_context(device_target="Ascend")
        context.set_device("Ascend")
    messages = [str(w.message) for w in caught if "device_target" in str(w.message)]
    assert len(messages) == 1 and "Ascend" in messages[0]
    assert context.get_context("device_target") in ("CPU", "GPU")


def test_cpu_target_and_set_device():
    context.set_device("CPU", 0)
    assert context.get_context("device_target") == "CPU" and context.get_context("device_id") == 0
    with pytest.raises(ValueError, match=r"must be one of \['CPU', 'GPU', 'Ascend'\]"):
        context.set_device("TPU")


def test_auto_parallel_context():
    assert context.get_auto_parallel_context("parallel_mode") == "stand_alone"
    assert context.get_auto_parallel_context("device_num") == 1
    context.set_auto_parallel_context(parallel_mode=context.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                      device_num=8)
    assert context.get_auto_parallel_context("parallel_mode") == "data_parallel"
    assert context.get_auto_parallel_context("gradients_mean") is True
    assert context.get_auto_parallel_context("device_num") == 8
    context.reset_auto_parallel_context()
    assert context.get_auto_parallel_context("parallel_mode") == "stand_alone"
    with pytest.raises(ValueError, match="parallel_mode' only support"):
        context.set_auto_parallel_context(parallel_mode="DATA_PARALLEL")
    with pytest.raises(ValueError, match="Set context keyword foo is not recognized"):
        context.set_auto_parallel_context(foo=1)
    with pytest.raises(ValueError, match="Get context keyword foo is not recognized"):
        context.get_auto_parallel_context("foo")
    with pytest.raises(ValueError, match="'device_num' must be a positive integer"):
        context.set_auto_parallel_context(device_num=0)
    with pytest.raises(TypeError, match="'gradients_mean' must be"):
        context.set_auto_parallel_context(gradients_mean=1)


def test_ps_context():
    assert context.get_ps_context("enable_ps") is False
    with pytest.raises(ValueError, match="Set PS context keyword foo"):
        context.set_ps_context(foo=1)
    with pytest.raises(NotImplementedError, match="parameter-server"):
        context.set_ps_context(enable_ps=True)
    import sporax  # noqa: PLC0415
    sporax.reset_ps_context()  # mindspore.reset_ps_context (its docstring example): the defaults again
    assert sporax.reset_ps_context is context.reset_ps_context and context.get_ps_context("enable_ps") is False


def test_seed_reexports():
    from sporax.core.random_state import get_seed, set_seed

    assert context.set_seed is set_seed and context.get_seed is get_seed

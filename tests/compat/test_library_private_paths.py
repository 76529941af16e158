"""The private and legacy MindSpore paths that ecosystem libraries (mindformers) import, served by the hook.

Behaviour recorded with MindSpore 2.10 on CPU in one process (no ``init``).
"""
import numpy as np
import pytest

import sporax

from tests.compat.test_hook import hook  # noqa: F401  (the shared install/uninstall fixture)


def test_auto_generate_serves_the_new_primitives(hook):
    from mindspore.ops.auto_generate import (CumsumExt, FusedAddTopKDiv, GroupedMatmul, MoeFinalizeRouting, Outer,
                                             StackExt, Swiglu)
    from mindspore.ops.auto_generate.gen_ops_prim import Swiglu as prim_swiglu
    from mindspore.ops.operations._infer_ops import QuantV2

    import sporax.ops.operations as P
    assert (CumsumExt, GroupedMatmul, Outer, StackExt, Swiglu) == (P.CumsumExt, P.GroupedMatmul, P.Outer, P.StackExt,
                                                                   P.Swiglu)
    assert prim_swiglu is Swiglu and QuantV2 is P.QuantV2 and MoeFinalizeRouting is P.MoeFinalizeRouting
    with pytest.raises(NotImplementedError, match="FusedAddTopKDiv"):
        FusedAddTopKDiv()(None, None, 1, 1, 1, 1)


def test_private_modules_answer_as_mindspore_in_one_process(hook):
    from mindspore._c_expression import MSContext, is_reboot_node
    from mindspore.common.api import flops_collection
    from mindspore.common.file_system import mindio_preload, set_mindio_server_info
    from mindspore.communication._comm_helper import _get_group_map, _is_initialized
    from mindspore.ops._grad_experimental.grad_comm_ops import get_squared_device_local_norm_param
    from mindspore.parallel._cost_model_context import _set_rp_matmul_mem_coef
    from mindspore.train.callback._checkpoint import CheckpointManager
    from mindspore.utils import stress_detect

    assert MSContext.get_instance().get_ascend_soc_version() == "" and is_reboot_node() is False
    assert _is_initialized() is False and _get_group_map() == {}
    assert mindio_preload("/tmp/x.ckpt") is False and set_mindio_server_info(10) is None
    with pytest.raises(TypeError, match="The 'data_block_pool_capacity_in_gb' must be int, but got 'dict'"):
        set_mindio_server_info({})
    assert _set_rp_matmul_mem_coef(0.1) is None
    with pytest.raises(ValueError, match="'dump_device_local_norm' is False"):
        get_squared_device_local_norm_param()
    with pytest.raises(RuntimeError, match="Stress detection is not supported"):
        stress_detect()
    assert stress_detect("bad") == 1
    with pytest.raises(RuntimeError):  # MindSpore on CPU: "The pointer[graph] is null."
        flops_collection()
    manager = CheckpointManager()
    assert manager.ckpoint_num == 0 and manager.ckpoint_filelist == []


def test_micro_batch_and_vision_base_dataset(hook):
    from mindspore import Tensor
    from mindspore.dataset import Dataset, VisionBaseDataset
    from mindspore.mint.distributed import all_gather_object, all_to_all_single  # noqa: F401
    from mindspore.nn.wrap.cell_wrapper import _MicroBatch

    # MindSpore 2.10: _MicroBatch(2)(1, x(4, 2), y(4,)) -> the second halves, as a tuple.
    x, y = Tensor(np.arange(1.0, 9.0, dtype=np.float32).reshape(4, 2)), Tensor(np.array([1, 2, 3, 4]))
    first, second = _MicroBatch(2)(1, x, y)
    assert first.asnumpy().tolist() == [[5.0, 6.0], [7.0, 8.0]] and second.asnumpy().tolist() == [3, 4]
    with pytest.raises(ValueError, match=r"0th dimension shape of input\(2\) must be divided by micro size\(3\)"):
        _MicroBatch(3)(0, Tensor(np.ones((2, 2), np.float32)))
    assert issubclass(VisionBaseDataset, Dataset)
    with pytest.raises(NotImplementedError, match="parse"):
        VisionBaseDataset.parse(None)


def test_amp_strategy_names_mindone_imports(hook):
    """mindone's diffusers imports AmpLevel/create_amp_strategy from mindspore._c_expression.amp at load;
    MindSpore 2.10's values: AmpO3 == 3, AmpAuto == 4, an O0 strategy gives back its level, dtype and lists,
    and no strategy is in force. Levels sporax's compiler would not apply raise NotImplementedError."""
    import mindspore as ms
    from mindspore._c_expression.amp import AmpLevel, create_amp_strategy, get_curr_amp_strategy

    assert (int(AmpLevel.AmpO3), AmpLevel.AmpAuto.value, repr(AmpLevel.AmpO3)) == (3, 4, "<AmpLevel.AmpO3: 3>")
    strategy = create_amp_strategy(AmpLevel.AmpO0, ms.float16, [], [])
    assert strategy.get_amp_level() == AmpLevel.AmpO0 and strategy.get_amp_dtype() == ms.float16
    assert strategy.get_white_list() == [] and strategy.get_black_list() == []
    assert get_curr_amp_strategy() is None
    with pytest.raises(NotImplementedError, match="auto_mixed_precision"):
        create_amp_strategy(AmpLevel.AmpO3, ms.bfloat16, [], [])


def test_function_forbid_reuse_marks_functions(hook):
    """mindone decorates its dropout with mindspore.common.api._function_forbid_reuse (MindSpore 2.10: the
    function comes back marked; anything else is a TypeError with this text)."""
    from mindspore.common.api import _function_forbid_reuse

    def dropout_like(x):
        return x

    assert _function_forbid_reuse(dropout_like) is dropout_like and dropout_like.__function_forbid_reuse__ is True
    with pytest.raises(TypeError, match="Decorator _function_forbid_reuse can only be used for function type, "
                                        "but got 3."):
        _function_forbid_reuse(3)


def test_interpolate_ext_size_helpers(hook):
    """mindone's video interpolate calls the private size helpers of interpolate_ext (MindSpore 2.10 values)."""
    from mindspore import Tensor
    from mindspore.ops.function.nn_func import _interploate_ext_make_tuple as make_tuple
    from mindspore.ops.function.nn_func import _interpolate_ext_scale_factor_convert_size as to_size

    x, x3 = Tensor(np.zeros((1, 2, 5, 7), np.float32)), Tensor(np.zeros((1, 2, 5, 7, 3), np.float32))
    assert (make_tuple(x, 2), make_tuple(x, [3, 4]), make_tuple(x3, 1.5), make_tuple(x, (1,))) == \
        ((2, 2), [3, 4], (1.5, 1.5, 1.5), (1,))
    sizes = to_size(x, (1.5, 2.0))
    assert (sizes, to_size(x3, (0.5, 1.3, 2.4)), to_size(x, (2.0,))) == ((7, 14), (2, 9, 7), (10,))
    assert type(sizes[0]) is int


def test_param_info_and_manually_defined_paths(hook):
    """mindnlp 0.4 builds `_c_expression.ParamInfo()` for its Parameter and stores a hook on
    `ops.operations.manually_defined.ops_def` (MindSpore 2.10: the defaults below, attributes writable)."""
    import mindspore
    from mindspore._c_expression import ParamInfo
    from mindspore.ops.operations.manually_defined import Cast

    info = ParamInfo()
    assert (info.name, info.requires_grad, info.layerwise_parallel, info.parallel_optimizer) == \
        ("Parameter", True, False, True)
    info.name, info.requires_grad = "w", False
    assert (info.name, info.requires_grad) == ("w", False)
    assert Cast is mindspore.ops.Cast
    # reached as attributes, as mindnlp does
    assert mindspore.ops.operations.manually_defined.ops_def.__name__ == "mindspore.ops.operations.manually_defined.ops_def"

    def infer_value_hook(x, shape):
        return None

    ops_def = mindspore.ops.operations.manually_defined.ops_def
    ops_def.infer_value_for_BroadcastTo = infer_value_hook
    assert ops_def.infer_value_for_BroadcastTo is infer_value_hook
    import sporax.ops.operations as operations
    assert "infer_value_for_BroadcastTo" not in vars(operations)  # the store stays on the MindSpore path


def test_python_transform_helpers(hook):
    """``mindspore.dataset.vision.py_transforms_util``'s array checks (mindarmour's perturbations import them);
    results and errors recorded with MindSpore 2.10."""
    from PIL import Image
    from mindspore.dataset.vision.py_transforms_util import hwc_to_chw, is_numpy, is_pil

    image = Image.new("RGB", (2, 2))
    assert (is_numpy(np.zeros(2)), is_numpy([1]), is_numpy(image)) == (True, False, False)
    assert (is_pil(image), is_pil(np.zeros(2))) == (True, False)
    hwc = np.arange(24, dtype=np.uint8).reshape(2, 3, 4)
    chw = hwc_to_chw(hwc)
    assert chw.shape == (4, 2, 3) and chw.dtype == np.uint8 and chw.flags["C_CONTIGUOUS"]
    np.testing.assert_array_equal(chw, hwc.transpose(2, 0, 1))
    assert hwc_to_chw(np.arange(6).reshape(2, 3)).tolist() == [[0, 1, 2], [3, 4, 5]]
    for bad, message in (([1, 2], "img should be NumPy array. Got <class 'list'>."),
                         (np.zeros((1, 2, 3, 4)), "img dimension should be 2 or 3. Got 4."),
                         (np.zeros(3), "img dimension should be 2 or 3. Got 1."),
                         (image, "img should be NumPy array. Got <class 'PIL.Image.Image'>.")):
        with pytest.raises(TypeError) as info:
            hwc_to_chw(bad)
        assert str(info.value) == message
    with pytest.raises(ImportError, match="random_affine"):  # the module's other helpers are not served
        from mindspore.dataset.vision.py_transforms_util import random_affine  # noqa: F401


def test_amp_builders_that_mindarmour_calls(hook):
    """``mindspore.train.amp``'s ``_config_level``/``_add_loss_network``/``_do_keep_batchnorm_fp32`` and
    ``nn.wrap.loss_scale._grad_overflow`` (mindarmour's privacy Models build their train Cells with them);
    values recorded with MindSpore 2.10."""
    import mindspore as ms
    from mindspore import Tensor, nn
    from mindspore.nn.wrap.loss_scale import _grad_overflow
    from mindspore.train.amp import _add_loss_network, _config_level, _do_keep_batchnorm_fp32

    assert {level: (settings["keep_batchnorm_fp32"], settings["cast_model_type"],
                    type(settings["loss_scale_manager"]).__name__) for level, settings in _config_level.items()} == {
        "O0": (False, ms.float32, "NoneType"), "O1": (False, ms.float32, "NoneType"),
        "O2": (True, ms.float16, "DynamicLossScaleManager"), "O3": (False, ms.float16, "NoneType"),
        "auto": (False, ms.float32, "NoneType")}
    with pytest.raises(TypeError) as info:
        _add_loss_network(nn.Dense(2, 2), "x", ms.float32)
    assert str(info.value) == "The type of 'loss_fn' should be 'Cell', but got type 'str'."
    plain = _add_loss_network(nn.Dense(2, 2), nn.MSELoss(), ms.float32)
    assert type(plain).__name__ == "WithLossCell" and [p.name for p in plain.trainable_params()] == ["weight", "bias"]
    dense = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
    dense.to_float(ms.float16)
    half = _add_loss_network(dense, nn.MSELoss(), ms.float16)
    assert [p.name for p in half.trainable_params()] == ["weight", "bias"]
    loss = half(Tensor(np.array([[1.0, 2.0]]), ms.float16), Tensor(np.array([[1.0, 1.0]]), ms.float16))
    assert loss.dtype == ms.float32 and float(loss.asnumpy()) == 4.0  # mean((3 - 1)^2)
    net = nn.SequentialCell([nn.Conv2d(1, 2, 1), nn.BatchNorm2d(2)])
    net.to_float(ms.float16)
    assert _do_keep_batchnorm_fp32(net) is None
    assert net(Tensor(np.ones((1, 1, 2, 2)), ms.float16)).dtype == ms.float16
    assert [p.name for p in net.trainable_params()] == ["0.weight", "1.gamma", "1.beta"]
    # MindSpore 2.10's FloatStatus has no CPU kernel; sporax answers as on GPU/Ascend: 1.0 on inf/NaN.
    flags = [float(_grad_overflow(Tensor(np.array(values, np.float32))).asnumpy()[0])
             for values in ([1.0, 2.0], [1.0, np.inf], [np.nan, 1.0])]
    assert flags == [0.0, 1.0, 1.0]


class _AddTwice(sporax.nn.Cell):
    def construct(self, x, y):
        return x * 2 + y


class _AddOne(sporax.nn.Cell):
    def construct(self, x):
        return x + 1


class _CallsUndefined(sporax.nn.Cell):
    def construct(self, x):
        return undefined_name(x)  # noqa: F821  (the graph-syntax error compile must raise)


def test_cell_graph_executor_compiles_and_runs_as_mindspores_tests_do(hook):
    """MindSpore's tests/st/ops_common.py: ``_cell_graph_executor.compile(net, *inputs)`` then a call of the handle.
    Recorded on MindSpore 2.10 (CPU, PyNative context): compile returns ``(phase, True)``, ``(phase, False)`` when
    compiled before; the phase is ``predict.<create_time>.<id>.<arguments key>``; a new input signature is a new
    key; an uncompiled Cell's call raises KeyError; a graph-syntax error raises at compile."""
    from mindspore import Tensor
    from mindspore.common.api import _cell_graph_executor

    net = _AddTwice()
    x, y = Tensor(np.ones((2, 3), np.float32)), Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    phase, compiled_now = _cell_graph_executor.compile(net, x, y)
    assert compiled_now is True and phase.startswith(f"predict.{net.create_time}.{id(net)}.")
    assert _cell_graph_executor.has_compiled(phase) and not _cell_graph_executor.has_compiled("predict.0.0.0")
    assert _cell_graph_executor.compile(net, x, y) == (phase, False)
    np.testing.assert_allclose(_cell_graph_executor(net, x, y).asnumpy(), np.ones((2, 3)) * 2 + y.asnumpy())
    other_phase, compiled_now = _cell_graph_executor.compile(net, x, y, phase="train")
    assert compiled_now and other_phase.startswith("train.") and other_phase.split(".")[1:] == phase.split(".")[1:]
    # ops_common's build_construct_graph: the handle given the tuple of inputs. MindSpore 2.10 runs a one-input
    # graph on the tuple's first element and refuses a two-input graph (RuntimeError "Parameter[1] has no default
    # param").
    single = _AddOne()
    assert _cell_graph_executor.compile(single, x)[1]
    np.testing.assert_array_equal(_cell_graph_executor(single, (y, x)).asnumpy(), y.asnumpy() + 1)
    with pytest.raises(RuntimeError, match=r"Parameter\[1\] has no default param"):
        _cell_graph_executor(net, (x, y))
    with pytest.raises(KeyError, match="graph is not exist"):
        _cell_graph_executor(_AddTwice(), x, y)
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'y'"):
        _cell_graph_executor.compile(_AddTwice(), x)  # MindSpore: "The parameters number ... is 2, but ... 1."
    with pytest.raises(AttributeError, match="does not have method construct"):
        _cell_graph_executor.compile(lambda value: value, x)
    with pytest.raises(NameError, match="undefined_name"):
        _cell_graph_executor.compile(_CallsUndefined(), x)


def test_graph_seed_and_loss_scale_grad_scale(hook, monkeypatch):
    """``mindspore.common.seed._get_graph_seed`` and ``mindspore.nn.wrap.loss_scale``'s ``grad_scale`` (bound to
    the pipeline version: three Tensors) and ``_grad_scale``, as MindSpore 2.10 answers them."""
    import mindspore as ms
    from mindspore import Parameter, Tensor
    from mindspore.common.seed import _get_graph_seed
    from mindspore.nn.wrap.loss_scale import _grad_scale, grad_scale

    from sporax.core import random_state

    monkeypatch.setattr(random_state, "_seed", None)  # no set_seed yet in this process, as MindSpore was recorded
    kernel = "private_paths_kernel"
    assert [_get_graph_seed(seed, kernel) for seed in (0, 5, None)] == [(0, 0), (0, 5), (0, 0)]
    ms.set_seed(3)
    assert [_get_graph_seed(seed, kernel) for seed in (0, 5, None, 0)] == [(3, 0), (3, 5), (3, 533697028),
                                                                            (3, 1067394056)]
    with pytest.raises(ValueError, match=f"For '{kernel}', the 'seed' must be int and must >= 0, but got '-1'"):
        _get_graph_seed(-1, kernel)
    scale, grad = Tensor(np.float32(4)), Tensor(np.array([1.0, 2.0], np.float32))
    accumulated = Parameter(Tensor(np.array([8.0, -4.0], np.float32)), name="accumulated")
    np.testing.assert_array_equal(grad_scale(scale, grad, accumulated).asnumpy(), [2.0, -1.0])
    np.testing.assert_array_equal(accumulated.asnumpy(), [0.0, 0.0])
    halved = _grad_scale(scale, Tensor(np.array([1.0, 2.0], np.float16)))
    assert halved.dtype == ms.float16 and halved.asnumpy().tolist() == [0.25, 0.5]


def test_paths_mindspore_st_tests_import(hook):
    """MindSpore's own st tests import these (train/test_data_sink, train/test_callback); both exist in 2.10."""
    from mindspore.train.data_sink import data_sink
    from mindspore.train.callback import _CallbackManager

    assert data_sink is sporax.data_sink
    assert _CallbackManager is sporax.train.callback.CallbackList

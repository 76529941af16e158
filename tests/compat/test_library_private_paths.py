"""The private and legacy MindSpore paths that ecosystem libraries (mindformers) import, served by the hook.

Behaviour recorded with MindSpore 2.10 on CPU in one process (no ``init``).
"""
import numpy as np
import pytest

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

"""mint.distributed's process-group queries answer for one process before init, as MindSpore 2.10's
(recorded there: is_available() True, is_initialized() False, get_rank() 0, get_world_size() 1)."""
import pytest

from sporax.mint import distributed
from tests.compat.test_hook import hook  # noqa: F401 - the shared install/uninstall fixture


def test_queries_before_init_answer_for_one_process(monkeypatch):
    monkeypatch.delenv("RANK_ID", raising=False)
    monkeypatch.delenv("RANK_SIZE", raising=False)
    assert distributed.is_available() is True
    assert distributed.is_initialized() is False
    assert distributed.get_rank() == 0 and distributed.get_world_size() == 1


def test_queries_before_init_read_the_launcher_environment(monkeypatch):
    monkeypatch.setenv("RANK_ID", "3")
    monkeypatch.setenv("RANK_SIZE", "8")
    assert distributed.get_rank() == 3 and distributed.get_world_size() == 8


def test_a_group_that_is_not_a_name_is_refused_naming_the_query():
    with pytest.raises(TypeError, match=r"^For 'get_world_size', the argument 'group' must be type of string, "
                                        r"but got 'group' type : <class 'int'>\.$"):
        distributed.get_world_size(group=5)


def test_served_at_mindspores_path(hook):
    import mindspore.mint.distributed as dist  # noqa: PLC0415 - served only while the hook is installed
    from mindspore import mint  # noqa: PLC0415

    assert dist.get_world_size is distributed.get_world_size
    assert mint.distributed.is_initialized is distributed.is_initialized


def test_collectives_in_a_world_of_one_process():
    # MindSpore 2.10's mint.distributed has PyTorch's list forms of gather and scatter beside the process-group API
    import numpy as np  # noqa: PLC0415
    from sporax import Tensor, ops  # noqa: PLC0415
    assert distributed.all_reduce is ops.all_reduce and distributed.new_group is ops.new_group
    x = Tensor(np.array([1.0, -2.0], np.float32))
    gathered = [Tensor(np.zeros(2, np.float32))]
    assert distributed.gather(x, gathered) is None
    np.testing.assert_array_equal(gathered[0].asnumpy(), [1.0, -2.0])
    received = Tensor(np.zeros(2, np.float32))
    assert distributed.scatter(received, [Tensor(np.array([3.0, 4.0], np.float32))], async_op=True).wait() is None
    np.testing.assert_array_equal(received.asnumpy(), [3.0, 4.0])
    with pytest.raises(ValueError, match="'gather', 'gather_list' needs one tensor per member"):
        distributed.gather(x, [])
    with pytest.raises(TypeError, match="'scatter', the argument 'tensor' must be a Tensor"):
        distributed.scatter([1.0], [x])


def test_ops_communication_module_at_mindspores_path(hook):
    # MindSpore 2.10's mindspore.ops.communication: the process-group API with the list forms of gather/scatter
    import mindspore.ops.communication as communication  # noqa: PLC0415 - served only while the hook is installed
    from mindspore.ops.communication import TCPStore  # noqa: PLC0415
    from sporax import ops  # noqa: PLC0415

    assert communication.all_reduce is ops.all_reduce and communication.TCPStore is TCPStore is ops.TCPStore
    assert communication.gather is distributed.gather and communication.scatter is distributed.scatter
    assert communication.gather is not ops.gather  # in mindspore.ops, gather is the array op

"""``mindspore.ops``' process-group API (``ops.all_reduce(tensor)`` & co.): a job of 2 CPU processes against
NumPy, and the one-process world with its argument checks."""
import os

import numpy as np
import pytest

from sporax import Tensor, ops
from tests.parallel.helpers import run_job

@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return run_job("process_group.py", tmp_path_factory.mktemp("process_group"))


def _inputs():
    return [np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * rank for rank in (0, 1)]


@pytest.mark.slow
def test_collectives_write_into_their_outputs_on_two_processes(results):
    a, b = _inputs()
    total = a + b
    for rank, got in enumerate(results):
        assert (got["rank"], got["size"], got["initialized"], got["backend"]) == (rank, 2, True, "mccl")
        assert got["all_reduce_handle"] is True
        np.testing.assert_array_equal(got["all_reduce"], total)
        np.testing.assert_array_equal(got["all_reduce_max"], np.maximum(a, b))
        np.testing.assert_array_equal(got["all_gather"], [a, b])
        np.testing.assert_array_equal(got["all_gather_into_tensor"], np.concatenate([a, b]))
        np.testing.assert_array_equal(got["all_gather_uneven"], np.concatenate([a[:1], b[:2]]))
        np.testing.assert_array_equal(got["reduce_scatter"], (rank + 1) * total)  # list entry i: rank i's part
        np.testing.assert_array_equal(got["reduce_scatter_tensor"], total[rank:rank + 1])
        both = np.concatenate([a, a[:1]]) + np.concatenate([b, b[:1]])
        np.testing.assert_array_equal(got["reduce_scatter_uneven"], both[:1] if rank == 0 else both[1:])
        np.testing.assert_array_equal(got["broadcast_from_1"], b)
        np.testing.assert_array_equal(got["scatter_tensor_from_1"], b[rank:rank + 1])
        np.testing.assert_array_equal(got["all_to_all"], [[a, b][0][rank:rank + 1], [a, b][1][rank:rank + 1]])
        np.testing.assert_array_equal(got["all_to_all_single"], np.stack([a[rank], b[rank]]))
        np.testing.assert_array_equal(got["isend_irecv"], [b, a][rank])
        np.testing.assert_array_equal(got["batch_isend_irecv"], [b, a][rank] + 1)
        np.testing.assert_array_equal(got["group_all_reduce"], total)
        assert got["all_gather_object"] == [[0, [0, 1]], [1, [0, 1, 2]]]
        assert got["broadcast_object_list"] == ["mine", 1]
        assert got["scatter_object_list"] == [{"to": rank}]
        assert got["new_group"][1:] == [[0, 1], 1, 0]
    # reduce and gather: only the destination's tensor changes
    np.testing.assert_array_equal(results[0]["reduce_to_1"], a)
    np.testing.assert_array_equal(results[1]["reduce_to_1"], total)
    np.testing.assert_array_equal(results[0]["gather_into_tensor_to_0"], np.concatenate([a, b]))
    np.testing.assert_array_equal(results[1]["gather_into_tensor_to_0"], np.zeros((4, 3)))
    np.testing.assert_array_equal(results[1]["list_gather_to_1"], [a, b])
    np.testing.assert_array_equal(results[0]["list_gather_to_1"], np.zeros((2, 2, 3)))
    np.testing.assert_array_equal(results[0]["list_scatter_from_0"], a)
    np.testing.assert_array_equal(results[1]["list_scatter_from_0"], 2 * a)  # rank 0's list, entry 1
    assert results[0]["gather_object"] == [["from", 0], ["from", 1]] and results[1]["gather_object"] is None
    assert results[1]["recv_return"] == 0
    np.testing.assert_array_equal(results[1]["recv"], a)
    assert results[1]["recv_object_list"] == [1.5, "two", [3]]


@pytest.mark.slow
def test_uneven_and_rooted_collective_primitives_on_two_processes(results):
    a, b = _inputs()
    for rank, got in enumerate(results):
        assert got["AllGatherV"] == [0.0, 10.0, 11.0]
        assert got["ReduceScatterV"] == [[0.0], [3.0, 6.0]][rank]  # sum of arange(3) * 1 and * 2, split [1, 2]
        assert got["AlltoAllV"] == got["AlltoAllVC"] == [[0.0, 100.0, 101.0], [1.0, 102.0]][rank]
        np.testing.assert_array_equal(got["CollectiveScatter"], b[rank:rank + 1])
        np.testing.assert_array_equal(got["BatchISendIRecv"], [b, a][rank] * 2)
    assert results[0]["Reduce"] == [0.0] and results[1]["Reduce"] == (a + b).tolist()  # others: MindSpore's [0.]
    np.testing.assert_array_equal(results[0]["CollectiveGather"], np.concatenate([a, b]))
    rights = [np.arange(12, dtype=np.float32).reshape(3, 4) + rank for rank in (0, 1)]
    products = a @ rights[0] + b @ rights[1]
    for rank, got in enumerate(results):
        output, gathered = got["all_gather_matmul"]
        np.testing.assert_allclose(output, np.concatenate([a, b]) @ rights[rank], rtol=1e-6)
        np.testing.assert_array_equal(gathered, np.concatenate([a, b]))
        np.testing.assert_allclose(got["matmul_reduce_scatter"], products[rank:rank + 1], rtol=1e-6)
    assert results[1]["CollectiveGather"] == [0.0]


def test_one_process_world_gives_each_function_its_own_input():
    x = Tensor(np.array([1.0, -2.0], np.float32))
    assert ops.all_reduce(x) is None
    np.testing.assert_array_equal(x.asnumpy(), [1.0, -2.0])
    out = Tensor(np.zeros(2, np.float32))
    assert ops.all_gather_into_tensor(out, x, async_op=True).wait() is None
    np.testing.assert_array_equal(out.asnumpy(), [1.0, -2.0])
    objects = [None]
    ops.all_gather_object(objects, {"k": [1, 2]})
    assert objects == [{"k": [1, 2]}]
    received = [None]
    ops.scatter_object_list(received, ["only"])
    assert received == ["only"]
    assert (ops.get_rank(), ops.get_world_size(), ops.is_available(), ops.new_group()) == (0, 1, True,
                                                                                           "hccl_world_group")


def test_non_inplace_mode_returns_a_new_tensor_and_refuses_where_mindspore_does():
    x = Tensor(np.array([3.0], np.float32))
    ops.set_comm_ops_inplace(False, ["all_reduce", "broadcast"])
    try:
        result, handle = ops.all_reduce(x)
        assert handle is None and result.asnumpy().tolist() == [3.0]
        with pytest.raises(ValueError, match="non-inplace mode"):
            ops.broadcast(x, 0)
    finally:
        ops.set_comm_ops_inplace(True)
    with pytest.raises(ValueError, match="func_list"):
        ops.set_comm_ops_inplace(True, ["all_gather_everything"])


def test_bad_arguments_name_the_function_and_argument():
    x = Tensor(np.zeros(2, np.float32))
    with pytest.raises(TypeError, match="'all_reduce'.*'tensor'"):
        ops.all_reduce(np.zeros(2))
    with pytest.raises(TypeError, match="'all_gather'.*one tensor per member"):
        ops.all_gather([x, x], x)
    with pytest.raises(ValueError, match="'all_gather_into_tensor'.*shape"):
        ops.all_gather_into_tensor(Tensor(np.zeros(3, np.float32)), x)
    with pytest.raises(TypeError, match="'group'"):
        ops.barrier(group=3)


def test_received_objects_can_not_run_code():
    class Sneaky:
        def __reduce__(self):
            return (os.system, ("true",))

    with pytest.raises(Exception, match="refused"):
        ops.all_gather_object([None], Sneaky())

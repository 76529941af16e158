"""The uneven and rooted collective Primitives in a world of one process, and their argument checks (the
2-process runs are in tests/parallel/test_process_group.py)."""
import numpy as np
import pytest

from sporax import Tensor, ops


def test_collective_primitives_in_a_world_of_one_process():
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    assert ops.AllGatherV()(x, [3]).asnumpy().tolist() == [1.0, 2.0, 3.0]
    assert ops.ReduceScatterV()(x, (3,)).asnumpy().tolist() == [1.0, 2.0, 3.0]
    assert ops.AlltoAllV(block_size=3)(x, [1], [1]).asnumpy().tolist() == [1.0, 2.0, 3.0]
    assert ops.AlltoAllVC()(x, [3]).asnumpy().tolist() == [1.0, 2.0, 3.0]
    assert ops.Reduce(0)(x).asnumpy().tolist() == [1.0, 2.0, 3.0]
    assert ops.CollectiveGather(0)(x).asnumpy().tolist() == [1.0, 2.0, 3.0]
    assert ops.CollectiveScatter()(x).asnumpy().tolist() == [1.0, 2.0, 3.0]
    assert ops.AllGatherV()(Tensor(np.zeros(0, np.float32)), [0]).shape == ()  # empty: a shape () tensor
    with pytest.raises(ValueError, match="'AllGatherV'.*output_split_sizes"):
        ops.AllGatherV()(x, [2])
    with pytest.raises(ValueError, match="'AlltoAllV'.*1-D"):
        ops.AlltoAllV()(Tensor(np.zeros((2, 2), np.float32)), [4], [4])
    with pytest.raises(ValueError, match="'BatchISendIRecv'.*receive_shapes"):
        ops.BatchISendIRecv(("irecv",), (0,))

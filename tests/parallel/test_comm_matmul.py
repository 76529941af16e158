"""ops.all_gather_matmul / matmul_reduce_scatter in a world of one process and their argument checks (the
2-process runs are in tests/parallel/test_process_group.py)."""
import numpy as np
import pytest

from sporax import Tensor, ops
from sporax.parallel.communication import GlobalComm


def test_one_process_products_and_options():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(3, 4)
    output, gathered = ops.all_gather_matmul(Tensor(a), Tensor(b), GlobalComm.WORLD_COMM_GROUP, 1)
    np.testing.assert_allclose(output.asnumpy(), a @ b)
    np.testing.assert_array_equal(gathered.asnumpy(), a)
    output, gathered = ops.all_gather_matmul(Tensor(a), Tensor(b.T.copy()), GlobalComm.WORLD_COMM_GROUP, 1,
                                             trans_x2=True, gather_output=False)
    np.testing.assert_allclose(output.asnumpy(), a @ b)
    assert gathered.shape == (0,)
    np.testing.assert_allclose(ops.matmul_reduce_scatter(Tensor(a), Tensor(b), GlobalComm.WORLD_COMM_GROUP,
                                                         1).asnumpy(), a @ b)


def test_arguments_are_checked():
    a = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="world_size"):
        ops.all_gather_matmul(a, Tensor(np.ones((3, 2), np.float32)), GlobalComm.WORLD_COMM_GROUP, 2)
    with pytest.raises(TypeError, match="'x2' must be a 2-D"):
        ops.matmul_reduce_scatter(a, Tensor(np.ones(3, np.float32)), GlobalComm.WORLD_COMM_GROUP, 1)
    with pytest.raises(NotImplementedError, match="bias"):
        ops.all_gather_matmul(a, Tensor(np.ones((3, 2), np.float32)), GlobalComm.WORLD_COMM_GROUP, 1, bias=a)

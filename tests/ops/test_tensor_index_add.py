"""Tensor.index_add takes both of MindSpore 2.10's argument orders and writes in place, as MindSpore does."""
import numpy as np
import pytest

import sporax as ms


def _expected(x, dim, index, source):
    result = x.copy()
    np.add.at(result, (slice(None),) * dim + (index,), source)
    return result


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_index_add_dim_index_source_order(mode):
    ms.set_context(mode=mode)
    x_np = np.arange(1, 10, dtype=np.float32).reshape(3, 3)
    index_np = np.array([0, 2], np.int32)
    source_np = np.array([[0.5, 1.0], [1.0, 1.5], [2.0, 2.5]], np.float32)
    x = ms.Parameter(ms.Tensor(x_np), name="x")
    out = x.index_add(1, ms.Tensor(index_np), ms.Tensor(source_np))
    expected = _expected(x_np, 1, index_np, source_np)
    np.testing.assert_array_equal(out.asnumpy(), expected)
    np.testing.assert_array_equal(x.asnumpy(), expected)  # MindSpore 2.10 writes into the tensor


def test_index_add_indices_y_axis_order_is_unchanged():
    x_np = np.zeros((2, 3), np.float32)
    x = ms.Tensor(x_np)
    out = x.index_add(ms.Tensor(np.array([1], np.int32)), ms.Tensor(np.ones((1, 3), np.float32)), 0)
    np.testing.assert_array_equal(out.asnumpy(), [[0, 0, 0], [1, 1, 1]])

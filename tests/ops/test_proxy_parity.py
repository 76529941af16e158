"""Gather bounds and unsorted TopK against values recorded from MindSpore 2.10 (tests/fixtures/proxy)."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor, ops

FIXTURE = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "proxy", "proxy.json")))
TABLE = np.arange(7, dtype=np.float32) * 10


def test_gather_wraps_negative_indices_like_mindspore():
    out = ops.gather(Tensor(TABLE), Tensor(np.array([0, -1, 4, -7])), 0)
    np.testing.assert_array_equal(out.asnumpy(), FIXTURE["gather_negative"])


@pytest.mark.parametrize("name,indices", [("gather_high", [0, 7]), ("gather_low", [0, -8])])
def test_gather_out_of_range_raises_runtime_error(name, indices):
    expected = FIXTURE[name].split(", error_code")[0]
    with pytest.raises(RuntimeError) as info:
        ops.gather(Tensor(TABLE), Tensor(np.array(indices)), 0)
    assert expected in str(info.value)
    with pytest.raises(RuntimeError, match="input_indices"):
        Tensor(TABLE).gather(Tensor(np.array(indices)), 0)


def test_gather_under_jit_still_compiles():
    import sporax as ms

    @ms.jit
    def take(table, indices):
        return ops.gather(table, indices, 0)

    out = take(Tensor(TABLE), Tensor(np.array([1, 2])))
    np.testing.assert_array_equal(out.asnumpy(), [10.0, 20.0])


def test_pynative_graph_difference_gather_out_of_range_inside_compiled_code_gives_zeros():
    # PyNative raises MindSpore's RuntimeError (above); inside compiled code the indices are not known
    # until run time, so an out-of-range row reads as zeros instead of raising.
    import sporax as ms

    @ms.jit
    def take(table, indices):
        return ops.gather(table, indices, 0)

    out = take(Tensor(TABLE), Tensor(np.array([9, 1])))
    np.testing.assert_array_equal(out.asnumpy(), [0.0, 10.0])


def test_topk_unsorted_whole_dimension_keeps_input_order():
    row = np.array([[5, 1, 4, 2, 3, 0.5], [1, 2, 3, 6, 5, 4]], np.float32)
    for values, indices in (ops.TopK(False)(Tensor(row), 6), ops.top_k(Tensor(row), 6, False),
                            Tensor(row).top_k(6, False)):
        np.testing.assert_array_equal(values.asnumpy(), FIXTURE["topk_unsorted_full"]["values"])
        np.testing.assert_array_equal(indices.asnumpy(), FIXTURE["topk_unsorted_full"]["indices"])
    values, indices = ops.TopK(True)(Tensor(row), 3)
    np.testing.assert_array_equal(values.asnumpy(), FIXTURE["topk_sorted"]["values"])
    np.testing.assert_array_equal(indices.asnumpy(), FIXTURE["topk_sorted"]["indices"])


class ReduceByTensorAxis(__import__("sporax").nn.Cell):
    def __init__(self):
        super().__init__()
        self.reduce_sum = ops.ReduceSum(keep_dims=False)

    def construct(self, x, axis):
        return self.reduce_sum(x, axis)


def test_reduce_axis_given_as_tensor_input_in_graph_mode():
    """MindSpore compiles a Tensor axis with a dynamic rank; sporax runs such a Cell eagerly."""
    import warnings

    import sporax as ms

    previous = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = ReduceByTensorAxis()(Tensor(x), Tensor(np.array([-1], np.int64)))
            out2 = ReduceByTensorAxis()(Tensor(x), Tensor(np.array([0, 2], np.int64)))
        np.testing.assert_array_equal(out.asnumpy(), x.sum(-1))
        np.testing.assert_array_equal(out2.asnumpy(), x.sum((0, 2)))
    finally:
        ms.set_context(mode=previous)

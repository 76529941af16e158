"""addbmm / baddbmm on MindSpore's BatchMatMul ranks, and the scaled sum's two-way broadcast."""
import numpy as np
import pytest

from sporax import ops, tensor

BATCH1 = [[8., 7., 6.], [5., 4., 3.], [2., 1., 0.]]
BATCH2 = [[5., 4., 3.], [2., 1., 0.], [8., 7., 6.]]


def test_two_dimensional_operands_as_mindspore_docstring_examples():
    # MindSpore 2.10's ops.addbmm / ops.baddbmm docstring examples, values recorded on MindSpore 2.10 (CPU).
    added = ops.addbmm(ops.ones((3, 3)), tensor(BATCH1), tensor(BATCH2))
    assert added.asnumpy().tolist() == [[172.0, 136.0, 100.0]] * 3
    batched = ops.baddbmm(ops.ones((3, 3)), tensor(BATCH1), tensor(BATCH2))
    assert batched.asnumpy().tolist() == [[103.0, 82.0, 61.0], [58.0, 46.0, 34.0], [13.0, 10.0, 7.0]]


def test_batches_of_batches_and_a_wider_input():
    # Shapes recorded on MindSpore 2.10 (CPU).
    four = np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2)
    out = ops.baddbmm(ops.ones((2, 2, 2, 2)), tensor(four[0]), tensor(four[1]))
    assert out.shape == (2, 2, 2, 2)
    np.testing.assert_allclose(out.asnumpy(), np.broadcast_to(1 + four[0] @ four[1], (2, 2, 2, 2)))
    assert ops.addbmm(ops.ones((2, 2)), tensor(four), tensor(four)).shape == (2, 2, 2)
    assert ops.addmm(ops.ones((2, 1, 2)), ops.ones((2, 2)), ops.ones((2, 2))).shape == (2, 2, 2)


def test_vectors_are_refused_by_name():
    with pytest.raises(ValueError, match="'addbmm', 'batch1' must be at least 2-D"):
        ops.addbmm(ops.ones((2,)), ops.ones((2,)), ops.ones((2,)))
    with pytest.raises(ValueError, match="'baddbmm', 'batch2' must be at least 2-D"):
        ops.baddbmm(ops.ones((2, 2)), ops.ones((2, 2)), ops.ones((2,)))

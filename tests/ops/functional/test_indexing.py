"""ops/functional/indexing: Gather's index-range check, which MindSpore's CPU kernel makes, also under an
eager ``vmap`` (MindSpore 2.10 raises the same RuntimeError there)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops

X = np.arange(12, dtype=np.float32).reshape(2, 2, 3)


def gather(x, indices, axis):
    return ops.Gather()(x, indices, axis)


def test_vmap_gather_takes_each_example_rows():
    out = ms.vmap(gather, in_axes=(0, 0, None))(Tensor(X), Tensor(np.array([[0, 1], [1, 0]], np.int32)), 0)
    np.testing.assert_array_equal(out.asnumpy(), np.stack([X[0][[0, 1]], X[1][[1, 0]]]))


@pytest.mark.parametrize("nested", [False, True])
def test_vmap_gather_rejects_an_index_out_of_range(nested):
    mapped = ms.vmap(gather, in_axes=(0, 0, None))
    indices = np.array([[0, 2], [2, 0]], np.int32)
    if nested:  # each inner example is one row of 3: index 3 is past it
        mapped = ms.vmap(mapped, in_axes=(0, 0, None))
        indices = np.array([[[0, 3], [1, 0]], [[2, 0], [0, 1]]], np.int32)
    with pytest.raises(RuntimeError, match=r"For 'Gather', the 'input_indices' should be in the range \[0, "):
        mapped(Tensor(X), Tensor(indices), 0)


def test_compiled_vmap_gather_still_runs():
    # under jit the indices are abstract, so the check steps aside instead of failing the trace
    out = ms.jit(lambda x, i: ms.vmap(gather, in_axes=(0, 0, None))(x, i, 0))(
        Tensor(X), Tensor(np.array([[0, 1], [1, 0]], np.int32)))
    np.testing.assert_array_equal(out.asnumpy(), np.stack([X[0][[0, 1]], X[1][[1, 0]]]))


# Recorded on MindSpore 2.10 CPU, PyNative, ops.gather of a (3, 4) input along axis 0: the first line of each
# RuntimeError (a negative index is reported wrapped: -4 -> -1, -5 -> -2). The long index arrays (past
# indexing._HOST_BOUNDS_SIZE) take the on-device bounds; the short ones are read on the host.
@pytest.mark.parametrize("indices, reported", [
    ([0, 3], 3), ([-4, 1], -1), ([0, 1, 2] * 30000 + [3], 3), ([2] * 70000 + [-5], -2)])
def test_eager_gather_reports_the_index_out_of_range(indices, reported):
    x = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    message = rf"^For 'Gather', the 'input_indices' should be in the range \[0, 3\), but got {reported}\.$"
    with pytest.raises(RuntimeError, match=message):
        ops.gather(x, Tensor(np.array(indices, np.int32)), 0)


@pytest.mark.parametrize("count", [2, 90000])
def test_eager_gather_takes_indices_in_range(count):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    indices = (np.arange(count) % 3 - 1).astype(np.int32)  # -1, 0, 1, ...: -1 is the last row, as in NumPy
    out = ops.gather(Tensor(x), Tensor(indices), 0)
    np.testing.assert_array_equal(out.asnumpy(), np.take(x, indices, 0))

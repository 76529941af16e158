"""tensor_split / dsplit / hsplit / vsplit at listed indices, past the end included."""
import numpy as np
import pytest

import sporax as ms
from sporax import ops


def _shapes_and_values(pieces):
    return [(tuple(piece.shape), piece.asnumpy().reshape(-1).tolist()) for piece in pieces]


def test_dsplit_indices_past_the_end_give_empty_pieces():
    # MindSpore 2.10's ops.dsplit docstring example, values recorded on MindSpore 2.10 (CPU).
    pieces = ops.dsplit(ops.arange(16.0).reshape(2, 2, 4), [3, 6])
    assert _shapes_and_values(pieces) == [
        ((2, 2, 3), [0.0, 1.0, 2.0, 4.0, 5.0, 6.0, 8.0, 9.0, 10.0, 12.0, 13.0, 14.0]),
        ((2, 2, 1), [3.0, 7.0, 11.0, 15.0]),
        ((2, 2, 0), []),
    ]
    assert all(piece.dtype == ms.float32 for piece in pieces)


@pytest.mark.parametrize("indices", [(2, 9), (3, 1), (-1,), (0,), (-9, 2)])
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_tensor_split_indices_follow_numpy_slicing(indices, mode):
    array = np.arange(10, dtype=np.float32).reshape(5, 2)
    split = (lambda x: ops.tensor_split(x, list(indices))) if mode == ms.PYNATIVE_MODE else \
        ms.jit(lambda x: ops.tensor_split(x, list(indices)))
    pieces = split(ms.Tensor(array))
    expected = np.array_split(array, list(indices), 0)
    assert _shapes_and_values(pieces) == [(e.shape, e.reshape(-1).tolist()) for e in expected]


def test_a_count_of_sections_of_an_empty_axis_gives_one_piece():
    # recorded on MindSpore 2.10 CPU: its tensor_split hands an empty axis back whole whatever the count
    # (listed indices still give len(indices) + 1 pieces)
    empty, columns = ms.Tensor(np.zeros((0,), np.float32)), ms.Tensor(np.zeros((2, 0), np.float32))
    assert _shapes_and_values(ops.tensor_split(empty, 2)) == [((0,), [])]
    assert _shapes_and_values(empty.tensor_split(2)) == [((0,), [])]
    assert _shapes_and_values(ops.tensor_split(columns, 3, axis=1)) == [((2, 0), [])]
    assert _shapes_and_values(ops.hsplit(columns, 2)) == [((2, 0), [])]
    assert _shapes_and_values(ops.vsplit(ms.Tensor(np.zeros((0, 2), np.float32)), 2)) == [((0, 2), [])]
    assert _shapes_and_values(ops.dsplit(ms.Tensor(np.zeros((1, 2, 0), np.float32)), 2)) == [((1, 2, 0), [])]
    assert len(ops.tensor_split(empty, [1, 2])) == 3
    assert len(ops.tensor_split(columns, 3, axis=0)) == 3  # the split axis is not the empty one

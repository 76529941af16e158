"""EditDistance against values recorded from MindSpore 2.10: a hypothesis index past its own shape but inside the
truth's is read (MindSpore's docs example has one); an index outside both shapes is refused."""
import numpy as np
import pytest

from sporax import Tensor, ops


def _int64(values):
    return Tensor(np.array(values, np.int64))


def test_index_past_its_own_shape_inside_the_other():
    output = ops.EditDistance()(_int64([[0, 0, 0], [1, 0, 1], [1, 1, 1]]), Tensor(np.array([1, 2, 3], np.float32)),
                                _int64([1, 1, 2]), _int64([[0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1]]),
                                Tensor(np.array([1, 3, 2, 1], np.float32)), _int64([2, 2, 2]))
    np.testing.assert_array_equal(output.asnumpy(), [[1.0, 1.0], [1.0, 1.0]])  # MindSpore 2.10's result


def test_index_outside_both_shapes_is_refused():
    with pytest.raises(ValueError, match="EditDistance.*hypothesis index lies outside the shapes"):
        ops.EditDistance()(_int64([[0, 0, 5]]), Tensor(np.array([1], np.float32)), _int64([1, 1, 2]),
                           _int64([[0, 0, 0]]), Tensor(np.array([1], np.float32)), _int64([1, 1, 2]))

"""``ops.SparseTensorDenseMatmul``: an op added as one op-table entry, against MindSpore 2.10's outputs.

The expected matrices were printed by MindSpore 2.10 (CPU) for these inputs.
"""
import numpy as np
import pytest

from sporax import Tensor, ops

INDICES = Tensor(np.array([[0, 1], [1, 2]], np.int32))
VALUES = Tensor(np.array([1.0, 2.0], np.float32))
DENSE = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))


@pytest.mark.parametrize("attrs, shape, dense, expected", [
    ({}, (3, 3), DENSE, [[4, 5, 6, 7], [16, 18, 20, 22], [0, 0, 0, 0]]),
    ({"adjoint_st": True}, (3, 3), DENSE, [[0, 0, 0, 0], [0, 1, 2, 3], [8, 10, 12, 14]]),
    # MindSpore does not check the sparse width against the dense height: the product uses the columns
    # the entries name.
    ({"adjoint_dt": True}, (3, 4), Tensor(np.arange(12, dtype=np.float32).reshape(4, 3)),
     [[1, 4, 7, 10], [4, 10, 16, 22], [0, 0, 0, 0]]),
])
def test_values_match_mindspore(attrs, shape, dense, expected):
    output = ops.SparseTensorDenseMatmul(**attrs)(INDICES, VALUES, shape, dense)
    np.testing.assert_array_equal(output.asnumpy(), np.array(expected, np.float32))
    assert ops.SparseTensorDenseMatmul(**attrs).attrs["adjoint_st"] == attrs.get("adjoint_st", False)


def test_bad_shapes_name_the_primitive():
    with pytest.raises(ValueError, match="SparseTensorDenseMatmul"):
        ops.SparseTensorDenseMatmul()(INDICES, VALUES, (3, 3, 1), DENSE)

"""ops.UniqueConsecutive against values recorded from MindSpore 2.10."""
import numpy as np
import pytest

from sporax import Tensor, ops


def test_unique_consecutive_flattened_and_along_a_dim():
    output, inverse, counts = ops.UniqueConsecutive(True, True)(Tensor(np.array([1, 1, 2, 2, 3, 1, 1], np.int32)))
    assert output.asnumpy().tolist() == [1, 2, 3, 1] and output.dtype == Tensor(np.int32(0)).dtype
    assert inverse.asnumpy().tolist() == [0, 0, 1, 1, 2, 3, 3] and counts.asnumpy().tolist() == [2, 2, 1, 2]
    output, inverse, counts = ops.UniqueConsecutive(True, True, 0)(Tensor(np.array([[1, 1], [1, 1], [2, 3]],
                                                                                   np.int32)))
    assert output.asnumpy().tolist() == [[1, 1], [2, 3]]
    assert inverse.asnumpy().tolist() == [0, 0, 1] and counts.asnumpy().tolist() == [2, 1]
    assert str(inverse.dtype) == str(counts.dtype) == "Int64"


def test_unique_consecutive_checks_its_arguments():
    with pytest.raises(TypeError, match="'return_inverse'"):
        ops.UniqueConsecutive(return_inverse=1)

"""ops.crop_and_resize's errors (its values and gradients: tests/ops/test_op_table.py), ops.unique_with_pad."""
import numpy as np
import pytest

from sporax import Tensor, ops


def test_crop_and_resize_refuses_an_unknown_method():
    with pytest.raises(ValueError, match="method"):
        ops.crop_and_resize(Tensor(np.zeros((1, 2, 2, 1), np.float32)), Tensor(np.zeros((1, 4), np.float32)),
                            Tensor(np.zeros(1, np.int32)), (1, 1), method="cubic")

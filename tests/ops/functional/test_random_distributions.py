"""random_poisson's argument checks as MindSpore 2.10 makes them (TypeError for a Bool ``rate`` or ``dtype``), and
the dtypes it accepts."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops


@pytest.mark.parametrize("rate_dtype", [ms.float16, ms.float32, ms.float64, ms.int32, ms.int64])
@pytest.mark.parametrize("dtype", [ms.float16, ms.float32, ms.float64, ms.int32, ms.int64])
def test_random_poisson_accepted_dtypes(rate_dtype, dtype):
    out = ops.random_poisson(Tensor(np.array([3, 2]), ms.int32), Tensor(np.array([[5.0, 10.0]]), rate_dtype), seed=5,
                             dtype=dtype)
    assert out.shape == (3, 2, 1, 2) and out.dtype == dtype
    assert (out.asnumpy() >= 0).all()


def test_random_poisson_refuses_bool_rate_and_dtype():
    shape = Tensor(np.array([3, 5]), ms.int32)
    with pytest.raises(TypeError, match="'rate'"):
        ops.random_poisson(shape, Tensor(np.array([0.5]), ms.bool_), seed=1)
    with pytest.raises(TypeError, match="'dtype'"):
        ops.random_poisson(shape, Tensor(np.array([0.5]), ms.float32), seed=1, dtype=ms.bool_)

"""random_poisson's argument checks as MindSpore 2.10 makes them (TypeError for a Bool ``rate`` or ``dtype``, for
a tuple/list ``shape``, as in random_gamma), and the dtypes it accepts."""
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


@pytest.mark.parametrize("shape", [(3, 5), [3, 5]])
def test_random_poisson_refuses_tuple_or_list_shape(shape):
    # MindSpore 2.10: "the input argument[shape] must be a type of {Int32, Int64}, but got Tuple[Int64]".
    with pytest.raises(TypeError, match="'shape'"):
        ops.random_poisson(shape, Tensor(np.array([0.5]), ms.float32), seed=1)


@pytest.mark.parametrize("shape", [(3,), [3]])
def test_random_gamma_refuses_tuple_or_list_shape(shape):
    # MindSpore 2.10: "For RandomGamma, input[0] only support tensor!" (a TypeError)
    with pytest.raises(TypeError, match="'shape'"):
        ops.random_gamma(shape, Tensor(np.array([1.0, 2.0]), ms.float32))
    out = ops.random_gamma(Tensor(np.array([3]), ms.int32), Tensor(np.array([1.0, 2.0]), ms.float32), seed=2)
    assert out.shape == (3, 2) and (out.asnumpy() > 0).all()


def test_poisson_primitive_keeps_its_tuple_shape():
    # The legacy Poisson Primitive (and RandomPoisson with a Tensor shape) share random_poisson's kernel. The
    # shapes and dtypes are the tests' above: each new one compiles a sampler (3-4 CPU s each).
    out = ops.Poisson(seed=3)((3, 2), Tensor(np.array([[5.0, 10.0]]), ms.float32))
    assert out.shape == (3, 2, 1, 2) and out.dtype == ms.int32 and (out.asnumpy() >= 0).all()
    out = ops.RandomPoisson(seed=3)(Tensor(np.array([3, 2]), ms.int64), Tensor(np.array([[5.0, 10.0]]), ms.float32))
    assert out.shape == (3, 2, 1, 2) and out.dtype == ms.int64
    out = ops.RandomGamma(seed=3)(Tensor(np.array([3]), ms.int32), Tensor(np.array([1.0, 2.0]), ms.float32))
    assert out.shape == (3, 2) and (out.asnumpy() > 0).all()

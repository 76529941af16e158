"""Cholesky refuses matrices that are not symmetric positive definite, as MindSpore 2.10's CPU kernel does.

The expected outcomes (refused or factored, and the error types) were recorded from MindSpore 2.10 on CPU.
"""
import numpy as np
import pytest

import sporax
from sporax import Tensor, ops
from sporax.core import dtype as mstype
from sporax.scipy import linalg

REFUSAL = "Cholesky expects symmetric positive definite matrices as inputs."
INDEFINITE = np.array([[1.0, 2.0], [2.0, 1.0]], np.float32)
FACES = {
    "ops.cholesky": ops.cholesky,
    "ops.cholesky upper": lambda x: ops.cholesky(x, upper=True),
    "ops.Cholesky": lambda x: ops.Cholesky()(x),
    "Tensor.cholesky": lambda x: x.cholesky(),
    "scipy.linalg.cholesky": linalg.cholesky,
}


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize("matrix", [
    INDEFINITE,
    np.ones((2, 2), np.float32),  # semi-definite: a zero pivot
    np.zeros((2, 2), np.float32),
    np.array([[4.0, 1e-3], [0.0, 9.0]], np.float32),  # positive definite lower triangle, not symmetric
    np.array([[np.nan, 0.0], [0.0, 1.0]], np.float32),
    np.array([[np.inf, 0.0], [0.0, 1.0]], np.float32),
    INDEFINITE.astype(np.float64),
], ids=["indefinite", "semidefinite", "zeros", "asymmetric", "nan", "inf", "float64"])
def test_every_face_refuses_a_matrix_that_is_not_positive_definite(face, matrix):
    with pytest.raises(RuntimeError, match=REFUSAL):
        FACES[face](Tensor(matrix)).asnumpy()


def test_one_bad_matrix_of_a_batch_refuses_the_batch():
    batch = Tensor(np.stack([np.diag([4.0, 9.0]), INDEFINITE]).astype(np.float32))
    with pytest.raises(RuntimeError, match=REFUSAL):
        ops.cholesky(batch)
    with pytest.raises(RuntimeError, match=REFUSAL):
        ops.Cholesky()(batch)


@pytest.mark.parametrize("dtype, tolerated, refused", [
    (np.float32, 6e-5, 7e-5),  # Eigen's isApprox at 1e-5: |A - A^T| <= 1e-5 |A| (Frobenius norms)
    (np.float64, 1e-12, 1.2e-11),  # ... at 1e-12
    (np.float16, 0.0, 1e-4),  # Float16 is tested at Float32's precision
])
def test_symmetry_is_tested_to_eigens_precision(dtype, tolerated, refused):
    factor = ops.cholesky(Tensor(np.array([[4.0, tolerated], [0.0, 9.0]], dtype))).asnumpy()
    np.testing.assert_allclose(factor, [[2.0, 0.0], [0.0, 3.0]], atol=1e-4)
    with pytest.raises(RuntimeError, match=REFUSAL):
        ops.cholesky(Tensor(np.array([[4.0, refused], [0.0, 9.0]], dtype)))


def test_compiled_cholesky_refuses_when_the_program_runs():
    # MindSpore refuses in graph mode too, when the kernel runs; sporax's host check raises in the compiled
    # program, which JAX reports as a RuntimeError carrying the message
    compiled = sporax.jit(lambda x: ops.cholesky(x))
    with pytest.raises(RuntimeError, match=REFUSAL):
        compiled(Tensor(INDEFINITE)).asnumpy()
    spd = np.array([[4.0, 2.0], [2.0, 5.0]], np.float32)
    np.testing.assert_allclose(compiled(Tensor(spd)).asnumpy(), np.linalg.cholesky(spd), rtol=1e-6)


def test_scipy_cholesky_takes_one_matrix_of_four_dtypes():
    with pytest.raises(ValueError, match="the dimension of 'a' should be 2, but got 3"):
        linalg.cholesky(Tensor(np.stack([np.eye(2)] * 2).astype(np.float32)))
    with pytest.raises(TypeError, match="type of 'a' should be Tensor"):
        linalg.cholesky(np.eye(2))
    with pytest.raises(TypeError, match="data type of 'a'"):
        linalg.cholesky(Tensor(np.eye(2, dtype=np.float16)))
    factor = linalg.cholesky(Tensor(np.array([[4, 0], [0, 9]], np.int32)))
    assert factor.dtype is mstype.float64  # integers factor in Float64
    np.testing.assert_array_equal(factor.asnumpy(), [[2.0, 0.0], [0.0, 3.0]])


def test_an_empty_matrix_has_an_empty_factor():
    # MindSpore 2.10's CPU kernel dies (SIGFPE) on a (0, 0) matrix; sporax answers the empty factor
    assert ops.cholesky(Tensor(np.zeros((0, 0), np.float32))).shape == (0, 0)

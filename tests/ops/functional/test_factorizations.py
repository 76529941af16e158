"""ops/functional/factorizations: the ``LU`` and ``QR`` kernels, reached as MindSpore reaches them, through a user's
Primitive subclass named 'LU' (``mindspore.scipy.ops.LU`` declares only the interface) or 'QR' (tests/st's
test_qr_op), against values recorded from MindSpore 2.10's CPU kernel."""
import numpy as np
import pytest
import scipy.linalg

from sporax import Tensor
from sporax.ops import PrimitiveWithInfer, prim_attr_register

A = np.array([[1., 2., 3.], [4., 5., 6.], [7., 8., 10.]])


class LU(PrimitiveWithInfer):
    @prim_attr_register
    def __init__(self):
        super().__init__(name="LU")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_primitive_named_lu_runs_the_lu_kernel(dtype):
    lu, pivots, permutation = LU()(Tensor(A.astype(dtype)))
    # MindSpore 2.10: 0-based row swaps [2, 2, 2] and A = P @ L @ U with P below.
    assert pivots.asnumpy().tolist() == [2, 2, 2] and str(pivots.dtype) == "Int32"
    assert permutation.asnumpy().tolist() == [[0, 1, 0], [0, 0, 1], [1, 0, 0]] and str(permutation.dtype) == "Int32"
    np.testing.assert_allclose(lu.asnumpy(), scipy.linalg.lu_factor(A)[0], rtol=1e-5, atol=1e-6)
    assert lu.dtype == Tensor(A.astype(dtype)).dtype
    lower = np.tril(lu.asnumpy(), -1) + np.eye(3)
    np.testing.assert_allclose(permutation.asnumpy() @ lower @ np.triu(lu.asnumpy()), A, rtol=1e-5, atol=1e-5)


def test_lu_of_a_batch_and_of_float16():
    batch = np.random.RandomState(0).rand(4, 3, 3)
    _, pivots, permutation = LU()(Tensor(batch))
    assert pivots.asnumpy().tolist() == [[0, 2, 2], [1, 1, 2], [1, 2, 2], [0, 1, 2]]  # MindSpore 2.10's
    assert permutation.shape == (4, 3, 3)
    lu, _, _ = LU()(Tensor(A.astype(np.float16)))
    assert str(lu.dtype) == "Float16"


def test_lu_rejects_integers_and_non_square_matrices():
    with pytest.raises(TypeError, match="floating-point"):
        LU()(Tensor(A.astype(np.int32)))
    with pytest.raises(ValueError, match=r"For 'LU', 'input' must be a batch of \(\.\.\., M, M\) square"):
        LU()(Tensor(A[:, :2].astype(np.float32)))


class QR(PrimitiveWithInfer):
    @prim_attr_register
    def __init__(self, mode="full"):
        super().__init__(name="QR")


# MindSpore 2.10, graph mode, of [[1, 2], [3, 4], [5, 6]] (Float32): mode 'r' gives the full q as well
Q_FULL = [[-0.169031, 0.897085, 0.408249], [-0.507092, 0.276027, -0.816496], [-0.845154, -0.345033, 0.408248]]
R_FULL = [[-5.91608, -7.437357], [0.0, 0.828078], [0.0, 0.0]]


@pytest.mark.parametrize("mode, q, r", [("full", Q_FULL, R_FULL), ("r", Q_FULL, R_FULL),
                                        ("economic", [row[:2] for row in Q_FULL], R_FULL[:2])])
def test_user_qr_primitive_runs_the_qr_kernel(mode, q, r):
    got_q, got_r = QR(mode)(Tensor(np.array([[1., 2.], [3., 4.], [5., 6.]], np.float32)))
    np.testing.assert_allclose(got_q.asnumpy(), q, atol=1e-5)
    np.testing.assert_allclose(got_r.asnumpy(), r, atol=1e-5)


def test_user_qr_primitive_refuses_an_unknown_mode():
    with pytest.raises(ValueError, match="For 'QR', 'mode'"):
        QR("complete")(Tensor(np.eye(2, dtype=np.float32)))

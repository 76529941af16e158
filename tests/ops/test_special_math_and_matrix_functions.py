"""Element-wise math and linear algebra against NumPy/SciPy, with gradients."""
import numpy as np
import pytest
import scipy.linalg
import scipy.special

from sporax import Parameter, Tensor, ops

rng = np.random.default_rng(0)
A = rng.standard_normal((3, 3)).astype(np.float32) + 3 * np.eye(3, dtype=np.float32)
B = rng.standard_normal((2, 3, 3)).astype(np.float32)
R = rng.standard_normal((4, 3)).astype(np.float32)
POS = np.array([0.5, 1.5, 2.5], np.float32)


def t(a):
    return Tensor(np.asarray(a))


def close(result, expected, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(np.asarray(result.asnumpy() if hasattr(result, "asnumpy") else result), expected,
                               rtol=rtol, atol=atol)


# (determinants, matrix_exp, matrix_power, MatrixInverse, Trace, nextafter, population_count, vander, vecdot,
# pdist, renorm, ldexp, polar, polygamma: the op table, tests/ops/test_op_table.py)
ELEMENTWISE = [
    ("lcm", lambda: ops.lcm(t([4, 6, 0]), t([6, 8, 5])), np.lcm([4, 6, 0], [6, 8, 5])),
    ("zeta", lambda: ops.zeta(t(POS + 1.5), t(POS)), scipy.special.zeta(POS + 1.5, POS)),
    ("real", lambda: ops.real(t(POS + 2j * POS)), POS),
    ("Rint", lambda: ops.Rint()(t(np.array([0.5, 1.5, -2.5], np.float32))), [0.0, 2.0, -2.0]),
    ("MulNoNan", lambda: ops.MulNoNan()(t(np.array([np.inf, 2.0], np.float32)), t(np.array([0.0, 3.0], np.float32))),
     [0.0, 6.0]),
    ("LeftShift", lambda: ops.LeftShift()(t(np.array([1, 2], np.int32)), t(np.array([2, 1], np.int32))), [4, 4]),
    ("RightShift", lambda: ops.RightShift()(t(np.array([8, 4], np.int32)), t(np.array([2, 1], np.int32))), [2, 2]),
    ("Logit", lambda: ops.Logit(eps=0.1)(t(np.array([0.0, 0.3], np.float32))),
     scipy.special.logit(np.array([0.1, 0.3]))),
    ("NanToNum", lambda: ops.NanToNum(nan=1.0, posinf=2.0, neginf=-2.0)(t(np.array([np.nan, np.inf, -np.inf],
                                                                                    np.float32))), [1.0, 2.0, -2.0]),
    ("Mvlgamma", lambda: ops.Mvlgamma(p=2)(t(POS + 1)), scipy.special.multigammaln(POS + 1, 2)),
    ("LerpScalar", lambda: ops.LerpScalar()(t(POS), t(POS * 3), 0.5), POS * 2),
    ("MatrixLogarithm", lambda: ops.MatrixLogarithm()(t((A @ A.T).astype(np.complex64))),
     scipy.linalg.logm(A @ A.T)),
]


@pytest.mark.parametrize("name,call,expected", ELEMENTWISE, ids=[c[0] for c in ELEMENTWISE])
def test_values_against_numpy(name, call, expected):
    close(call(), np.asarray(expected), rtol=2e-4, atol=2e-4)


def test_decompositions_reconstruct():
    q, r = ops.qr(t(R))
    close(q.asnumpy() @ r.asnumpy(), R, atol=1e-5)
    assert ops.Qr(full_matrices=True)(t(R))[0].shape == (4, 4)
    s, u, v = ops.svd(t(R))
    close((u.asnumpy() * s.asnumpy()) @ v.asnumpy().T, R, atol=1e-5)
    close(ops.svd(t(R), compute_uv=False), np.linalg.svd(R, compute_uv=False))
    s2, u2, v2 = ops.Svd(compute_uv=False)(t(R))
    close(s2, np.linalg.svd(R, compute_uv=False))
    assert not u2.asnumpy().any()
    with pytest.raises(TypeError, match="svd"):
        ops.svd(t(np.array([[1, 2]])))
    with pytest.raises(ValueError, match="qr"):
        ops.qr(t(R), mode="bad")


def test_lu_helpers_against_scipy():
    lu, piv = scipy.linalg.lu_factor(A)
    pivots = t((piv + 1).astype(np.int32))
    p, lower, upper = ops.lu_unpack(t(lu.astype(np.float32)), pivots)
    close(p.asnumpy() @ lower.asnumpy() @ upper.asnumpy(), A, atol=1e-5)
    # integer factors unpack to integer parts (MindSpore 2.10: [[1, 0], [1, 1]] and [[2, 1], [0, 1]])
    _, lower, upper = ops.lu_unpack(t(np.array([[2, 1], [1, 1]], np.int32)), t(np.array([1, 2], np.int32)))
    assert lower.asnumpy().tolist() == [[1, 0], [1, 1]] and upper.asnumpy().tolist() == [[2, 1], [0, 1]]
    assert str(lower.dtype) == "Int32"


def test_householder_products_against_lapack():
    (reflectors, tau), _ = scipy.linalg.qr(R, mode="raw")
    q = np.linalg.qr(R)[0]
    close(ops.orgqr(t(reflectors.astype(np.float32)), t(tau.astype(np.float32))), q, atol=1e-5)
    full_q = scipy.linalg.qr(R)[0]
    other = rng.standard_normal((4, 2)).astype(np.float32)
    close(ops.ormqr(t(reflectors.astype(np.float32)), t(tau.astype(np.float32)), t(other)), full_q @ other, atol=1e-5)
    close(ops.Ormqr(left=False, transpose=True)(t(reflectors.astype(np.float32)), t(tau.astype(np.float32)),
                                                 t(other.T.copy())), other.T @ full_q.T, atol=1e-5)


def test_solvers():
    rhs = rng.standard_normal((4, 2)).astype(np.float32)
    close(ops.Lstsq()(t(R), t(rhs)), np.linalg.lstsq(R, rhs, rcond=None)[0], atol=1e-4)
    l2 = 0.5
    expected = np.linalg.solve(R.T @ R + l2 * np.eye(3), R.T @ rhs)
    close(ops.MatrixSolveLs()(t(R.astype(np.float64)), t(rhs.astype(np.float64)), t(np.float64(l2))), expected)
    lower = np.tril(A)
    close(ops.MatrixTriangularSolve(lower=True, adjoint=True)(t(lower), t(rhs[:3])),
          scipy.linalg.solve_triangular(lower, rhs[:3], trans=1, lower=True), atol=1e-5)
    solution, _ = t(rhs[:3]).triangular_solve(t(np.triu(A)))
    close(solution, scipy.linalg.solve_triangular(np.triu(A), rhs[:3]), atol=1e-5)
    diagonals = rng.standard_normal((3, 1, 3)).astype(np.float32)
    dense = np.diag(diagonals[1, 0]) + np.diag(diagonals[0, 0, :-1], 1) + np.diag(diagonals[2, 0, 1:], -1)
    close(ops.TridiagonalMatMul()(t(diagonals[0]), t(diagonals[1]), t(diagonals[2]), t(rhs[:3])), dense @ rhs[:3])
    with pytest.raises(TypeError, match="Lstsq"):
        ops.Lstsq(l2_regularizer=0.5)


def test_matrix_diag_family():
    x = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    k = t(np.array([-1, 1], np.int32))
    # Oracle (MindSpore 2.10 CPU) values.
    close(ops.matrix_diag_part(t(x), k, t(np.float32(9))), [[1, 6, 11], [0, 5, 10], [4, 9, 9]])
    close(ops.MatrixDiagPartV3(align="LEFT_RIGHT")(t(x), k, t(np.float32(9))), [[1, 6, 11], [0, 5, 10], [9, 4, 9]])
    close(ops.matrix_set_diag(t(np.zeros((3, 4), np.float32)), t(np.arange(1.0, 10, dtype=np.float32).reshape(3, 3)),
                              k=k), [[4, 1, 0, 0], [7, 5, 2, 0], [0, 8, 6, 3]])
    close(ops.matrix_diag(t(np.array([[1.0, 2, 3], [4, 5, 0]], np.float32)), k=t(np.array([0, 1], np.int32))),
          [[4, 2, 0], [0, 5, 3], [0, 0, 0]])
    close(ops.MatrixDiagV3()(t(POS), t(np.int32(0)), t(np.int32(-1)), t(np.int32(-1)), t(np.float32(0))),
          np.diag(POS))
    close(ops.matrix_diag(t(POS), k=1, padding_value=7), np.diag(POS, 1) + 7 * (1 - np.abs(np.sign(np.diag(POS, 1)))))
    close(ops.MatrixSetDiagV3()(t(np.zeros((3, 3), np.float32)), t(POS), t(np.int32(0))), np.diag(POS))
    # padding_value as the Primitive's Tensor input (MindSpore 2.10 CPU, /tmp/semantics22-x/mdiag.py)
    bands, sizes = t(np.array([[8, 9, 0], [1, 2, 3], [0, 4, 5]], np.float32)), (k, t(np.int32(3)), t(np.int32(3)))
    close(ops.MatrixDiagV3(align="LEFT_RIGHT")(bands, *sizes, t(np.float32(7))), [[1, 8, 7], [4, 2, 9], [7, 5, 3]])
    with pytest.raises(ValueError, match=r"^For primitive\[MatrixDiagV3\], the rank of 'padding_value' must be equal "
                                         r"to 0, but got 1\.$"):
        ops.MatrixDiagV3()(bands, *sizes, t(np.array([7.0], np.float32)))
    with pytest.raises(TypeError, match=r"^For 'MatrixDiagV3', the dtype of two args should be same, but the dtype of "
                                        r"first arg Tensor\[Float32\] is not consistent with the dtype of second arg "
                                        r"Tensor\[Int32\]$"):
        ops.MatrixDiagV3()(bands, *sizes, t(np.int32(7)))
    # Named difference: MindSpore refuses a number ("the input[4] should be a Tensor, but got Float32."); sporax's
    # Primitive takes one as ops.matrix_diag does (the op table's samples pass the setting as a number).
    close(ops.MatrixDiagV3(align="LEFT_RIGHT")(bands, *sizes, 7.0), [[1, 8, 7], [4, 2, 9], [7, 5, 3]])


GRADIENTS = [
    # (q in Float64 too: MindSpore 2.10's Zeta refuses two dtypes)
    ("zeta", lambda x: ops.zeta(x + 2.0, t(POS.astype(np.float64))).sum(), POS),
]


@pytest.mark.parametrize("name,function,point", GRADIENTS, ids=[g[0] for g in GRADIENTS])
def test_gradients_match_finite_differences(name, function, point):
    # One random direction: grad . v against the central difference of f along v.
    point64 = point.astype(np.float64)
    direction = np.random.default_rng(1).standard_normal(point64.shape)
    gradient = ops.grad(function)(Tensor(point64)).asnumpy()
    eps = 1e-6
    up = float(function(Tensor(point64 + eps * direction)).asnumpy())
    down = float(function(Tensor(point64 - eps * direction)).asnumpy())
    np.testing.assert_allclose(np.sum(gradient * direction), (up - down) / (2 * eps), rtol=1e-5, atol=1e-6)


def test_tensor_methods_delegate():
    x = t(A)
    close(x.matrix_power(2), A @ A, rtol=1e-4)
    close(x.logdet(), np.log(np.linalg.det(A)), rtol=1e-4)
    close(x.slogdet()[1], np.linalg.slogdet(A)[1], rtol=1e-4)
    close(x.matrix_determinant(), np.linalg.det(A), rtol=1e-4)
    close(x.log_matrix_determinant()[1], np.linalg.slogdet(A)[1], rtol=1e-4)
    close(t([4, 6]).lcm(t([6, 8])), [12, 24])
    close(t(POS).nextafter(t(POS + 1)), np.nextafter(POS, POS + 1))
    close(t(R).qr()[0].asnumpy() @ t(R).qr()[1].asnumpy(), R, atol=1e-5)
    assert t(R).svd()[0].shape == (3,)
    with pytest.raises(ValueError, match="matrix_power"):
        ops.matrix_power(t(R), 2)
    with pytest.raises(TypeError, match="lcm"):
        ops.lcm(t(POS), t(POS))
    assert isinstance(Parameter(t(A), name="a").logdet(), Tensor)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_betainc_gradient_reaches_x_only(dtype):
    # Recorded on MindSpore 2.10 CPU (GradOperation(get_all=True), both modes): a and b get zeros, x gets
    # x**(a-1) * (1-x)**(b-1) / B(a, b).
    from sporax.ops.operations import Betainc
    a = t(np.array([0.3, 2.0, 1.5], dtype))
    b = t(np.array([0.7, 3.0, 0.5], dtype))
    x = t(np.array([0.2, 0.5, 0.9], dtype))
    close(Betainc()(a, b, x), [0.53759664, 0.6875, 0.60418123])
    grads = ops.GradOperation(get_all=True)(lambda *args: Betainc()(*args))(a, b, x)
    close(grads[0], [0.0, 0.0, 0.0])
    close(grads[1], [0.0, 0.0, 0.0])
    close(grads[2], [0.8494929075241089, 1.4999988079071045, 1.909859538078308], rtol=1e-5)
    assert grads[2].dtype == a.dtype

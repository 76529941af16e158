"""mindspore.scipy.optimize on sporax: every expected value recorded from MindSpore 2.10 (CPU) with the same call."""
import numpy as np
import pytest

from sporax import Tensor
from sporax.scipy import linalg
from sporax.scipy.optimize import line_search, linear_sum_assignment, minimize

COST = np.array([[4, 1, 3], [2, 0, 5], [3, 2, 2]], np.float32)
RANDOM = np.random.default_rng(0).random((5, 4))


def _lists(pair):
    assert all(item.dtype == np.int64 for item in (pair[0].asnumpy(), pair[1].asnumpy()))
    return [item.asnumpy().tolist() for item in pair]


@pytest.mark.parametrize("cost, maximize, limit, expected", [
    (COST, False, None, [[0, 1, 2], [1, 0, 2]]),
    (COST, True, None, [[0, 1, 2], [0, 2, 1]]),
    (COST[:2], False, None, [[0, 1], [1, 0]]),
    (COST[:, :2], False, None, [[0, 1], [1, 0]]),
    (COST, False, 2, [[0, 1, -1], [1, 0, -1]]),
    (COST, True, 1, [[0, -1, -1], [0, -1, -1]]),
    (COST.astype(np.int32), False, None, [[0, 1, 2], [1, 0, 2]]),
    (np.array([[np.inf, 1], [2, np.inf]], np.float32), False, None, [[0, 1], [1, 0]]),
    (RANDOM, False, None, [[0, 1, 2, 3], [2, 0, 3, 1]]),
])
def test_linear_sum_assignment_matches_mindspore(cost, maximize, limit, expected):
    arguments = (Tensor(cost), maximize) + (() if limit is None else (Tensor(limit),))
    assert _lists(linear_sum_assignment(*arguments)) == expected


def test_linear_sum_assignment_refuses_what_mindspore_refuses():
    with pytest.raises(TypeError, match=r"argument\[maximize\] must be a type of \{Bool\}"):
        linear_sum_assignment(Tensor(COST), 1)
    with pytest.raises(ValueError, match="cost_matrix rank must be equal to 2, but got 1"):
        linear_sum_assignment(Tensor(COST[0]), False)
    for cost in ([[np.nan, 1], [2, 3]], [[np.inf, np.inf], [2, np.inf]]):  # MindSpore: RuntimeError (kernel failed)
        with pytest.raises(RuntimeError, match="LinearSumAssignment"):
            linear_sum_assignment(Tensor(np.array(cost, np.float32)), False)
    with pytest.raises(RuntimeError, match="dimension_limit must be positive"):
        linear_sum_assignment(Tensor(COST), False, Tensor(0))


def _rosenbrock(point, scale=100):
    return (1 - point[0]) ** 2 + scale * (point[1] - point[0] * point[0]) ** 2


def test_bfgs_steps_as_mindspore():
    # MindSpore 2.10: minimize(rosenbrock, [-1.2, 1.0], method='BFGS', options=dict(maxiter=5))
    result = minimize(_rosenbrock, Tensor(np.array([-1.2, 1.0], np.float32)), args=(100,), method="BFGS",
                      options={"maxiter": 5})
    assert (result.success, result.status, result.nfev, result.njev, result.nit) == (False, 1, 12, 12, 5)
    np.testing.assert_allclose(result.x.asnumpy(), [-5.09322584e-01, 2.42836282e-01], rtol=1e-4)
    np.testing.assert_allclose(result.fun, 2.3055219650268555, rtol=1e-4)
    np.testing.assert_allclose(result.jac.asnumpy(), [-6.39508820, -3.31464100], rtol=1e-4)
    np.testing.assert_allclose(result.hess_inv.asnumpy(), [[3.97804901e-02, -3.66022550e-02],
                                                           [-3.66022512e-02, 3.79772149e-02]], rtol=1e-3)
    with pytest.raises(ValueError, match="You must specify a solver."):
        minimize(_rosenbrock, Tensor(np.zeros(2, np.float32)))
    with pytest.raises(ValueError, match="Method CG not recognized"):
        minimize(_rosenbrock, Tensor(np.zeros(2, np.float32)), method="CG")
    # MindSpore ignores tol for BFGS: tol=0.5 on its docstring example runs as the default gtol 1e-5 (nit 10).
    result = minimize(_himmelblau, Tensor(np.zeros(2, np.float32)), method="BFGS", tol=0.5)
    assert (result.status, result.nit, result.nfev, result.x.asnumpy().tolist()) == (0, 10, 18, [3.0, 2.0])
    with pytest.raises(TypeError, match="must be a tuple, got \\[100\\]"):
        minimize(_rosenbrock, Tensor(np.zeros(2, np.float32)), args=[100], method="BFGS")


def _himmelblau(point):
    x, y = point
    return (x ** 2 + y - 11.) ** 2 + (x + y ** 2 - 7.) ** 2


def _rosen(point):
    return ((100.0 * (point[1:] - point[:-1] ** 2.0) ** 2.0) + (1 - point[:-1]) ** 2.0).sum()


# MindSpore 2.10: minimize(rosen, Tensor([-1.2, 1.0], dtype), method='BFGS', options=dict(maxiter=m)) ->
# (status, success, nit, nfev, njev, x, fun). JAX's own BFGS stops at iteration 9 (its zoom gives up on a narrow
# bracket, status 3); MindSpore's zoom does not. Later float32 iterates drift apart in the last bits (the
# gradients of ``**`` differ by an ulp), so x and fun are checked tighter early than late; in float64 the whole
# run to convergence (nit 33, nfev 48) matches.
@pytest.mark.parametrize("dtype, maxiter, expected, tolerance", [
    (np.float32, 9, (1, False, 9, 18, 18, [-0.19125351309776306, -0.0027672462165355682], 1.573889136314392), 1e-5),
    (np.float32, 26, (1, False, 26, 40, 40, [0.9307488203048706, 0.8641039133071899], 0.005275098141282797), 2e-3),
    (np.float64, 40, (0, True, 33, 48, 48, [0.9999999870384784, 0.9999999740733386], 1.6800235229233078e-16), 1e-6),
])
def test_bfgs_rosenbrock_iterates_as_mindspore(dtype, maxiter, expected, tolerance):
    result = minimize(_rosen, Tensor(np.array([-1.2, 1.0], dtype)), method="BFGS", options={"maxiter": maxiter})
    assert (result.status, result.success, result.nit, result.nfev, result.njev) == expected[:5]
    np.testing.assert_allclose(result.x.asnumpy(), expected[5], atol=tolerance)
    np.testing.assert_allclose(result.fun, expected[6], atol=tolerance)


def test_line_search_as_mindspore():
    # MindSpore 2.10: _LineSearchResults(failed=False, nit=1, nfev=2, ngev=2, k=2, a_k=1.0, f_k=1.13,
    # g_k=[1.6, 1.4], status=0)
    result = line_search(lambda x: (x ** 2).sum(), Tensor(np.array([1.8, 1.7], np.float32)),
                         Tensor(np.array([-1.0, -1.0], np.float32)))
    assert (result.failed, result.nit, result.nfev, result.ngev, result.k, result.status) == (False, 1, 2, 2, 2, 0)
    np.testing.assert_allclose((result.a_k, result.f_k), (1.0, 1.13), rtol=1e-6)
    np.testing.assert_allclose(result.g_k.asnumpy(), [1.6, 1.4], rtol=1e-6)


def test_line_search_zooms_as_mindspore():
    # MindSpore 2.10, BFGS's first Rosenbrock step: line_search(rosen, x0, -g0, gfk=g0, old_fval=f0,
    # old_old_fval=f0 + |g0| / 2, maxiter=10) -> a_k 0.001326178084127605, f_k 11.569280624389648, nfev 2
    # (one trial step overshoots, one quadratic zoom step lands), g_k [98.9757309, 56.2337761].
    start = np.array([-1.2, 1.0], np.float32)
    slope = np.array([-215.60003662109375, -88.00001525878906], np.float32)
    value = np.float32(24.200005)
    result = line_search(_rosen, Tensor(start), Tensor(-slope), gfk=Tensor(slope), old_fval=Tensor(value),
                         old_old_fval=Tensor(value + np.linalg.norm(slope) / 2), maxiter=10)
    assert (result.failed, result.nit, result.nfev, result.ngev, result.k, result.status) == (False, 1, 2, 2, 2, 0)
    np.testing.assert_allclose((result.a_k, result.f_k), (0.001326178084127605, 11.569280624389648), rtol=1e-5)
    np.testing.assert_allclose(result.g_k.asnumpy(), [98.9757308959961, 56.2337760925293], rtol=1e-5)


def test_line_search_float64_rounds_python_constants_to_float32_as_mindspore():
    # MindSpore 2.10 rounds a Python float to float32 before it meets a float64 tensor: the first trial step
    # 1.01 * 2 * (f - old_old_fval) / slope multiplies by 2.0199999809..., and old_old_fval = f + float(|g| / 2)
    # adds float32(|g| / 2). Recorded bit for bit: a_k 0.0013261781052068954, f_k 11.569272888767943,
    # g_k [98.97568639569003, 56.233747707266616] (exact 2.02 and c1/c2 would give a_k 0.0013261781002765717).
    start = np.array([-1.2, 1.0])
    slope = np.array([-215.59999999999997, -87.99999999999999])
    value = np.float64(24.199999999999996)
    old_old = value + np.float64(np.float32(np.linalg.norm(slope) / 2))
    result = line_search(_rosen, Tensor(start), Tensor(-slope), gfk=Tensor(slope), old_fval=Tensor(value),
                         old_old_fval=Tensor(old_old), maxiter=10)
    assert (result.failed, result.nfev, result.status) == (False, 2, 0)
    np.testing.assert_allclose((result.a_k, result.f_k), (0.0013261781052068954, 11.569272888767943), rtol=1e-14)
    np.testing.assert_allclose(result.g_k.asnumpy(), [98.97568639569003, 56.233747707266616], rtol=1e-14)


def test_lu_pivots_to_permutation_as_mindspore():
    # MindSpore 2.10: [2, 0, 1, 3] and [[1, 0, 2], [0, 1, 2]] (Int32)
    single = linalg.lu_pivots_to_permutation(Tensor(np.array([2, 2, 2], np.int32)), 4).asnumpy()
    assert single.dtype == np.int32 and single.tolist() == [2, 0, 1, 3]
    batched = linalg.lu_pivots_to_permutation(Tensor(np.array([[1, 1], [0, 1]], np.int32)), 3).asnumpy()
    assert batched.tolist() == [[1, 0, 2], [0, 1, 2]]

"""mindspore.scipy.optimize.minimize(method='LBFGS') on sporax: every expected value recorded from MindSpore 2.10
(CPU, PyNative) with the same call."""
import numpy as np
import pytest

from sporax import Tensor
from sporax.scipy.optimize import minimize

QUADRATIC = np.array([[3.0, 1.0, 0.5], [1.0, 2.0, 0.0], [0.5, 0.0, 1.0]])
LINEAR = np.array([1.0, -2.0, 0.5])


def _himmelblau(point):
    x, y = point
    return (x ** 2 + y - 11.) ** 2 + (x + y ** 2 - 7.) ** 2


def _rosen(point):
    return ((100.0 * (point[1:] - point[:-1] ** 2.0) ** 2.0) + (1 - point[:-1]) ** 2.0).sum()


def _quadratic(x):
    return 0.5 * (x * (Tensor(QUADRATIC) @ x)).sum() - (Tensor(LINEAR) * x).sum()


def _shallow(x):
    return 0.0009765625 * (x[0] * x[0] + 3.0 * x[1] * x[1])


def _flat(x):
    return 1e-6 * (x * x).sum()


def _fields(result):
    return result.status, result.success, result.nit, result.nfev, result.njev


# (func, x0, options, tol) -> MindSpore's (status, success, nit, nfev, njev), x, fun, jac, tolerance on them.
# The docstring example converges to exactly [3, 2]. ``tol`` is ignored by MindSpore's LBFGS (as gtol, 10.0 would
# stop float64 Rosenbrock before iteration 7). Rosenbrock float32 iterates drift in the last bits (the gradients
# of ``**`` differ by an ulp): counts match, x to 3e-3 after 12 steps (history_size=3: the history fills, then
# drops its oldest step). float64 (history_size=3 too) matches to 1e-12 for 7 iterations; later ones drift
# (MindSpore's cubic zoom step runs in float32 even in float64), so the full float64 Rosenbrock run is not pinned.
# ``_shallow``'s every step has curvature y.s under LBFGS's 1e-10 floor: none is recorded, each direction is the
# plain gradient (37 evaluations in 6 iterations). ``_flat``'s first line search runs out of trials: status 5, nit 0.
# (MindSpore's fun there, 1.99999999495e-06, is 2 * float32(1e-6): MindSpore rounds the Python 1e-6 to float32.)
@pytest.mark.parametrize("func, x0, options, tol, expected, x, fun, jac, tolerance", [
    (_himmelblau, np.zeros(2, np.float32), {"maxiter": None, "gtol": 1e-6}, None, (0, True, 12, 21, 21),
     [3.0, 2.0], 0.0, [0.0, 0.0], 0.0),
    (_rosen, np.array([-1.2, 1.0], np.float32), {"maxiter": 12, "history_size": np.int64(3)}, None,
     (1, False, 12, 24, 24),
     [-0.4044201076030731, 0.14197221398353577], 2.0189802646636963, [-6.300346374511719, -4.316681861877441],
     3e-3),
    (_rosen, np.array([-1.2, 1.0]), {"maxiter": 7, "history_size": 3}, 10.0, (1, False, 7, 11, 11),
     [-0.9961215398466221, 1.0134494455525056], 4.029408420609842, [4.451410401375627, 4.238264681220016],
     1e-12),
    (_quadratic, np.zeros(3), {"maxiter": 20, "history_size": 2, "norm": 2, "gtol": 1e-6}, None,
     (0, True, 11, 15, 15), [0.7777775055326434, -1.388888905692787, 0.11111192926027401], -1.805555555555216,
     [-4.2446471976154143e-07, -3.058529305377533e-07, 6.820265956442029e-07], 1e-9),
    (_shallow, np.array([0.0001220703125, 0.000244140625]), {"maxiter": 6, "gtol": 1e-14}, None,
     (1, False, 6, 37, 37), [8.287770469905809e-05, 7.023931539151818e-05], 2.1161521695499767e-11,
     [1.6187051699034782e-07, 4.115584886221768e-07], 1e-15),
    (_flat, np.ones(2), {"maxiter": 4, "gtol": 1e-12}, None, (5, False, 0, 11, 11), [1.0, 1.0],
     1.9999999949504854e-06, [1.9999999949504854e-06, 1.9999999949504854e-06], 1e-14),
])
def test_lbfgs_as_mindspore(func, x0, options, tol, expected, x, fun, jac, tolerance):
    result = minimize(func, Tensor(x0), method="LBFGS", options=options, tol=tol)
    assert _fields(result) == expected and result.hess_inv is None
    np.testing.assert_allclose(result.x.asnumpy(), x, atol=tolerance)
    np.testing.assert_allclose(result.fun, fun, atol=tolerance)
    np.testing.assert_allclose(result.jac.asnumpy(), jac, atol=tolerance)
    assert isinstance(result.fun, float) and result.x.asnumpy().dtype == x0.dtype


def test_lbfgs_refuses_what_mindspore_refuses():
    start = Tensor(np.zeros(2, np.float32))
    with pytest.raises(TypeError, match="maxcor"):  # MindSpore: unexpected keyword argument 'maxcor'
        minimize(_himmelblau, start, method="LBFGS", options={"maxiter": 3, "maxcor": 3})
    # MindSpore fails inside its history buffer (IndexError: Index -1 is out of bounds for axis 0 with size 0).
    with pytest.raises(ValueError, match=r"options\['history_size'\] must be a positive int, but got 0"):
        minimize(_himmelblau, start, method="LBFGS", options={"maxiter": 3, "history_size": 0})
    with pytest.raises(NotImplementedError, match="method='LBFGS'.*'jac'"):
        minimize(_himmelblau, start, method="LBFGS", jac=lambda x: x)

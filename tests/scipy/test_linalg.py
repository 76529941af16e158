"""mindspore.scipy.linalg on sporax against values and dtypes recorded from MindSpore 2.10
(tests/fixtures/scipy/record_linalg.py)."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor
import sporax.scipy.linalg as L

FIXTURE = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "scipy", "linalg.json")))
SPD = np.array([[4, 12, -16], [12, 37, -43], [-16, -43, 98]], np.float64)
TRI = np.array([[3, 0, 0], [1, 2, 0], [1, 1, 1]], np.float32)
B = np.array([[1, 2], [3, 4], [5, 6]], np.float32)
GEN = np.array([[2, 5, 8], [4, 2, 2], [7, 5, 6]], np.float32)

CASES = {
    "cholesky_lower": lambda: L.cholesky(Tensor(SPD), lower=True),
    "cholesky_upper": lambda: L.cholesky(Tensor(SPD.astype(np.float32))),
    "cho_solve": lambda: L.cho_solve(L.cho_factor(Tensor(SPD), lower=True), Tensor(B.astype(np.float64))),
    "solve_triangular": lambda: L.solve_triangular(Tensor(TRI), Tensor(B), lower=True),
    "solve_triangular_T": lambda: L.solve_triangular(Tensor(TRI), Tensor(B), trans=1, lower=True),
    "inv": lambda: L.inv(Tensor(GEN)),
    "det": lambda: L.det(Tensor(GEN)),
    "eigh": lambda: L.eigh(Tensor(SPD.astype(np.float32))),
    "lu": lambda: L.lu(Tensor(GEN)),
    "lu_factor": lambda: L.lu_factor(Tensor(GEN)),
    "lu_solve": lambda: L.lu_solve(L.lu_factor(Tensor(GEN)), Tensor(B)),
    "block_diag": lambda: L.block_diag(Tensor(np.ones((2, 2), np.float32)), Tensor(np.full((1, 3), 2, np.float32))),
}


def check(result, expected, name):
    if isinstance(expected, list):
        assert isinstance(result, tuple) and len(result) == len(expected), name
        for part, want in zip(result, expected):
            check(part, want, name)
        return
    assert str(result.dtype) == expected["dtype"], (name, result.dtype)
    np.testing.assert_allclose(result.asnumpy(), expected["value"], rtol=2e-4, atol=2e-4, err_msg=name)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name):
    result = CASES[name]()
    if name == "eigh":  # an eigenvector's sign is arbitrary: align each column's sign with the record
        values, vectors = result
        recorded = np.array(FIXTURE[name][1]["value"])
        signs = np.sign(np.sum(vectors.asnumpy() * recorded, axis=0))
        result = (values, Tensor((vectors.asnumpy() * signs).astype(np.float32)))
    check(result, FIXTURE[name], name)


def test_eigh_vectors_diagonalise():
    values, vectors = L.eigh(Tensor(SPD))
    v = vectors.asnumpy()
    np.testing.assert_allclose(v.T @ SPD @ v, np.diag(values.asnumpy()), atol=1e-8)


def test_bad_input_errors():
    with pytest.raises(ValueError, match="square"):
        L.cholesky(Tensor(np.ones((2, 3), np.float32)))
    # MindSpore 2.10 raises ValueError for both ("currently only case b=None/eigvals=None ... is implemented").
    with pytest.raises(ValueError, match="only case b=None of 'eigh'"):
        L.eigh(Tensor(SPD), b=Tensor(SPD))
    with pytest.raises(ValueError, match="only case eigvals=None of 'eigh'"):
        L.eigh(Tensor(SPD), eigvals=(0, 1))


def test_eigh_type_is_ignored_without_b_as_mindspore():
    # MindSpore 2.10 returns the standard problem's result for type=2 or 3 when b is None.
    values, _ = L.eigh(Tensor(SPD))
    for kind in (2, 3):
        np.testing.assert_allclose(L.eigh(Tensor(SPD), type=kind)[0].asnumpy(), values.asnumpy())


def test_lstsq_reports_what_each_driver_reports():
    # Values and empty outputs recorded from MindSpore 2.10 (CPU).
    from sporax.scipy.linalg import lstsq
    a = Tensor(np.array([[3, 0, 0, 0], [2, 1, 0, 0], [1, 0, 1, 0], [1, 1, 1, 1]], np.float32))
    solution = lstsq(a, Tensor(np.array([3, 1, 3, 4], np.float32)))[0]
    np.testing.assert_allclose(solution.asnumpy(), [1.0, -1.0, 2.0, 2.0], atol=2e-6)
    tall, rhs = Tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), Tensor([1.0, 2.0, 3.5])
    solution, residuals, rank, singular = lstsq(tall, rhs)
    np.testing.assert_allclose(solution.asnumpy(), [1.1666669, 2.1666663], rtol=1e-5)
    assert residuals.shape == (0,) and singular.shape == (0,) and str(rank.dtype) == "Int64" and int(rank) == 2
    _, residuals, rank, singular = lstsq(tall, rhs, driver="gelsd")
    np.testing.assert_allclose(residuals.asnumpy(), [0.08333329], rtol=1e-5)
    np.testing.assert_allclose(singular.asnumpy(), [1.732051, 1.0], rtol=1e-5)
    _, residuals, rank, singular = lstsq(tall, rhs, driver="gels")
    np.testing.assert_allclose(residuals.asnumpy(), [0.08333337], rtol=1e-5)
    assert rank.shape == (0,) and singular.shape == (0,)
    with pytest.raises(ValueError, match="driver must be one of"):
        lstsq(tall, rhs, driver="gelsx")

"""``mindspore.scipy.optimize``: ``minimize`` (BFGS, LBFGS), ``line_search``, ``linear_sum_assignment`` on Tensors.

``minimize`` and ``line_search`` run ``sporax.scipy.bfgs`` and ``sporax.scipy.lbfgs`` (MindSpore's BFGS, LBFGS and
strong-Wolfe line search, step for step: the same iterates, counts and result fields); the objective is called
with a Tensor and returns a scalar Tensor, and is traced once. ``linear_sum_assignment`` solves on the host (a
shortest augmenting path, as MindSpore's CPU kernel), with MindSpore's ``dimension_limit`` (only the first columns
take part).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.scipy.optimize import linear_sum_assignment
    >>> rows, columns = linear_sum_assignment(Tensor(np.array([[4.0, 1.0], [2.0, 0.0]], np.float32)), False)
    >>> rows.asnumpy().tolist(), columns.asnumpy().tolist()
    ([0, 1], [1, 0])
"""
import sys
from typing import NamedTuple

import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import wrap
from sporax.scipy import bfgs, lbfgs


class OptimizeResults(NamedTuple):
    """What ``minimize`` found: ``x``, ``success``, ``status`` (0 converged, 1 iterations exhausted, 3+ line
    search failed), ``fun``, ``jac``, ``hess_inv`` (None for LBFGS), and the counts ``nfev``, ``njev``, ``nit``."""
    x: Tensor
    success: bool
    status: int
    fun: float
    jac: Tensor
    hess_inv: Tensor | None
    nfev: int
    njev: int
    nit: int


class _LineSearchResults(NamedTuple):
    """What ``line_search`` found: the step ``a_k``, ``f_k`` and ``g_k`` there, and its counts and status."""
    failed: bool
    nit: int
    nfev: int
    ngev: int
    k: int
    a_k: float
    f_k: float
    g_k: Tensor
    status: int


def _array(value):
    return value._value if isinstance(value, Tensor) else jnp.asarray(value)


def _on_arrays(function, args=()):
    """``function`` (Tensor -> scalar Tensor) as a function of jax arrays."""
    def call(array):
        result = function(Tensor._wrap(array), *args)
        return _array(result).reshape(())
    return call


def minimize(func, x0, args=(), method=None, jac=None, hess=None, hessp=None, bounds=None, constraints=(),
             tol=None, callback=None, options=None):
    """Minimise ``func(x, *args)`` (a scalar) from ``x0`` with ``method`` ``'BFGS'`` or ``'LBFGS'``.

    Args:
        func (Callable): Tensor -> scalar Tensor, written with sporax ops (it is traced).
        x0 (Tensor): the 1-D starting point.
        args (tuple): more arguments of ``func``. Default: ().
        method (str): ``'BFGS'`` or ``'LBFGS'`` (MindSpore's ``'LAGRANGE'`` raises NotImplementedError).
        tol (float): accepted and ignored, as MindSpore 2.10's BFGS and LBFGS do (set ``options['gtol']``).
            Default: None.
        options (dict): ``maxiter``, ``norm``, ``gtol``, ``line_search_maxiter``; for LBFGS also
            ``history_size`` (Default: 20). Default: None.

    Returns:
        OptimizeResults, with Tensors ``x``, ``jac``, ``hess_inv`` (None for LBFGS, as MindSpore's) and Python
        numbers for the rest, as MindSpore's.
    """
    if method is None:
        raise ValueError("You must specify a solver.")
    if not isinstance(args, tuple):
        raise TypeError(f"args argument to mindspore.scipy.optimize.minimize must be a tuple, got {args}")
    name = method.lower()
    if name == "lagrange":
        raise NotImplementedError("minimize(method='LAGRANGE') is not available in sporax; use method='BFGS' or "
                                  "'LBFGS'.")
    if name not in ("bfgs", "lbfgs"):
        raise ValueError(f"Method {method} not recognized")
    for argument, value in (("jac", jac), ("hess", hess), ("hessp", hessp), ("bounds", bounds), ("callback", callback)):
        if value is not None:
            raise NotImplementedError(f"minimize(method='{method}') takes no '{argument}' (the gradient comes "
                                      "from automatic differentiation); leave it None.")
    if constraints:
        raise NotImplementedError(f"minimize(method='{method}') takes no constraints.")
    start = _array(x0)
    if start.ndim != 1:
        raise ValueError(f"For 'minimize', 'x0' must be 1-D, but got shape {tuple(start.shape)}.")
    options = dict(options or {})
    solver = bfgs.bfgs if name == "bfgs" else lbfgs.lbfgs
    state = solver(_on_arrays(func, args), start, **options)
    hess_inv = wrap(state["H_k"]) if "H_k" in state else None
    return OptimizeResults(wrap(state["x_k"]), bool(state["converged"] & ~state["failed"]), int(state["status"]),
                           float(state["f_k"]), wrap(state["g_k"]), hess_inv, int(state["nfev"]),
                           int(state["ngev"]), int(state["k"]))


def line_search(f, xk, pk, jac=None, gfk=None, old_fval=None, old_old_fval=None, c1=1e-4, c2=0.9, maxiter=20):
    """A step along ``pk`` from ``xk`` meeting the strong Wolfe conditions for ``f`` (Tensor -> scalar Tensor).

    Returns:
        _LineSearchResults: ``failed``, ``nit``, ``nfev``, ``ngev``, ``k``, ``a_k``, ``f_k``, ``g_k`` (a Tensor),
        ``status`` (0 found, 1 iterations exhausted, ...).
    """
    if jac is not None:
        raise NotImplementedError("line_search takes no 'jac' in sporax (the gradient comes from automatic "
                                  "differentiation); leave it None.")
    given = [None if value is None else _array(value) for value in (old_fval, gfk, old_old_fval)]
    state = bfgs.wolfe_search(_on_arrays(f), _array(xk), _array(pk), *given, c1=c1, c2=c2, maxiter=maxiter)
    return _LineSearchResults(bool(state["failed"] | ~state["done"]), int(state["i"]) - 1, int(state["nfev"]),
                              int(state["ngev"]), int(state["i"]), float(state["a_star"]), float(state["phi_star"]),
                              wrap(state["g_star"]), int(state["status"]))


def linear_sum_assignment(cost_matrix, maximize, dimension_limit=Tensor(sys.maxsize)):
    """The assignment of rows to columns of least (``maximize``: greatest) total cost.

    Args:
        cost_matrix (Tensor): the (M, N) costs; +inf marks a forbidden pair.
        maximize (bool): maximise instead of minimise.
        dimension_limit (Tensor): only the first ``dimension_limit`` columns take part. Default: all.

    Returns:
        ``(row_ind, col_ind)``: Int64 Tensors of length min(M, N), row indices ascending, -1 where the limit
        left rows unassigned.
    """
    name = "For primitive[LinearSumAssignment]"
    if not isinstance(maximize, bool):
        raise TypeError(f"{name}, the input argument[maximize] must be a type of {{Bool}}, but got "
                        f"{type(maximize).__name__}.")
    cost = np.asarray(cost_matrix.asnumpy() if isinstance(cost_matrix, Tensor) else cost_matrix, np.float64)
    if cost.ndim != 2:
        raise ValueError(f"{name}, the cost_matrix rank must be equal to 2, but got {cost.ndim}.")
    limit = int(np.asarray(dimension_limit.asnumpy() if isinstance(dimension_limit, Tensor) else dimension_limit))
    if limit <= 0:
        raise RuntimeError(f"For 'LinearSumAssignment', input dimension_limit must be positive, but got {limit}.")
    length = min(cost.shape)
    cost = cost[:, :limit]
    if np.isnan(cost).any() or (np.isneginf(cost) if not maximize else np.isposinf(cost)).any():
        raise RuntimeError("For 'LinearSumAssignment', the cost can't be nan or -inf (+inf when maximizing).")
    if maximize:
        cost = -cost
    transposed = cost.shape[0] > cost.shape[1]
    rows, columns = _solve(cost.T if transposed else cost)
    if transposed:
        rows, columns = columns, rows
    order = np.argsort(rows)
    row_ind = np.full(length, -1, np.int64)
    col_ind = np.full(length, -1, np.int64)
    row_ind[:len(order)], col_ind[:len(order)] = rows[order], columns[order]
    return Tensor(row_ind), Tensor(col_ind)


def _solve(cost):
    """``(rows, columns)`` of a least-cost assignment of every row of ``cost`` (rows <= columns): shortest
    augmenting paths with dual potentials (Jonker-Volgenant, as Crouse 2016 describes it)."""
    count, width = cost.shape
    row_potential, column_potential = np.zeros(count), np.zeros(width)
    column_of_row, row_of_column = np.full(count, -1), np.full(width, -1)
    for start in range(count):
        shortest, path = np.full(width, np.inf), np.full(width, -1)
        seen_rows, seen_columns = np.zeros(count, bool), np.zeros(width, bool)
        row, reached, sink = start, 0.0, -1
        while sink < 0:
            seen_rows[row] = True
            reduced = reached + cost[row] - row_potential[row] - column_potential
            better = ~seen_columns & (reduced < shortest)
            path[better], shortest[better] = row, reduced[better]
            open_columns = np.flatnonzero(~seen_columns)
            lowest = shortest[open_columns].min()
            if lowest == np.inf:
                raise RuntimeError("For 'LinearSumAssignment', the cost matrix is infeasible: some row can only "
                                   "be matched through forbidden (inf) entries.")
            ties = open_columns[shortest[open_columns] == lowest]
            free = ties[row_of_column[ties] < 0]
            column = free[0] if len(free) else ties[0]
            reached = lowest
            seen_columns[column] = True
            if row_of_column[column] < 0:
                sink = column
            else:
                row = row_of_column[column]
        row_potential[start] += reached
        others = seen_rows.copy()
        others[start] = False
        row_potential[others] += reached - shortest[column_of_row[others]]
        column_potential[seen_columns] -= reached - shortest[seen_columns]
        column = sink
        while True:
            row = path[column]
            row_of_column[column] = row
            column_of_row[row], column = column, column_of_row[row]
            if row == start:
                break
    return np.arange(count), column_of_row

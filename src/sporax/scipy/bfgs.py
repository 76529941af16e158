"""BFGS, its strong-Wolfe line search and the descent loop LBFGS shares, as MindSpore 2.10's ``scipy.optimize``.

Nocedal & Wright's algorithms 3.5/3.6 (bracket, then zoom by cubic, quadratic or bisection) and 6.1 (the
inverse-Hessian update), with MindSpore's choices where they differ from ``jax.scipy``'s: the zoom gives up after
10 steps and never on a narrow bracket; when the zoom moves the low end to the high side, the high end returns to
where the zoom began; BFGS stops on a failed search before stepping and on convergence before counting the
iteration, and does not look at the starting gradient. The line search's Python constants (c1, c2, 1.01 * 2, the
zoom's 0.2 and 0.1) are rounded to float32 as MindSpore applies them, float64 runs included. Everything runs in
``lax.while_loop`` on jax arrays.
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

ZOOM_MAXITER = 10


class Point(NamedTuple):
    """One trial step ``alpha``: the value, the gradient and the slope along the direction there."""
    alpha: jax.Array
    value: jax.Array
    slope: jax.Array
    gradient: jax.Array


def _choose(condition, new, old):
    return jax.tree_util.tree_map(lambda first, second: jnp.where(condition, first, second), new, old)


def _scalar(value, dtype):
    """A Python float constant as MindSpore 2.10 applies it to a tensor: rounded to float32 first, even when the
    tensor is float64 (``2.02 * float64_tensor`` multiplies by 2.0199999809...)."""
    return jnp.asarray(np.float32(value)).astype(dtype)


def _cubic_minimum(a, fa, fpa, b, fb, c, fc):
    """The minimiser of the cubic through (a, fa), (b, fb), (c, fc) with slope fpa at a."""
    db, dc = b - a, c - a
    denominator = (db * dc) ** 2 * (db - dc)
    # MindSpore solves for the coefficients in float32 buffers (``mnp.zeros``' default dtype) even in float64;
    # kept in float64 here: one float64 ulp apart going in, float32 rounding only widens the gap, and the float64
    # BFGS run to convergence matches MindSpore's counts this way (not the float32 way).
    rhs_b, rhs_c = fb - fa - fpa * db, fc - fa - fpa * dc
    cubic = (dc ** 2 * rhs_b - db ** 2 * rhs_c) / denominator
    square = (-dc ** 3 * rhs_b + db ** 3 * rhs_c) / denominator
    return a + (-square + jnp.sqrt(square * square - 3.0 * cubic * fpa)) / (3.0 * cubic)


def _quadratic_minimum(a, fa, fpa, b, fb):
    """The minimiser of the quadratic through (a, fa), (b, fb) with slope fpa at a."""
    db = b - a
    return a - fpa / (2.0 * ((fb - fa - fpa * db) / db ** 2))


def _zoom(evaluate, low, high, start, c1, c2, run):
    """Shrink the bracket ``low``/``high`` to a strong-Wolfe point; returns (found Point, failed, evaluations)."""
    def keep_going(state):
        return run & ~state["done"] & (state["j"] < ZOOM_MAXITER)

    def step(state):
        low, high, j = state["low"], state["high"], state["j"]
        width = high.alpha - low.alpha
        left, right = jnp.minimum(low.alpha, high.alpha), jnp.maximum(low.alpha, high.alpha)
        cubic = _cubic_minimum(low.alpha, low.value, low.slope, high.alpha, high.value, *state["previous"])
        cubic_margin, quadratic_margin = _scalar(0.2, width.dtype) * width, _scalar(0.1, width.dtype) * width
        use_cubic = (j > 0) & jnp.isfinite(cubic) & (cubic > left + cubic_margin) & (cubic < right - cubic_margin)
        quadratic = _quadratic_minimum(low.alpha, low.value, low.slope, high.alpha, high.value)
        use_quadratic = (~use_cubic & jnp.isfinite(quadratic) & (quadratic > left + quadratic_margin)
                         & (quadratic < right - quadratic_margin))
        alpha = jnp.where(use_cubic, cubic, jnp.where(use_quadratic, quadratic, (low.alpha + high.alpha) / 2.0))
        trial = evaluate(alpha)
        to_high = (trial.value > start.value + c1 * alpha * start.slope) | (trial.value >= low.value)
        found = ~to_high & (jnp.abs(trial.slope) <= -c2 * start.slope)
        to_low = ~to_high & ~found
        # MindSpore sends the high end back to the zoom's first low end (not the current one) here.
        low_to_high = to_low & (trial.slope * width >= 0.0)
        previous = _choose(to_high | low_to_high, (high.alpha, high.value), state["previous"])
        previous = _choose(to_low, (low.alpha, low.value), previous)
        high = _choose(to_high, trial, _choose(low_to_high, state["first_low"], high))
        return dict(state, done=found, j=j + 1, low=_choose(to_low, trial, low), high=high, previous=previous,
                    found=_choose(found, trial, state["found"]))

    state = {"done": jnp.asarray(False), "j": jnp.asarray(0), "low": low, "high": high, "first_low": low,
             "previous": ((low.alpha + high.alpha) / 2.0, (low.value + high.value) / 2.0),
             "found": Point(jnp.ones_like(low.alpha), low.value, low.slope, start.gradient)}
    state = lax.while_loop(keep_going, step, state)
    return state["found"], run & (state["j"] == ZOOM_MAXITER), state["j"]


def wolfe_search(function, x, direction, value=None, gradient=None, old_old_value=None, c1=1e-4, c2=0.9,
                 maxiter=20):
    """A strong-Wolfe step along ``direction`` (jax arrays); returns a dict of MindSpore's line-search state:
    ``done``, ``failed``, ``i``, ``nfev``, ``ngev``, ``a_star``, ``phi_star``, ``g_star``, ``status``."""
    value_and_gradient = jax.value_and_grad(function)

    def evaluate(alpha):
        trial_value, trial_gradient = value_and_gradient(x + alpha * direction)
        return Point(alpha, trial_value, jnp.dot(trial_gradient, direction), trial_gradient)

    zero = jnp.zeros((), x.dtype)
    c1, c2 = _scalar(c1, x.dtype), _scalar(c2, x.dtype)
    if value is None or gradient is None:
        start, evaluations = evaluate(zero), 1
    else:
        value, gradient = jnp.asarray(value, x.dtype), jnp.asarray(gradient, x.dtype)
        start, evaluations = Point(zero, value, jnp.dot(gradient, direction), gradient), 0
    first_alpha = jnp.ones((), x.dtype)
    if old_old_value is not None:
        guess = _scalar(1.01 * 2, x.dtype) * (start.value - old_old_value) / start.slope
        first_alpha = jnp.where(jnp.isfinite(guess), jnp.minimum(guess, 1.0), 1.0).astype(x.dtype)

    def keep_going(state):
        return ~state["done"] & (state["i"] <= maxiter)

    def step(state):
        previous, i = state["previous"], state["i"]
        trial = evaluate(jnp.where(i > 1, previous.alpha * 2.0, first_alpha))
        too_far = (trial.value > start.value + c1 * trial.alpha * start.slope) | ((trial.value >= previous.value)
                                                                                 & (i > 1))
        found = ~too_far & (jnp.abs(trial.slope) <= -c2 * start.slope)
        uphill = ~too_far & ~found & (trial.slope >= 0.0)
        # The zoom runs once, after the loop, on the bracket kept here: (previous, trial) or (trial, previous).
        return dict(state, done=too_far | found | uphill, i=i + 1, previous=trial, zoom=too_far | uphill,
                    low=_choose(too_far, previous, trial), high=_choose(too_far, trial, previous),
                    found=_choose(found, trial, state["found"]))

    state = {"done": jnp.asarray(False), "i": jnp.asarray(1), "previous": start, "zoom": jnp.asarray(False),
             "low": start, "high": start, "found": start}
    state = lax.while_loop(keep_going, step, state)
    zoomed, failed, zoom_steps = _zoom(evaluate, state["low"], state["high"], start, c1, c2, state["zoom"])
    found = _choose(state["zoom"], zoomed, state["found"])
    alpha = found.alpha
    if x.dtype != jnp.float64:
        alpha = jnp.where(jnp.abs(alpha) < 1e-8, jnp.sign(alpha) * 1e-8, alpha)
    count = evaluations + state["i"] - 1 + zoom_steps
    return {"done": state["done"], "failed": failed, "i": state["i"], "nfev": count, "ngev": count,
            "a_star": alpha, "phi_star": found.value, "g_star": found.gradient,
            "status": jnp.where(failed, 1, jnp.where(state["i"] > maxiter, 3, 0))}


def gradient_norm(vector, order):
    """MindSpore's convergence norm: the largest magnitude for ``order`` inf, else the Euclidean norm."""
    return jnp.max(jnp.abs(vector)) if order == jnp.inf else jnp.sqrt(jnp.sum(vector ** 2))


def descend(function, x0, start, direction, update, maxiter=None, norm=jnp.inf, gtol=1e-5, line_search_maxiter=10):
    """MindSpore's gradient-descent loop (``GradientOptimizationAlgorithm``): from ``memory = start(g_0)``, line
    search along ``direction(memory, g_k)``, stop on a failed search or convergence, else
    ``memory = update(memory, s_k, y_k, g_next)``. Returns a dict of MindSpore's state: ``converged``, ``failed``,
    ``k``, ``nfev``, ``ngev``, ``x_k``, ``f_k``, ``g_k``, ``memory``, ``status``."""
    if maxiter is None:
        maxiter = x0.size * 200
    value, gradient = jax.value_and_grad(function)(x0)

    def keep_going(state):
        return ~state["stop"] & (state["k"] < maxiter)

    def step(state):
        search_direction = direction(state["memory"], state["g_k"])
        search = wolfe_search(function, state["x_k"], search_direction, state["f_k"], state["g_k"],
                              state["old_old_fval"], maxiter=line_search_maxiter)
        failed = search["failed"] | ~search["done"]
        counted = dict(state, nfev=state["nfev"] + search["nfev"], ngev=state["ngev"] + search["ngev"],
                       failed=failed, line_search_status=search["status"])
        s_k = search["a_star"] * search_direction
        y_k = search["g_star"] - state["g_k"]
        converged = gradient_norm(search["g_star"], norm) < gtol
        memory = _choose(converged, state["memory"], update(state["memory"], s_k, y_k, search["g_star"]))
        stepped = dict(counted, x_k=state["x_k"] + s_k, f_k=search["phi_star"], g_k=search["g_star"],
                       old_old_fval=state["f_k"], converged=converged, stop=converged, memory=memory,
                       k=state["k"] + jnp.where(converged, 0, 1))
        return _choose(failed, dict(counted, stop=jnp.asarray(True)), stepped)

    one = jnp.asarray(1)
    state = {"stop": jnp.asarray(False), "converged": gradient_norm(gradient, jnp.inf) < gtol,
             "failed": jnp.asarray(False), "k": jnp.asarray(0), "nfev": one, "ngev": one, "x_k": x0, "f_k": value,
             "g_k": gradient, "memory": start(gradient), "old_old_fval": value + jnp.linalg.norm(gradient) / 2,
             "line_search_status": jnp.asarray(0)}
    state = lax.while_loop(keep_going, step, state)
    state["status"] = jnp.where(state["converged"], 0, jnp.where(
        state["k"] == maxiter, 1, jnp.where(state["failed"], 2 + state["line_search_status"], -1)))
    return state


def bfgs(function, x0, maxiter=None, norm=jnp.inf, gtol=1e-5, line_search_maxiter=10):
    """Minimise ``function`` (jax array -> scalar) from the 1-D ``x0`` by BFGS; returns ``descend``'s state with
    the inverse Hessian estimate as ``H_k``."""
    identity = jnp.eye(x0.shape[0], dtype=x0.dtype)

    def update(inverse, s_k, y_k, _):
        rho = 1.0 / jnp.dot(y_k, s_k)
        return ((identity - rho * jnp.outer(s_k, y_k)) @ inverse @ (identity - rho * jnp.outer(y_k, s_k))
                + rho * jnp.outer(s_k, s_k))

    state = descend(function, x0, lambda _: identity, lambda inverse, gradient: -jnp.dot(inverse, gradient), update,
                    maxiter, norm, gtol, line_search_maxiter)
    state["H_k"] = state.pop("memory")
    return state

"""LBFGS, step for step as MindSpore 2.10's ``mindspore.scipy.optimize`` (``method='LBFGS'``).

The descent loop and line search are BFGS's (``sporax.scipy.bfgs.descend``); only the search vector differs: the
two-loop recursion (Nocedal & Wright, algorithm 7.4) over the last ``history_size`` steps, with MindSpore's
choices: the history is a fixed buffer of ``history_size`` rows, zero until filled (an empty row adds nothing);
it keeps ``rho * s`` and ``rho * y`` rather than ``rho``; the scaling ``gamma`` comes from the newest pair; and a
step whose curvature ``y . s`` is at most 1e-10 is not recorded and makes the next direction the plain gradient.
"""
import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.scipy import bfgs

CURVATURE_FLOOR = 1e-10


def _shift_in(history, row):
    """Drop the oldest row of ``history``, append ``row`` as the newest."""
    return jnp.concatenate([history[1:], row[None]], axis=0)


def _two_loop(memory, s_k, y_k, gradient):
    """The next search vector (the direction is its negative) and the history with ``(s_k, y_k)`` recorded."""
    curvature = jnp.dot(y_k, s_k)
    rho = 1.0 / curvature
    history = {"s": _shift_in(memory["s"], s_k), "y": _shift_in(memory["y"], y_k),
               "rho_s": _shift_in(memory["rho_s"], rho * s_k), "rho_y": _shift_in(memory["rho_y"], rho * y_k)}
    size = history["s"].shape[0]

    def backward(step, carry):
        vector, alphas = carry
        index = size - 1 - step
        alpha = jnp.dot(history["rho_s"][index], vector)
        return vector - alpha * history["y"][index], alphas.at[index].set(alpha)

    vector, alphas = lax.fori_loop(0, size, backward, (gradient, jnp.zeros((size,), gradient.dtype)))
    scaled = curvature / jnp.dot(y_k, y_k) * vector

    def forward(index, vector):
        beta = jnp.dot(history["rho_y"][index], vector)
        return vector + alphas[index] * history["s"][index] - beta * history["s"][index]

    search = lax.fori_loop(0, size, forward, scaled)
    skip = curvature <= CURVATURE_FLOOR
    kept = {name: jnp.where(skip, memory[name], rows) for name, rows in history.items()}
    return dict(kept, search=jnp.where(skip, gradient, search))


def lbfgs(function, x0, history_size=20, maxiter=None, norm=jnp.inf, gtol=1e-5, line_search_maxiter=10):
    """Minimise ``function`` (jax array -> scalar) from the 1-D ``x0`` by LBFGS keeping ``history_size`` steps;
    returns ``bfgs.descend``'s state (without the history)."""
    if not isinstance(history_size, (int, np.integer)) or isinstance(history_size, bool) or history_size < 1:
        raise ValueError(f"For 'minimize' with method='LBFGS', options['history_size'] must be a positive int, "
                         f"but got {history_size!r}.")
    empty = jnp.zeros((int(history_size),) + x0.shape, x0.dtype)

    def start(gradient):
        # MindSpore's first search vector is the starting gradient (a steepest-descent first step, as BFGS's).
        return {"s": empty, "y": empty, "rho_s": empty, "rho_y": empty, "search": gradient}

    state = bfgs.descend(function, x0, start, lambda memory, _: -memory["search"], _two_loop, maxiter, norm, gtol,
                         line_search_maxiter)
    state.pop("memory")
    return state

"""Shared helpers for the nn tests: fixture paths, and gradients checked against finite differences."""
import os

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures")
MINDSPORE_FIXTURES = os.path.join(FIXTURES, "mindspore-2.10")


def oracle_layers():
    """Outputs recorded from MindSpore 2.10 by tests/fixtures/nn/record_layers.py."""
    return np.load(os.path.join(FIXTURES, "nn", "oracle_layers.npz"))


def check_gradient(cell, x, parameter=None, seed=0, directions=3, rtol=1e-5, atol=1e-7):
    """Compare jax.grad of sum(cell(x) * probe) with central differences along random directions.

    The gradient is taken w.r.t. ``parameter`` (its array is bound into the Parameter's slot for
    the traced call) or w.r.t. the input ``x`` when ``parameter`` is None. Use float64 layers and
    inputs so the differences are exact enough for tight tolerances.
    """
    rng = np.random.default_rng(seed)
    x_array = jnp.asarray(x)
    probe = jnp.asarray(rng.standard_normal(np.shape(cell(Tensor._wrap(x_array))._value)))

    if parameter is None:
        def loss(value):
            return jnp.sum(cell(Tensor._wrap(value))._value * probe)
        start = x_array
    else:
        original = parameter._array

        def loss(value):
            parameter._array = value
            try:
                return jnp.sum(cell(Tensor._wrap(x_array))._value * probe)
            finally:
                parameter._array = original
        start = original

    gradient = np.asarray(jax.grad(loss)(start))
    step = 1e-6
    for _ in range(directions):
        direction = rng.standard_normal(np.shape(start))
        plus = float(loss(start + step * direction))
        minus = float(loss(start - step * direction))
        numeric = (plus - minus) / (2 * step)
        analytic = float(np.sum(gradient * direction))
        np.testing.assert_allclose(analytic, numeric, rtol=rtol, atol=atol)
    return gradient

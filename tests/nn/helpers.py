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


def check_gradient(cell, x, parameters=(), wrt_input=True, seed=0, directions=2, rtol=1e-5, atol=1e-7):
    """Compare jax.grad of sum(cell(x) * probe) with central differences along random directions.

    Gradients are taken w.r.t. each of ``parameters`` (their arrays are bound into the Parameters'
    slots for the traced call, then every Parameter of ``cell`` is restored) and, when
    ``wrt_input``, w.r.t. ``x``. Use float64 layers and inputs so that the differences are exact
    enough for tight tolerances. Returns the gradients (parameters first, then the input's).
    """
    rng = np.random.default_rng(seed)
    parameters = list(parameters)
    everything = list(cell.get_parameters())
    saved = [p._array for p in everything]
    x_array = jnp.asarray(x)
    # the output's shape only: traced, not run (an eager call compiled each operation of the Cell on its own)
    shape = jax.eval_shape(lambda value: cell(Tensor._wrap(value))._value, x_array).shape
    probe = jnp.asarray(rng.standard_normal(shape))
    for p, value in zip(everything, saved):
        p._array = value

    def loss(values, x_value):
        for parameter, value in zip(parameters, values):
            parameter._array = value
        try:
            return jnp.sum(cell(Tensor._wrap(x_value))._value * probe)
        finally:
            for parameter, value in zip(everything, saved):
                parameter._array = value

    starts = [p._array for p in parameters]
    forward = jax.jit(loss)
    if wrt_input:
        parameter_grads, input_grad = jax.jit(jax.grad(loss, argnums=(0, 1)))(starts, x_array)
    else:
        parameter_grads, input_grad = jax.jit(jax.grad(loss))(starts, x_array), None
    targets = list(range(len(parameters))) + (["input"] if wrt_input else [])
    step = 1e-6
    for target in targets:
        for _ in range(directions):
            values, x_value = list(starts), x_array
            base = x_array if target == "input" else starts[target]
            direction = jnp.asarray(rng.standard_normal(np.shape(base)), base.dtype)

            def moved(sign):
                if target == "input":
                    return forward(values, x_value + sign * step * direction)
                shifted = list(values)
                shifted[target] = base + sign * step * direction
                return forward(shifted, x_value)

            numeric = (float(moved(1)) - float(moved(-1))) / (2 * step)
            gradient = input_grad if target == "input" else parameter_grads[target]
            analytic = float(jnp.sum(gradient * direction))
            np.testing.assert_allclose(analytic, numeric, rtol=rtol, atol=atol,
                                       err_msg=f"gradient w.r.t. {target} of {type(cell).__name__}")
    return [np.asarray(g) for g in parameter_grads] + ([np.asarray(input_grad)] if wrt_input else [])

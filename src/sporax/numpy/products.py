"""Products, norms, convolutions and integration of ``mindspore.numpy``."""
import jax.numpy as jnp

from sporax.numpy.dispatch import table


def _norm(x, ord, axis, keepdims):
    if x.dtype.kind in "biu":
        x = x.astype(jnp.float32)
    return jnp.linalg.norm(x, ord, axis, keepdims)


def _multi_dot(arrays):
    return jnp.linalg.multi_dot(arrays)


_ROWS = [
    ("dot", "(a, b)", lambda a, b: jnp.dot(a, b), "a b"),
    ("inner", "(a, b)", lambda a, b: jnp.inner(a, b), "a b"),
    ("outer", "(a, b)", lambda a, b: jnp.outer(a, b), "a b"),
    ("kron", "(a, b)", lambda a, b: jnp.kron(a, b), "a b"),
    ("tensordot", "(a, b, axes=2)", lambda a, b, axes: jnp.tensordot(a, b, axes), "a b"),
    ("multi_dot", "(arrays)", _multi_dot, "", "arrays"),
    ("cross", "(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None)",
     lambda a, b, axisa, axisb, axisc, axis: jnp.cross(a, b, axisa, axisb, axisc, axis), "a b"),
    ("matrix_power", "(a, n)", lambda a, n: jnp.linalg.matrix_power(a, n), "a"),
    ("norm", "(x, ord=None, axis=None, keepdims=False)", _norm, "x"),
    ("trapz", "(y, x=None, dx=1.0, axis=-1)", lambda y, x, dx, axis: jnp.trapezoid(y, x, dx, axis), "y x"),
    ("convolve", "(a, v, mode='full')", lambda a, v, mode: jnp.convolve(a, v, mode), "a v"),
    ("correlate", "(a, v, mode='valid')", lambda a, v, mode: jnp.correlate(a, v, mode), "a v"),
]

__all__ = table(_ROWS, globals())

"""MindSpore's gradient convention for complex inputs of the products (MatMul, BatchMatMul, Dense ...).

JAX's vjp of a holomorphic ``f`` gives ``dout * f'(x)``; MindSpore's backward rules of the products multiply
by the conjugate of the other operand, ``dout * conj(f'(x))`` (PyTorch's convention). For any ``f`` that is
``conj(vjp(conj(dout)))``, which ``conjugate_gradient`` applies when an input is complex; real inputs take
the plain function (and keep forward-mode differentiation, which a custom VJP would lose).

Example:
    >>> import jax, jax.numpy as jnp
    >>> from sporax.ops.functional.complex_gradients import conjugate_gradient
    >>> x, w = jnp.array([1 + 2j]), jnp.array([3 - 1j])
    >>> jax.vjp(conjugate_gradient(jnp.multiply), x, w)[1](jnp.array([1 + 0j]))[0].tolist()
    [(3+1j)]
"""
import functools

import jax
import jax.numpy as jnp


@functools.lru_cache(maxsize=None)
def _conjugated(function):
    @jax.custom_vjp
    def conjugated(*args):
        return function(*args)

    def forward(*args):
        return function(*args), args

    def backward(args, cotangent):
        _, pullback = jax.vjp(function, *args)
        return tuple(jnp.conj(grad) for grad in pullback(jnp.conj(cotangent)))

    conjugated.defvjp(forward, backward)
    return conjugated


def conjugate_gradient(function):
    """``function`` of arrays whose gradient follows MindSpore's complex convention (see the module).

    Args:
        function: a function of arrays returning one array, differentiable by JAX.

    Returns:
        A function of the same arrays: ``function`` itself when none is complex.
    """
    def dispatch(*args):
        if any(jnp.iscomplexobj(arg) for arg in args):
            return _conjugated(function)(*args)
        return function(*args)
    return dispatch

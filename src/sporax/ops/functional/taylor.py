"""Higher-order forward derivatives: ``jet`` (Taylor-mode propagation of derivative series) and
``derivative`` (the ``order``-th derivative along a direction of ones).

Contract: as MindSpore 2.10: ``series[k]`` is the (k+1)-th derivative of the input path, and the output
series holds the (k+1)-th derivatives of ``fn`` along it (derivatives, not Taylor coefficients); ``fn``
maps Tensors to a Tensor and may be a Cell.

Algorithm: ``jax.experimental.jet`` on ``fn`` seen as a function of arrays (the same wrapping as
``ops.jvp``).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> out, third = ops.derivative(lambda x: x ** 3, Tensor(np.array([2.0], np.float32)), 3)
    >>> out.asnumpy().tolist(), third.asnumpy().tolist()
    ([8.0], [6.0])
"""
import numbers

import jax.numpy as jnp
from jax.experimental import jet as jax_jet

from sporax.autodiff.transforms import _array_function, to_tensors
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe


def _as_tuple(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def jet(fn, primals, series):
    """``(out_primals, out_series)``: ``fn`` at ``primals`` and its derivatives along the input derivative
    ``series`` (a Tensor, or a tuple with one per input, of shape (order,) + the input's shape).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> out, series = ops.jet(lambda x: x * x, Tensor(np.array([3.0], np.float32)),
        ...                       Tensor(np.array([[1.0], [0.0]], np.float32)))
        >>> series.asnumpy().ravel().tolist()
        [6.0, 2.0]
    """
    inputs = _as_tuple(primals)
    terms = _as_tuple(series)
    if len(inputs) != len(terms):
        raise ValueError(f"For 'jet', 'series' must hold one Tensor per input: {len(inputs)} inputs, {len(terms)} "
                         "series.")
    arrays = [array_of("jet", "primals", item) for item in inputs]
    term_arrays = [array_of("jet", "series", item) for item in terms]
    for array, term in zip(arrays, term_arrays):
        if term.shape[1:] != array.shape:
            raise ValueError(f"For 'jet', each series must have shape (order,) + {tuple(array.shape)}, but got "
                             f"{tuple(term.shape)}.")
    function = _array_function(fn)
    out, out_series = jax_jet.jet(function, tuple(arrays),
                                  tuple([term[k].astype(array.dtype) for k in range(term.shape[0])]
                                        for array, term in zip(arrays, term_arrays)))
    return to_tensors(out), Tensor._wrap(jnp.stack([jnp.asarray(s) for s in out_series]))


def derivative(fn, primals, order):
    """``(out_primals, d^order fn)``: ``fn`` at ``primals`` and its ``order``-th derivative along ones
    (element-wise derivatives for element-wise ``fn``)."""
    if isinstance(order, bool) or not isinstance(order, numbers.Integral) or order < 1:
        raise ValueError(f"For 'derivative', 'order' must be a positive int, but got {order!r}.")
    inputs = _as_tuple(primals)
    for item in inputs:
        if not isinstance(item, Tensor):
            raise TypeError(f"For 'derivative', 'primals' must be Tensors, but got {describe(item)}.")
    series = tuple(Tensor._wrap(jnp.concatenate([jnp.ones((1,) + item.shape, item._value.dtype),
                                                 jnp.zeros((order - 1,) + item.shape, item._value.dtype)]))
                   for item in inputs)
    out, out_series = jet(fn, inputs if isinstance(primals, (tuple, list)) else inputs[0],
                          series if isinstance(primals, (tuple, list)) else series[0])
    return out, Tensor._wrap(out_series._value[-1])

"""Small building blocks for the state/autodiff/graph tests, independent of sporax.ops and sporax.nn layers.

Arithmetic goes straight to the Tensor's array so these tests exercise state lifting only.
"""
import numpy as np

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell

wrap = Tensor._wrap


def mul(*tensors):
    result = tensors[0]._value
    for tensor in tensors[1:]:
        result = result * tensor._value
    return wrap(result)


def add(a, b):
    return wrap(a._value + b._value)


def total(a):
    return wrap(a._value.sum())


def matmul(a, b):
    return wrap(a._value @ b._value)


def tanh(a):
    import jax.numpy as jnp

    return wrap(jnp.tanh(a._value))


def assign(parameter, value):
    """What ops.assign does: rebind the Parameter's slot."""
    parameter._array = value._value if isinstance(value, Tensor) else value
    return parameter


def tensor(values, dtype=np.float32):
    return Tensor(np.asarray(values, dtype))


def as_numpy(value):
    """A structure of Tensors as nested tuples of NumPy arrays (other leaves unchanged)."""
    if isinstance(value, Tensor):
        return value.asnumpy()
    if isinstance(value, (tuple, list)):
        return tuple(as_numpy(item) for item in value)
    return value


def structure(value):
    """The nesting of a result: 'T' for a Tensor, tuples as tuples, other leaves by value."""
    if isinstance(value, Tensor):
        return "T"
    if isinstance(value, (tuple, list)):
        return tuple(structure(item) for item in value)
    return value


def finite_difference(function, arrays, index, epsilon=1e-3):
    """d sum(function(*arrays)) / d arrays[index], by central differences in float64."""
    arrays = [np.asarray(a, np.float64) for a in arrays]
    base = arrays[index]
    gradient = np.zeros_like(base)
    for position in np.ndindex(base.shape):
        plus = [a.copy() for a in arrays]
        minus = [a.copy() for a in arrays]
        plus[index][position] += epsilon
        minus[index][position] -= epsilon
        gradient[position] = (np.sum(function(*plus)) - np.sum(function(*minus))) / (2 * epsilon)
    return gradient


class Linear(Cell):
    """y = tanh(x @ w + b) with Parameters w (in, out) and b (out,)."""

    def __init__(self, w, b):
        super().__init__()
        self.w = Parameter(tensor(w), name="w")
        self.b = Parameter(tensor(b), name="b")

    def construct(self, x):
        return tanh(add(matmul(x, self.w), self.b))


class MovingMean(Cell):
    """Scales its input by a weight and, in training, updates a moving mean of it (like BatchNorm)."""

    def __init__(self, size, momentum=0.9):
        super().__init__()
        self.weight = Parameter(tensor(np.ones(size)), name="weight")
        self.moving_mean = Parameter(tensor(np.zeros(size)), name="moving_mean", requires_grad=False)
        self.momentum = momentum

    def construct(self, x):
        if self.training:
            batch_mean = wrap(x._value.mean(axis=0))
            assign(self.moving_mean, add(mul(self.moving_mean, wrap(np.float32(self.momentum))),
                                         mul(batch_mean, wrap(np.float32(1 - self.momentum)))))
            return mul(x, self.weight)
        return mul(add(x, wrap(-self.moving_mean._value)), self.weight)

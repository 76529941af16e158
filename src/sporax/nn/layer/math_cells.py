"""Small math Cells of ``mindspore.nn``: triangles, ranges, one-hot, norms, moments, matrices.

Each Cell is a thin adapter onto one JAX expression (or an existing op), with MindSpore's
constructor arguments; inputs are Tensors, outputs Tensors of the dtype MindSpore gives.
"""
import numbers

import jax.numpy as jnp
import jax.scipy.special as special
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax import ops


def _array(cell, name, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{cell}', the input '{name}' must be a Tensor, but got {type(value).__name__}.")
    return value._value


def _axes(cell, axis):
    if axis is None or axis == ():
        return None
    if isinstance(axis, int) and not isinstance(axis, bool):
        return axis
    if isinstance(axis, (tuple, list)) and all(isinstance(a, int) and not isinstance(a, bool) for a in axis):
        return tuple(axis)
    raise TypeError(f"For '{cell}', the 'axis' must be an int, a tuple of ints or None, but got {axis!r}.")


class Tril(Cell):
    """The lower triangle of the last two axes: ``Tril()(x, k=0)`` zeroes entries above diagonal ``k``.

    Inputs:
        - **x** (Tensor) -- at least 2-D.
        - **k** (int) -- the diagonal (0 main, > 0 above, < 0 below). Default: 0.

    Outputs:
        Tensor, same shape and dtype.

    Example:
        >>> import sporax as ms
        >>> ms.nn.Tril()(ms.Tensor([[1, 2], [3, 4]])).asnumpy().tolist()
        [[1, 0], [3, 4]]
    """

    def construct(self, x, k=0):
        return ops.tril(x, k)


class Triu(Cell):
    """The upper triangle of the last two axes: ``Triu()(x, k=0)`` zeroes entries below diagonal ``k``.

    Inputs:
        - **x** (Tensor) -- at least 2-D.
        - **k** (int) -- the diagonal. Default: 0.

    Outputs:
        Tensor, same shape and dtype.
    """

    def construct(self, x, k=0):
        return ops.triu(x, k)


class Range(Cell):
    """The sequence ``start, start + delta, ...`` below ``limit`` (``range(0, start)`` without limit).

    Args:
        start (Union[int, float]): the first value (the limit when ``limit`` is None).
        limit (Union[int, float]): the end, excluded. Default: None.
        delta (Union[int, float]): the step, not 0. Default: 1.

    Inputs:
        None.

    Outputs:
        1-D Tensor: int32 when every argument is an int, float32 otherwise.
    """

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        for name, value in (("start", start), ("limit", limit), ("delta", delta)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, numbers.Real)):
                raise TypeError(f"For 'Range', the '{name}' must be an int or float, but got {type(value).__name__}.")
        if delta == 0:
            raise ValueError("For 'Range', the 'delta' can not be zero.")
        if limit is None:
            start, limit = 0, start
        integral = all(isinstance(value, int) for value in (start, limit, delta))
        self.start, self.limit, self.delta = start, limit, delta
        self._dtype = np.int32 if integral else np.float32

    def construct(self):
        return Tensor(np.arange(self.start, self.limit, self.delta).astype(self._dtype))


class OneHot(Cell):
    """One-hot encode integer indices along a new axis.

    Args:
        axis (int): where the new axis goes. Default: -1.
        depth (int): its length. Default: 1.
        on_value (float): the value at the index. Default: 1.0.
        off_value (float): the value elsewhere. Default: 0.0.
        dtype (mindspore.dtype): the output dtype. Default: float32.

    Inputs:
        - **indices** (Tensor) -- integer indices.

    Outputs:
        Tensor with one more axis (of length ``depth``).
    """

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=mstype.float32):
        super().__init__()
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise ValueError(f"For 'OneHot', the 'depth' must be an int >= 0, but got {depth!r}.")
        self.axis, self.depth, self.dtype = axis, depth, dtype
        self.on_value, self.off_value = on_value, off_value

    def construct(self, indices):
        # the op's kernel (ops.one_hot), with the values made Tensors of the Cell's dtype
        return ops.one_hot(indices, self.depth, Tensor(self.on_value, self.dtype), Tensor(self.off_value, self.dtype),
                           self.axis)


class Norm(Cell):
    """The Euclidean norm ``sqrt(sum(x ** 2))`` over ``axis`` (every axis for ``()``).

    Args:
        axis (Union[tuple, int]): the reduced axes. Default: ().
        keep_dims (bool): keep reduced axes with length 1. Default: False.

    Inputs:
        - **x** (Tensor) -- floating point.

    Outputs:
        Tensor.
    """

    def __init__(self, axis=(), keep_dims=False):
        super().__init__()
        self.axis = _axes("Norm", axis)
        self.keep_dims = bool(keep_dims)

    def construct(self, x):
        array = _array("Norm", "x", x)
        return Tensor._wrap(jnp.sqrt(jnp.sum(jnp.square(array), axis=self.axis, keepdims=self.keep_dims)))


class Roll(Cell):
    """Roll the elements of a Tensor by ``shift`` positions along ``axis`` (both may be tuples).

    Args:
        shift (Union[int, tuple[int]]): the shifts.
        axis (Union[int, tuple[int]]): the axes, one per shift.

    Inputs:
        - **input_x** (Tensor).

    Outputs:
        Tensor, same shape and dtype.
    """

    def __init__(self, shift, axis):
        super().__init__()
        shift = (shift,) if isinstance(shift, int) else tuple(shift)
        axis = (axis,) if isinstance(axis, int) else tuple(axis)
        if len(shift) != len(axis):
            raise ValueError(f"For 'Roll', the 'shift' and 'axis' must have the same length, but got {shift} "
                             f"and {axis}.")
        self.shift, self.axis = shift, axis

    def construct(self, input_x):
        return Tensor._wrap(jnp.roll(_array("Roll", "input_x", input_x), self.shift, self.axis))


class MatDet(Cell):
    """The determinant of each square matrix of the last two axes.

    Inputs:
        - **x** (Tensor) -- (..., M, M), float32 or float64.

    Outputs:
        Tensor, (...).
    """

    def construct(self, x):
        return Tensor._wrap(jnp.linalg.det(_array("MatDet", "x", x)))


class MatInverse(Cell):
    """The inverse of each square matrix of the last two axes.

    Inputs:
        - **x** (Tensor) -- (..., M, M), float32 or float64.

    Outputs:
        Tensor, (..., M, M).
    """

    def construct(self, x):
        return Tensor._wrap(jnp.linalg.inv(_array("MatInverse", "x", x)))


class DiGamma(Cell):
    """The digamma function (the derivative of ``lgamma``), elementwise.

    Inputs:
        - **x** (Tensor) -- floating point.

    Outputs:
        Tensor, same shape and dtype.
    """

    def construct(self, x):
        return ops.digamma(x)


class LGamma(Cell):
    """The log of the absolute gamma function, elementwise.

    Inputs:
        - **x** (Tensor) -- floating point.

    Outputs:
        Tensor, same shape and dtype.
    """

    def construct(self, x):
        return ops.lgamma(x)


class IGamma(Cell):
    """The regularized lower incomplete gamma function ``P(a, x)``, elementwise (broadcast).

    Inputs:
        - **a** (Tensor) -- positive.
        - **x** (Tensor) -- non-negative.

    Outputs:
        Tensor.
    """

    def construct(self, a, x):
        return Tensor._wrap(special.gammainc(_array("IGamma", "a", a), _array("IGamma", "x", x)))


class LBeta(Cell):
    """The log of the beta function, ``lgamma(x) + lgamma(y) - lgamma(x + y)``, elementwise.

    Inputs:
        - **x** (Tensor) -- positive.
        - **y** (Tensor) -- positive.

    Outputs:
        Tensor.
    """

    def construct(self, x, y):
        return Tensor._wrap(special.betaln(_array("LBeta", "x", x), _array("LBeta", "y", y)))


class Moments(Cell):
    """The mean and (biased) variance over ``axis``.

    Args:
        axis (Union[int, tuple[int]]): the reduced axes; None for all. Default: None.
        keep_dims (bool): keep reduced axes with length 1; None means False. Default: None.

    Inputs:
        - **x** (Tensor).

    Outputs:
        (mean, variance) Tensors.
    """

    def __init__(self, axis=None, keep_dims=None):
        super().__init__()
        self.axis = _axes("Moments", axis)
        self.keep_dims = bool(keep_dims)

    def construct(self, x):
        array = _array("Moments", "x", x)
        mean = jnp.mean(array, axis=self.axis, keepdims=True)
        variance = jnp.mean(jnp.square(array - mean), axis=self.axis, keepdims=self.keep_dims)
        if not self.keep_dims:
            mean = jnp.mean(array, axis=self.axis)
        return Tensor._wrap(mean), Tensor._wrap(variance)


class CosineSimilarity(Cell):
    """The cosine similarity of ``x1`` and ``x2`` along ``dim`` (``mindspore.nn.layer.math``'s Cell; the
    ``mindspore.nn.CosineSimilarity`` of the top namespace is the metric).

    Args:
        dim (int): the axis of the vectors. Default: 1.
        eps (float): the smallest norm a vector is divided by. Default: 1e-08.

    Inputs:
        - **x1** (Tensor).
        - **x2** (Tensor): broadcastable with ``x1``.

    Outputs:
        Tensor, ``x1``'s shape without ``dim``.
    """

    def __init__(self, dim=1, eps=1e-08):
        super().__init__()
        self.dim, self.eps = dim, eps

    def construct(self, x1, x2):
        return ops.cosine_similarity(x1, x2, self.dim, self.eps)


class ReduceLogSumExp(Cell):
    """``log(sum(exp(x)))`` over ``axis``, computed stably.

    Args:
        axis (Union[int, tuple[int]]): the reduced axes.
        keep_dims (bool): keep reduced axes with length 1. Default: False.

    Inputs:
        - **x** (Tensor).

    Outputs:
        Tensor.
    """

    def __init__(self, axis, keep_dims=False):
        super().__init__()
        self.axis = _axes("ReduceLogSumExp", axis)
        self.keep_dims = bool(keep_dims)

    def construct(self, x):
        array = _array("ReduceLogSumExp", "x", x)
        return Tensor._wrap(special.logsumexp(array, axis=self.axis, keepdims=self.keep_dims))


class MatrixDiag(Cell):
    """Batched diagonal matrices: (..., N) values become (..., N, N) with them on the diagonal.

    Inputs:
        - **x** (Tensor) -- (..., N).

    Outputs:
        Tensor, (..., N, N).
    """

    def construct(self, x):
        array = _array("MatrixDiag", "x", x)
        return Tensor._wrap(array[..., None] * jnp.eye(array.shape[-1], dtype=array.dtype))


class MatrixDiagPart(Cell):
    """The main diagonal of each matrix of the last two axes: (..., M, N) to (..., min(M, N)).

    Inputs:
        - **x** (Tensor) -- (..., M, N).

    Outputs:
        Tensor.
    """

    def construct(self, x):
        return Tensor._wrap(jnp.diagonal(_array("MatrixDiagPart", "x", x), axis1=-2, axis2=-1))


class MatrixSetDiag(Cell):
    """Replace the main diagonal of each matrix of the last two axes.

    Inputs:
        - **x** (Tensor) -- (..., M, N).
        - **diagonal** (Tensor) -- (..., min(M, N)).

    Outputs:
        Tensor, (..., M, N).
    """

    def construct(self, x, diagonal):
        array = _array("MatrixSetDiag", "x", x)
        values = _array("MatrixSetDiag", "diagonal", diagonal)
        rows, columns = array.shape[-2:]
        size = min(rows, columns)
        if values.shape[-1] != size:
            raise ValueError(f"For 'MatrixSetDiag', the 'diagonal' must end with {size}, but got shape "
                             f"{tuple(values.shape)}.")
        mask = jnp.eye(rows, columns, dtype=bool)
        padded = jnp.zeros(values.shape[:-1] + (rows, columns), values.dtype)
        index = jnp.arange(size)
        padded = padded.at[..., index, index].set(values)
        return Tensor._wrap(jnp.where(mask, padded.astype(array.dtype), array))


class L1Regularizer(Cell):
    """The L1 penalty ``scale * sum(|weights|)``.

    Args:
        scale (float): the factor, > 0.

    Inputs:
        - **weights** (Tensor).

    Outputs:
        Tensor, a scalar.
    """

    def __init__(self, scale):
        super().__init__()
        if isinstance(scale, bool) or not isinstance(scale, numbers.Real):
            raise TypeError(f"For 'L1Regularizer', the 'scale' must be a float, but got {type(scale).__name__}.")
        if scale <= 0 or not np.isfinite(scale):
            raise ValueError(f"For 'L1Regularizer', the 'scale' must be a finite number > 0, but got {scale}.")
        self.scale = float(scale)

    def construct(self, weights):
        array = _array("L1Regularizer", "weights", weights)
        return Tensor._wrap((self.scale * jnp.sum(jnp.abs(array))).astype(array.dtype))

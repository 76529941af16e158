"""Primitive classes over the special-function, complex and counting ops: ``BesselJ0`` ... ``Igamma``,
``Complex``, ``Conj``, ``Gcd``, ``DivNoNan``, ``CumulativeLogsumexp``, ``EuclideanNorm``, ``Bincount``,
``Histogram``, ``CheckNumerics`` ...

Each class is an adapter: attributes in ``__init__`` (MindSpore's names), the functional op in
``__call__``. Inputs MindSpore wants as Tensors (an ``axis`` Tensor) may also be Python ints.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> print(ops.DivNoNan()(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([0.0, 4.0], np.float32))))
    [0.  0.5]
"""
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.faces import primitive_class
from sporax.ops.functional import (activation, array as array_ops, bessel, comparison, complex_parts, creation,
                                   histograms, indexing, linalg, math_counting, norms, reduce)
from sporax.ops.op_table import TABLE
from sporax.ops.operations.math_ops import _elementwise
from sporax.ops.primitive import Primitive, prim_attr_register
from sporax.ops.functional import linalg_products

_X, _XY = ["x"], ["x", "y"]

# The Bessel Primitives come from their op-table entries: ``ops.BesselJ0()`` runs ``ops.bessel_j0``'s kernel.
(BesselI0, BesselI0e, BesselI1, BesselI1e, BesselJ0, BesselJ1, BesselK0, BesselK0e, BesselK1, BesselK1e, BesselY0,
 BesselY1) = (primitive_class(TABLE[f"bessel_{kind}"], __name__)
              for kind in ("i0", "i0e", "i1", "i1e", "j0", "j1", "k0", "k0e", "k1", "k1e", "y0", "y1"))
Igamma = primitive_class(TABLE["igamma"], __name__)
Igammac = primitive_class(TABLE["igammac"], __name__)
Betainc = _elementwise("Betainc", bessel.betainc, ["a", "b", "x"], "Regularized incomplete beta ``I_x(a, b)``.")
Acosh = primitive_class(TABLE["acosh"], __name__)
Asinh = primitive_class(TABLE["asinh"], __name__)
Atanh = primitive_class(TABLE["atanh"], __name__)
Angle = _elementwise("Angle", complex_parts.angle, ["input"], "Element-wise argument of a complex tensor.")
Conj = primitive_class(TABLE["conj"], __name__)
Imag = primitive_class(TABLE["imag"], __name__)
Gcd = primitive_class(TABLE["gcd"], __name__)
Fmax = primitive_class(TABLE["fmax"], __name__)
Fmin = primitive_class(TABLE["fmin"], __name__)
Hypot = primitive_class(TABLE["hypot"], __name__)
Heaviside = primitive_class(TABLE["heaviside"], __name__)
Eps = primitive_class(TABLE["eps"], __name__)
Fills = _elementwise("Fills", math_counting.fills, ["x", "value"], "``x``'s shape and dtype filled with ``value``.")
Ger = _elementwise("Ger", lambda x1, x2: _ger(x1, x2), ["x1", "x2"], "Outer product of two 1-D tensors.")
Gelu = _elementwise("Gelu", lambda x: activation.gelu(x, approximate="tanh"), _X,
                    "GELU, tanh approximation (the old name of ``GeLU``).")
AccumulateNV2 = _elementwise("AccumulateNV2", linalg.addn, ["inputs"], "Element-wise sum of a list of tensors.")


def _ger(x1, x2):
    return linalg_products.ger(x1, x2)


DivNoNan = primitive_class(TABLE["div_no_nan"], __name__)


def _complex(real, imag):
    a = array_of("Complex", "real", real)
    b = array_of("Complex", "imag", imag)
    if a.dtype != b.dtype or a.dtype not in (np.float32, np.float64):
        raise TypeError(f"For 'Complex', 'real' and 'imag' must both be Float32 or both Float64, but got "
                        f"{describe(real)} and {describe(imag)}.")
    return wrap(jax.lax.complex(*jnp.broadcast_arrays(a, b)))


_complex.__name__ = "complex"
Complex = _elementwise("Complex", _complex, ["real", "imag"], "The complex tensor ``real + 1j * imag``.")


def _complex_abs(x):
    array = array_of("ComplexAbs", "x", x)
    if array.dtype.kind != "c":
        raise TypeError(f"For 'ComplexAbs', 'x' must be a complex Tensor, but got {describe(x)}.")
    return wrap(jnp.abs(array))


_complex_abs.__name__ = "abs"
ComplexAbs = _elementwise("ComplexAbs", _complex_abs, _X, "Element-wise modulus of a complex tensor.")


def _scalar(op_name, arg_name, value):
    """A Python int from an int or a one-element Tensor."""
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"For '{op_name}', '{arg_name}' must hold one value, but got shape {value.shape}.")
        return value.asnumpy().reshape(-1)[0].item()
    return value


def int_tuple(value):
    """A tuple of ints from an int, a sequence of ints or an int Tensor (MindSpore's Tensor-valued attributes)."""
    if isinstance(value, Tensor):
        return tuple(int(v) for v in value.asnumpy().reshape(-1))
    if isinstance(value, numbers.Integral):
        return (int(value),)
    return tuple(value)


class ConjugateTranspose(Primitive):
    """The conjugate of ``x`` with its axes permuted by ``perm``.

    Inputs:
        - **x** (Tensor), **perm** (tuple[int]).

    Outputs:
        Tensor.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "perm"], ["output"])

    def __call__(self, x, perm):
        array = array_of(self.name, "x", x)
        perm = int_tuple(perm)
        if sorted(p % max(array.ndim, 1) for p in perm) != list(range(array.ndim)):
            raise ValueError(f"For '{self.name}', 'perm' must be a permutation of the {array.ndim} axes, but got "
                             f"{perm}.")
        return complex_parts.conj(array_ops.transpose(x, perm))


Cross = primitive_class(TABLE["cross"], __name__)


class Cdist(Primitive):
    """The ``p``-norm distance between each pair of row vectors of ``input_x`` and ``input_y``.

    Args:
        p (float): the norm order. Default: 2.0.
    """

    @prim_attr_register
    def __init__(self, p=2.0):
        if not isinstance(p, float) or p < 0:
            raise TypeError(f"For 'Cdist', 'p' must be a non-negative float, but got {p!r}.")
        self.p = p

    def __call__(self, input_x, input_y):
        return norms.cdist(input_x, input_y, self.p)


class EuclideanNorm(Primitive):
    """The L2 norm of ``x`` over ``axes`` (an int tuple or an int Tensor).

    Args:
        keep_dims (bool): keep the reduced axes. Default: False.
    """

    @prim_attr_register
    def __init__(self, keep_dims=False):
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'EuclideanNorm', 'keep_dims' must be a bool, but got {type(keep_dims).__name__}.")
        self.keep_dims = keep_dims

    def __call__(self, x, axes):
        dtype = array_of(self.name, "x", x).dtype
        # Integers are measured in Float32 and the norm comes back in their dtype, as MindSpore's kernel does.
        values = array_ops.cast(x, mstype.float32) if dtype.kind in "iu" else x
        return array_ops.cast(norms.vector_norm(values, 2, int_tuple(axes), self.keep_dims), x.dtype)


class CountNonZero(Primitive):
    """The number of non-zero elements of ``x`` over ``dims`` (all when None), Int64.

    Args:
        dims (Union[int, tuple[int]]): the axes. Default: None.
    """

    @prim_attr_register
    def __init__(self, dims=None):
        self.dims = dims

    def __call__(self, x):
        return reduce.count_nonzero(x, self.dims)


CumulativeLogsumexp = primitive_class(TABLE["cumulative_logsumexp"], __name__)


class EqualCount(Primitive):
    """The number of equal elements of ``x`` and ``y`` (same shape), as a one-element tensor."""

    def __call__(self, x, y):
        a, b = array_of(self.name, "x", x), array_of(self.name, "y", y)
        if a.shape != b.shape or a.dtype != b.dtype:
            raise ValueError(f"For '{self.name}', 'x' and 'y' must have the same shape and dtype, but got "
                             f"{describe(x)} and {describe(y)}.")
        matches = array_ops.cast(comparison.equal(x, y), mstype.int32)  # count_nonzero refuses Bool
        return array_ops.reshape(array_ops.cast(reduce.count_nonzero(matches), x.dtype), (1,))


class FillV2(Primitive):
    """A tensor of shape ``shape`` (an int tuple or 1-D int Tensor) filled with the 0-D Tensor ``value``."""

    def __call__(self, shape, value):
        fill = array_ops.reshape(value, ()) if isinstance(value, Tensor) else Tensor(value)
        return creation.full(int_tuple(shape), fill, dtype=fill.dtype)


class FillDiagonal(Primitive):
    """``input_x`` (at least 2-D, all dims equal above 2-D) with its main diagonal set to ``fill_value``.

    Args:
        fill_value (float): the value. wrap (bool): for tall matrices, restart the diagonal every
            ``columns + 1`` rows. Default: False.
    """

    @prim_attr_register
    def __init__(self, fill_value, wrap=False):
        if isinstance(fill_value, bool) or not isinstance(fill_value, numbers.Real):
            raise TypeError(f"For 'FillDiagonal', 'fill_value' must be a number, but got {fill_value!r}.")
        self.fill_value, self.wrap = fill_value, wrap

    def __call__(self, input_x):
        return fill_diagonal(self.name, input_x, self.fill_value, self.wrap)


def fill_diagonal(op_name, input_x, fill_value, wrap_rows):
    """Set the main diagonal of ``input_x`` to ``fill_value`` (a new Tensor); shared with Tensor methods."""
    array = array_of(op_name, "input_x", input_x)
    if array.ndim < 2 or (array.ndim > 2 and len(set(array.shape)) != 1):
        raise ValueError(f"For '{op_name}', the input must be 2-D, or have all dimensions equal, but got shape "
                         f"{tuple(array.shape)}.")
    if array.ndim > 2:
        index = jnp.arange(array.shape[0])
        return wrap(array.at[(index,) * array.ndim].set(fill_value))
    rows, cols = array.shape
    flat = np.arange(0, rows * cols, cols + 1)
    if not wrap_rows:
        flat = flat[:min(rows, cols)]
    row_index, col_index = flat // cols, flat % cols
    return wrap(array.at[row_index, col_index].set(fill_value))


class Bincount(Primitive):
    """Counts (or summed ``weights``) of the values ``0 .. size-1`` in the int tensor ``array``."""

    def __call__(self, array, size, weights):
        length = int(_scalar(self.name, "size", size))
        if length < 0:
            raise ValueError(f"For '{self.name}', 'size' must be non-negative, but got {length}.")
        flat = array_ops.reshape(array, (-1,))
        weight = array_ops.reshape(array_ops.broadcast_to(weights, array.shape), (-1,))
        # Values outside [0, size) are dropped: counted in bin 0 with weight 0.
        inside = comparison.logical_and(comparison.ge(flat, 0), comparison.lt(flat, length))
        counts = histograms.bincount(indexing.where(inside, flat, 0), indexing.where(inside, weight, 0),
                                        minlength=length)
        return array_ops.cast(counts[:length], weights.dtype)


class Bucketize(Primitive):
    """The bucket index of each element of ``input`` for the sorted ``boundaries``:
    ``boundaries[i-1] <= x < boundaries[i]`` gives ``i`` (Int32).

    Args:
        boundaries (list[float]): the sorted bucket edges.
    """

    @prim_attr_register
    def __init__(self, boundaries):
        if not isinstance(boundaries, (list, tuple)):
            raise TypeError(f"For 'Bucketize', 'boundaries' must be a list of floats, but got {boundaries!r}.")
        self.boundaries = [float(b) for b in boundaries]

    def __call__(self, input):
        return histograms.bucketize(input, self.boundaries, right=True)


class Histogram(Primitive):
    """A ``bins``-bin histogram of ``x`` over [min, max] (the data range when equal).

    Args:
        bins (int): Default: 100. min (float), max (float): Default: 0.0.
    """

    @prim_attr_register
    def __init__(self, bins=100, min=0.0, max=0.0):
        self.bins, self.min, self.max = bins, min, max

    def __call__(self, x):
        return histograms.histc(x, self.bins, self.min, self.max)


class HistogramFixedWidth(Primitive):
    """A histogram of ``x`` in ``nbins`` equal bins over ``range`` = [low, high]; values outside go to the
    first or last bin.

    Args:
        nbins (int): the number of bins (>= 1). dtype (str): 'int32'. Default: 'int32'.
    """

    @prim_attr_register
    def __init__(self, nbins, dtype="int32"):
        if isinstance(nbins, bool) or not isinstance(nbins, numbers.Integral) or nbins < 1:
            raise ValueError(f"For 'HistogramFixedWidth', 'nbins' must be a positive int, but got {nbins!r}.")
        if dtype != "int32":
            raise TypeError(f"For 'HistogramFixedWidth', 'dtype' must be 'int32', but got {dtype!r}.")
        self.nbins = nbins

    def __call__(self, x, range):  # noqa: A002 - MindSpore's name
        return histograms.histogram_fixed_width(x, range, self.nbins)


class IdentityN(Primitive):
    """The tensors of the list or tuple ``x`` as a tuple of new Tensors with the same values (a list gives a
    tuple too, as in MindSpore 2.10)."""

    def __call__(self, x):
        if not isinstance(x, (list, tuple)):
            raise TypeError(f"For '{self.name}', 'x' must be a list or tuple of Tensors, but got {describe(x)}.")
        if not x:
            raise ValueError(f"For '{self.name}', 'x' must hold at least one Tensor, but got an empty "
                             f"{type(x).__name__}.")
        for index, item in enumerate(x):
            if not isinstance(item, Tensor):
                raise TypeError(f"For '{self.name}', each item of 'x' must be a Tensor, but x[{index}] is "
                                f"{describe(item)}.")
        return tuple(Tensor._wrap(item._value) for item in x)


class identity(Primitive):  # noqa: N801 - MindSpore's (deprecated) Primitive name, kept verbatim
    """``P.identity()(x)``: ``x`` itself (MindSpore's deprecated Primitive form; the zoo's Pangu-Alpha
    uses it as a no-op merge in data-parallel mode). The function form is ``ops.identity``.

    Inputs:
        - **x** - any value.

    Outputs:
        ``x``, unchanged.
    """

    def __init__(self):
        super().__init__("identity")
        self.add_prim_attr("side_effect_propagate", 1)

    def __call__(self, x):
        return x


class CheckNumerics(Primitive):
    """``x`` itself, after checking it holds no NaN or Inf (a RuntimeError names which)."""

    def __call__(self, x):
        if array_of(self.name, "x", x).dtype.kind == "f":
            if bool(reduce.any(comparison.isnan(x))):
                raise RuntimeError(f"For '{self.name}', the Tensor had NaN values.")
            if bool(reduce.any(comparison.isinf(x))):
                raise RuntimeError(f"For '{self.name}', the Tensor had Inf values.")
        return x


class InTopK(Primitive):
    """Whether each target index ``x2[i]`` is among the ``k`` largest entries of row ``x1[i]``.

    Args:
        k (int): how many top entries count.
    """

    @prim_attr_register
    def __init__(self, k):
        if isinstance(k, bool) or not isinstance(k, numbers.Integral):
            raise TypeError(f"For 'InTopK', 'k' must be an int, but got {type(k).__name__}.")
        self.k = k

    def __call__(self, x1, x2):
        return math_counting.intopk(x1, x2, self.k)


class CompareAndBitpack(Primitive):
    """``x > threshold`` packed 8 per byte along the last axis (UInt8, first element in the high bit)."""

    def __call__(self, x, threshold):
        return math_counting.compare_and_bitpack(x, threshold)


class ConfusionMatrix(Primitive):
    """The (num_classes, num_classes) confusion matrix of ``labels`` against predicted ``logits`` (class ids).

    Args:
        num_classes (int): the number of classes. dtype (str): the result type without weights. Default: 'int32'.
    """

    @prim_attr_register
    def __init__(self, num_classes, dtype="int32"):
        if isinstance(num_classes, bool) or not isinstance(num_classes, numbers.Integral) or num_classes < 1:
            raise ValueError(f"For 'ConfusionMatrix', 'num_classes' must be a positive int, but got {num_classes!r}.")
        self.num_classes, self.dtype = num_classes, dtype

    def __call__(self, labels, logits, weights=None):
        return math_counting.confusion_matrix(labels, logits, self.num_classes, weights,
                                       mstype.to_numpy_dtype(mstype.normalize(self.dtype)))

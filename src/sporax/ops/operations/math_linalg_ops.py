"""Primitive classes for special element-wise math and matrix functions: ``Lcm``, ``NextAfter``, ``Polygamma``,
``Zeta``, ``MatrixExp``, ``Svd``, ``Qr``, ``LuSolve``, ``Orgqr``, ``MatrixDiagV3``, ...

Each class records MindSpore's ``__init__`` attributes and calls the functional op (``_adapter``:
inputs first, then the attribute values).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations import Lcm
    >>> Lcm()(Tensor(np.array([4])), Tensor(np.array([6]))).asnumpy().tolist()
    [12]
"""
from sporax.core.tensor import Tensor
from sporax.ops.faces import primitive_class
from sporax.ops.functional import (comparison, complex_parts, creation, factorizations, math,
                                   matrix_functions, solve, ternary_arithmetic)
from sporax.ops.op_table import TABLE
from sporax.ops.operations.scatter_ops import _adapter
from sporax.ops.primitive import Primitive, prim_attr_register


def _make(name, function, doc, attributes=()):
    return _adapter(name, function, doc, attributes, module=__name__)


# Generated from their op-table entries, in the order of their entry names: ``Lcm()`` runs ``ops.lcm``'s kernel.
(Lcm, MulNoNan, NextAfter, PopulationCount, Real, Rint, Zeta, Mvlgamma, NanToNum, Pdist) = (
    primitive_class(TABLE[entry], __name__) for entry in (
        "lcm", "mul_no_nan", "nextafter", "population_count", "real", "rint", "zeta", "mvlgamma", "nan_to_num",
        "pdist"))
(LogMatrixDeterminant, MatrixDeterminant, MatrixExp, MatrixInverse, MatrixPower, LuUnpack, Orgqr, Ormqr, NuclearNorm,
 TridiagonalMatMul) = (
    primitive_class(TABLE[entry], __name__) for entry in (
        "log_matrix_determinant", "matrix_determinant", "matrix_exp", "matrix_inverse", "matrix_power", "lu_unpack",
        "orgqr", "ormqr", "nuclear_norm", "tridiagonal_matmul"))
MatrixDiagPartV3, MatrixSetDiagV3 = (
    primitive_class(TABLE[entry], __name__) for entry in ("matrix_diag_part", "matrix_set_diag"))


_MatrixDiagV3 = primitive_class(TABLE["matrix_diag"], __name__)


class MatrixDiagV3(_MatrixDiagV3):
    __doc__ = _MatrixDiagV3.__doc__

    def __call__(self, *args):
        # MindSpore's padding_value is a Tensor input: a Tensor one must be a scalar of x's dtype (MindSpore 2.10's
        # messages). sporax also takes a number, as ops.matrix_diag does (MindSpore refuses one: a named difference).
        if len(args) == 5 and isinstance(args[4], Tensor):
            x, padding_value = args[0], args[4]
            if padding_value.ndim != 0:
                raise ValueError(f"For primitive[MatrixDiagV3], the rank of 'padding_value' must be equal to 0, but "
                                 f"got {padding_value.ndim}.")
            if isinstance(x, Tensor) and x.dtype != padding_value.dtype:
                raise TypeError(f"For 'MatrixDiagV3', the dtype of two args should be same, but the dtype of first "
                                f"arg Tensor[{x.dtype}] is not consistent with the dtype of second arg "
                                f"Tensor[{padding_value.dtype}]")
        return super().__call__(*args)
Polar, Polygamma, LuSolve = (primitive_class(TABLE[entry], __name__) for entry in ("polar", "polygamma", "lu_solve"))

# Adapters (``_make``): each calls its functional op with the inputs, then the attribute values.
LeftShift = _make("LeftShift", comparison.bitwise_left_shift, "``x << y`` element-wise on integer Tensors.")
RightShift = _make("RightShift", comparison.bitwise_right_shift, "``x >> y`` element-wise on integer Tensors.")
LerpScalar = _make("LerpScalar", ternary_arithmetic.lerp, "``input + weight * (end - input)`` with a scalar ``weight``.")
MatrixLogarithm = _make("MatrixLogarithm", matrix_functions.matrix_logarithm,
                        "The matrix logarithm of complex square matrices.")


class Logit(Primitive):
    """``log(x / (1 - x))``, with ``x`` clamped to ``[eps, 1 - eps]`` when ``eps >= 0``.

    Args:
        eps (float): the clamp; negative for none. Default: -1.0.

    Inputs:
        - **x** (Tensor) - float.
    """

    @prim_attr_register
    def __init__(self, eps=-1.0):
        if not isinstance(eps, float):
            raise TypeError(f"For 'Logit', 'eps' must be a float, but got {type(eps).__name__}.")
        self.eps = eps

    def __call__(self, x):
        return math.logit(x, None if self.eps < 0 else self.eps)


class Qr(Primitive):
    """``(Q, R)`` of matrices; ``full_matrices`` gives the complete factorisation.

    Inputs:
        - **x** (Tensor) - (..., M, N) float or complex.
    """

    @prim_attr_register
    def __init__(self, full_matrices=False):
        self.full_matrices = bool(full_matrices)

    def __call__(self, x):
        return factorizations.qr(x, "complete" if self.full_matrices else "reduced")


class Svd(Primitive):
    """``(s, u, v)`` with ``x = u @ diag(s) @ v^H``; without ``compute_uv`` ``u`` and ``v`` are zeros.

    Inputs:
        - **input** (Tensor) - (..., M, N) float or complex.
    """

    @prim_attr_register
    def __init__(self, full_matrices=False, compute_uv=True):
        self.full_matrices, self.compute_uv = bool(full_matrices), bool(compute_uv)

    def __call__(self, input):
        s, u, v = factorizations.svd(input, self.full_matrices, True)
        if not self.compute_uv:  # MindSpore still returns u and v, as zeros
            return s, creation.zeros_like(u), creation.zeros_like(v)
        return s, u, v


class Lstsq(Primitive):
    """The least-squares solution of ``matrix @ X = rhs`` (MindSpore supports ``l2_regularizer`` 0.0 only).

    Inputs:
        - **matrix** (Tensor) - (M, N). **rhs** (Tensor) - (M,) or (M, K).
    """

    @prim_attr_register
    def __init__(self, fast=True, l2_regularizer=0.0):
        if not isinstance(l2_regularizer, float) or l2_regularizer != 0.0:
            raise TypeError(f"For 'Lstsq', the 'l2_regularizer' should be 0.0, but got '{l2_regularizer}'.")
        self.fast = fast

    def __call__(self, matrix, rhs):
        return matrix_functions.lstsq_regularized("Lstsq", matrix, rhs)


class MatrixSolveLs(Primitive):
    """The least-squares solutions of batched ``matrix @ X = rhs`` with an L2 penalty ``l2``.

    Inputs:
        - **matrix** (Tensor) - (..., M, N). **rhs** (Tensor) - (..., M, K). **l2** (Tensor) - a scalar.
    """

    @prim_attr_register
    def __init__(self, fast=True):
        self.fast = fast

    def __call__(self, matrix, rhs, l2):
        return matrix_functions.lstsq_regularized("MatrixSolveLs", matrix, rhs, l2)


class MatrixTriangularSolve(Primitive):
    """Solve ``A X = rhs`` for triangular ``A`` (``lower``; ``adjoint``: the conjugate transpose of ``A``).

    Inputs:
        - **matrix** (Tensor) - (..., M, M). **rhs** (Tensor) - (..., M, K).
    """

    @prim_attr_register
    def __init__(self, lower=True, adjoint=False):
        self.lower, self.adjoint = bool(lower), bool(adjoint)

    def __call__(self, matrix, rhs):
        if self.adjoint:  # the conjugate transpose: triangular_solve transposes, conj is the rest
            matrix = complex_parts.conj(matrix)
        return solve.triangular_solve(rhs, matrix, upper=not self.lower, transpose=self.adjoint)[0]


Renorm = primitive_class(TABLE["renorm"], __name__)


class Trace(Primitive):
    """The sum of the main diagonal of a 2-D Tensor (the ``trace`` op-table entry).

    Written out rather than generated only to keep its recorded ``__init__(name=None)`` signature.

    Inputs:
        - **input** (Tensor) - 2-D.
    """

    def __call__(self, input):
        return TABLE["trace"].function(input)

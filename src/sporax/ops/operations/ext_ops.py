"""MindSpore 2.x's ``*Ext`` and scalar-operand Primitives (``SumExt``, ``MatMulExt``, ``Muls``).

MindSpore's ``mint`` functions and Tensor methods run on these Primitives, so a MindIR exported by
MindSpore 2.10 names them (``REF::SumExt``); each is a thin adapter onto the functional op.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.ext_ops import Muls
    >>> Muls()(Tensor(np.ones(2, np.float32)), 3).asnumpy()
    array([3., 3.], dtype=float32)
"""
from sporax.ops.functional import arithmetic, linalg, reduce
from sporax.ops.primitive import Primitive


class Muls(Primitive):
    """Multiply a Tensor by a scalar (MindSpore's ``Tensor * number``).

    Inputs:
        - **input** (Tensor) - the Tensor.
        - **other** (Number) - the scalar.

    Outputs:
        Tensor of ``input``'s dtype.
    """

    def __init__(self):
        super().__init__("Muls")

    def __call__(self, input, other):
        return arithmetic.mul(input, other)


class MatMulExt(Primitive):
    """Matrix product with NumPy's broadcasting rules (``mint.matmul``).

    Inputs:
        - **input** (Tensor) - ``(..., n, k)`` or a vector.
        - **other** (Tensor) - ``(..., k, m)`` or a vector.

    Outputs:
        Tensor, the product.
    """

    def __init__(self):
        super().__init__("MatMulExt")

    def __call__(self, input, other):
        return linalg.matmul(input, other)


class SumExt(Primitive):
    """Sum over ``dim`` (all dimensions when None), optionally keeping them and casting (``mint.sum``).

    Inputs:
        - **input** (Tensor) - the Tensor.
        - **dim** (int, tuple or None) - the dimensions. Default: None.
        - **keepdim** (bool) - keep the reduced dimensions. Default: False.
        - **dtype** (mindspore.dtype) - the output dtype. Default: None.

    Outputs:
        Tensor, the sums.
    """

    def __init__(self):
        super().__init__("SumExt")

    def __call__(self, input, dim=None, keepdim=False, dtype=None):
        return reduce.sum(input, dim, keepdim, dtype=dtype)

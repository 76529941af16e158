"""Products: ``ops.matmul``, ``ops.bmm``, ``ops.dot``, ``ops.einsum``, ``ops.addn``, ``ops.cross`` ...

The products are op-table entries (``sporax.ops.op_table``): each kernel below is a function
of arrays whose signature is MindSpore's, run as one compiled dispatch per eager call, with its
Tensor-method and ``mint`` names, samples and a NumPy reference. Two Tensor operands of a product are
promoted to their common dtype inside the kernel (``int32 @ float16`` -> Float16). ``addn`` and ``Einsum``'s
``einsum_operands`` take a tuple of Tensors (a ``sequences`` input); ``ops.einsum(equation, *operands)`` calls
the latter. The norms are in ``norms``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.matmul(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((3, 4), np.float32))).shape
    (2, 4)
"""
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops._dispatch import promote_types
from sporax.ops.functional.complex_gradients import conjugate_gradient
from sporax.ops.face_inputs import NUMBERS, accepting, primitive_check
from sporax.ops.op_table import ANY, FLOAT, Sample, function_op, op
from sporax.ops.op_table import spelling
from sporax.ops.samples import _numpy_dtype, sequences, with_settings, without


# --- samples and NumPy references of the family -------------------------------------------------
def _grid_values(shape, dtype, seed, low=-2.0, high=2.0):
    """Values on a grid of quarters: their products and short sums are exact in float16/bfloat16, so a
    reduced-precision product is compared with the float64 reference without accumulated rounding."""
    values = np.round(np.random.default_rng(seed).uniform(low, high, size=shape) * 4) / 4
    return np.asarray(values).astype(_numpy_dtype(dtype))


def operands(*shape_sets, low=-2.0, high=2.0, floats_only=False, **kwargs):
    """A sample maker: one sample per tuple of operand shapes, on the quarter grid; ``kwargs`` as settings.

    ``floats_only`` gives samples for float32 and float64 only (decompositions LAPACK has no half
    precision kernel for).
    """

    def make(dtype):
        if floats_only and dtype not in ("float32", "float64"):
            return []
        return [Sample(tuple(_grid_values(shape, dtype, seed * 10 + index, low, high)
                             for index, shape in enumerate(shapes)), dict(kwargs))
                for seed, shapes in enumerate(shape_sets)]

    return make


def _promoted(*arrays):
    """The arrays in MindSpore's common dtype of them all."""
    dtype = arrays[0].dtype
    for array in arrays[1:]:
        dtype = promote_types(dtype, array.dtype)
    return [array if array.dtype == dtype else array.astype(dtype) for array in arrays]


def _check_matmul_shapes(first, second):
    """MindSpore 2.10's MatMulExt errors (ops.matmul, mint.matmul, ``@``): a 1-D ``other`` that does not fit is
    MatMul's ValueError, a mismatched inner dimension or unbroadcastable batch dimensions RuntimeError."""
    if not all(isinstance(dim, (int, np.integer)) for dim in first + second):
        return  # symbolic dimensions (an export with dynamic shapes): the compiler checks them
    shapes = f"(input shape {first}, other shape {second})"
    if len(second) == 1:
        if first[-1] != second[0]:
            raise ValueError(f"For 'MatMul' the input dimensions must be equal, but got 'x1_col': {first[-1]} and "
                             f"'x2_row': {second[0]}. {shapes}")
        return
    if first[-1] != second[-2]:
        raise RuntimeError(f"For 'MatMulExt' op, shape1[-1] must be equal to shape2[-2], but got {first[-1]} and "
                           f"{second[-2]}. {shapes}")
    try:
        np.broadcast_shapes(first[:-2], second[:-2])
    except ValueError:
        vectors = ["[const vector]{" + ", ".join(map(str, shape)) + "}" for shape in (first, second)]
        raise RuntimeError(f"For 'MatMulExt' op,  shape1 and shape2 must be broadcastable, but got {vectors[0]} and "
                           f"{vectors[1]}") from None


def _product(op_name, function, input, other, input_name="input", other_name="other", same_dtype=False):
    """``function(input, other)`` in their common dtype (``same_dtype``: the two dtypes must be equal); a shape
    mismatch raises naming the op."""
    if same_dtype and input.dtype != other.dtype:
        # MindSpore 2.10's MatMul/MatMulExt promote nothing: Float32 @ Float16 (or Int32, Float64) is a TypeError
        names = [f"Tensor[{mstype.from_numpy_dtype(array.dtype)}]" for array in (input, other)]
        raise TypeError(f"For '{op_name}', the type of '{other_name}' should be same as '{input_name}', but got "
                        f"'{input_name}' with type {names[0]} and '{other_name}' with type {names[1]}. Cast one "
                        f"of them first, e.g. {other_name}.astype({input_name}.dtype).")
    if op_name == "matmul":
        _check_matmul_shapes(tuple(input.shape), tuple(other.shape))
    a, b = _promoted(input, other)
    try:
        # complex operands: MindSpore's gradient multiplies by the other operand's conjugate
        return conjugate_gradient(function)(a, b)
    except (TypeError, ValueError) as error:
        raise ValueError(f"For '{op_name}', the shapes {tuple(a.shape)} and {tuple(b.shape)} do "
                         f"not fit: the last dimension of '{input_name}' must equal the "
                         f"second-to-last of '{other_name}' (batch dimensions broadcast). "
                         f"Details: {error}") from None


def _product_op(name, function, summary, example, inputs=("input", "other"), same_dtype=False, **options):
    """Declare the product ``name``: ``function`` of its two Tensor ``inputs`` in their common dtype, a shape
    mismatch raising an error that names the op and both inputs; ``options`` are ``op``'s.

    ``same_dtype``: operands of two dtypes raise TypeError (MindSpore's MatMul), else they meet in the common one.
    ``example`` is ``(first shape, second shape, result shape)``: the docstring's example multiplies
    Float32 ones of the two shapes and shows the result's shape.
    """
    first, second = inputs
    first_shape, second_shape, result_shape = example
    doc = (f"{summary}\n\n    Example:\n        >>> import numpy as np\n        >>> from sporax import Tensor, ops\n"
           f"        >>> ops.{name}(Tensor(np.ones({first_shape}, np.float32)), "
           f"Tensor(np.ones({second_shape}, np.float32))).shape\n        {result_shape}\n")
    return function_op(name, lambda a, b: _product(name, function, a, b, first, second, same_dtype), doc,
                       module=__name__, inputs=inputs, dtypes=ANY, **options)


_PRODUCT_SHAPES = (((3, 4), (4, 2)), ((2, 3, 4), (4, 5)), ((4,), (4, 3)))


matmul = _product_op(
    "matmul", jnp.matmul, "Matrix product of ``input`` and ``other`` with NumPy's broadcasting rules.",
    ((2, 3), (3,), (2,)), same_dtype=True,
    method="matmul", mint="matmul", samples=operands(*_PRODUCT_SHAPES, ((2, 1, 2, 3), (3, 3, 2))),
    reference=np.matmul)
mm = _product_op(
    "mm", jnp.matmul, "Matrix product of two 2-D tensors.", ((2, 3), (3, 4), (2, 4)),
    inputs=("input", "mat2"), same_dtype=True, method="mm", mint="mm",
    samples=operands(((3, 4), (4, 2)), ((1, 3), (3, 5))),
    reference=np.matmul)
bmm = _product_op(
    "bmm", jnp.matmul, "Batched matrix product: ``(..., n, m) @ (..., m, p)``.", ((2, 2, 3), (2, 3, 4), (2, 2, 4)),
    inputs=("input_x", "mat2"), method="bmm", mint=spelling("bmm", "input, mat2", input_x="input"),
    samples=operands(((2, 3, 4), (2, 4, 2)), ((1, 2, 3), (1, 3, 3))),
    reference=np.matmul)
mv = _product_op(
    "mv", jnp.matmul, "Matrix-vector product.", ((2, 3), (3,), (2,)),
    inputs=("mat", "vec"), mint=spelling("mv", "input, vec", mat="input"),
    samples=operands(((3, 4), (4,)), ((1, 2), (2,))), reference=np.matmul)


def _swapped(array, transpose):
    return jnp.swapaxes(array, -1, -2) if transpose else array


def _primitive_operands(op_name, x1, x2):
    """MindSpore 2.10's MatMul/BatchMatMul Primitives promote nothing and have no Bool kernel (both TypeError)."""
    if x1.dtype != x2.dtype:
        names = [f"Tensor[{mstype.from_numpy_dtype(array.dtype)}]" for array in (x1, x2)]
        raise TypeError(f"For '{op_name}', the type of 'x2' should be same as 'x1', but got 'x1' with type "
                        f"{names[0]} and 'x2' with type {names[1]}. Cast one of them first, e.g. "
                        f"ops.cast(x2, x1.dtype).")
    if x1.dtype == np.bool_:
        raise TypeError(f"For '{op_name}', Bool operands have no kernel (MindSpore: \"Unsupported data type\"); "
                        f"cast them to a number dtype first.")


def _numpy_transposed_product(input, mat2, transpose_a=False, transpose_b=False):
    a, b = np.asarray(input), np.asarray(mat2)
    return np.matmul(np.swapaxes(a, -1, -2) if transpose_a else a, np.swapaxes(b, -1, -2) if transpose_b else b)


# MindSpore's MatMul and BatchMatMul Primitives: a product with either operand transposed first. MindSpore
# has no functional op of these names; their functional faces stay out of ``ops``.
@op(inputs=("input", "mat2"), dtypes=ANY, primitive="MatMul", primitive_attrs=("transpose_a", "transpose_b"),
    samples=with_settings(operands(((3, 3), (3, 3)), ((3, 4), (4, 2))), {"transpose_a": True},
                          {"transpose_b": True}, {"transpose_a": True, "transpose_b": True}),
    reference=_numpy_transposed_product)
def mat_mul(input, mat2, transpose_a=False, transpose_b=False):
    """Matrix product of two 2-D tensors, optionally transposing either first (``ops.MatMul``).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.MatMul(transpose_b=True)(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((4, 3), np.float32))).shape
        (2, 4)
    """
    if input.ndim != 2 or mat2.ndim != 2:
        # MindSpore's MatMul refuses anything but two matrices (no batching, no vectors)
        raise ValueError(f"For 'MatMul', 'input' and 'mat2' must both be 2-D, but got shapes {tuple(input.shape)} "
                         f"and {tuple(mat2.shape)}: use ops.BatchMatMul or ops.matmul for batched or vector "
                         f"operands.")
    _primitive_operands("MatMul", input, mat2)
    return _product("MatMul", jnp.matmul, _swapped(input, transpose_a), _swapped(mat2, transpose_b),
                    "input", "mat2")


def _numpy_batch_transposed_product(x, y, transpose_a=False, transpose_b=False):
    return _numpy_transposed_product(x, y, transpose_a, transpose_b)


@op(inputs=("x", "y"), dtypes=ANY, primitive="BatchMatMul", primitive_attrs=("transpose_a", "transpose_b"),
    samples=with_settings(operands(((2, 3, 3), (2, 3, 3)), ((2, 1, 2, 3), (3, 2))), {"transpose_a": True},
                          {"transpose_b": True}),
    reference=_numpy_batch_transposed_product)
def batch_mat_mul(x, y, transpose_a=False, transpose_b=False):
    """Batched matrix product ``(..., N, C) @ (..., C, M)``, optionally transposing either input
    (``ops.BatchMatMul``).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.BatchMatMul()(Tensor(np.ones((2, 2, 3), np.float32)), Tensor(np.ones((2, 3, 4), np.float32))).shape
        (2, 2, 4)
    """
    _primitive_operands("BatchMatMul", x, y)
    return _product("BatchMatMul", jnp.matmul, _swapped(x, transpose_a), _swapped(y, transpose_b), "x", "y")


def _dot(a, b):
    if a.ndim <= 2 and b.ndim <= 2:
        return jnp.dot(a, b)
    return jnp.tensordot(a, b, axes=([-1], [b.ndim - 2 if b.ndim > 1 else 0]))


def _numpy_dot(a, b):
    # NumPy's own N-d dot contracts the same axes (last of a, second-to-last of b)
    return np.dot(np.asarray(a), np.asarray(b))


def _dot_operand(argument):
    """The reader of one ``ops.dot`` operand: a float Tensor, else MindSpore 2.10's TypeError naming ``argument``
    (``x1``/``x2``). MindSpore also refuses Float64; sporax computes it."""
    return accepting(("Float16", "Float32", "Float64"), f"The '{argument}' doesn't support '{{got}}' and expect to "
                                                       "receive [mindspore.float16, mindspore.float32].", keep=True)


def _checked_dot(input, other):
    # MindSpore 2.10's ops.dot (and Tensor.dot): one float dtype, then both operands at least 2-D
    if input.dtype != other.dtype:
        names = [mstype.from_numpy_dtype(array.dtype) for array in (input, other)]
        raise TypeError(f"For \\'dot\\', the inputs must be the same type, but got x1_type: {names[0]} and x2_type: "
                        f"{names[1]}.\nFor 'dot', cast one operand first, e.g. other.astype(input.dtype).")
    if input.ndim < 2 or other.ndim < 2:
        raise ValueError(f"For \\'dot\\', the inputs x1, x2 should have \\'dimension >= 2\\',but got "
                         f"\\'len(x1_shape)\\': ({input.ndim}) and \\'len(x2_shape)\\': ({other.ndim}).\nFor "
                         "'dot', 'input' and 'other' must both be at least 2-D; for vectors use ops.inner or "
                         "mint.dot.")
    return _product("dot", _dot, input, other)


dot = function_op(
    "dot", _checked_dot, """Dot product over the last axis of ``input`` and the second-to-last of ``other``: two float
    Tensors of one dtype, each at least 2-D (as MindSpore 2.10's ``ops.dot``; ``mint.dot`` takes two vectors).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.dot(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((3, 2), np.float32))).shape
        (2, 2)
    """, module=__name__, inputs=("input", "other"), dtypes=FLOAT, method="dot",
    input_dtypes={"input": _dot_operand("x1"), "other": _dot_operand("x2")},
    samples=without(("bfloat16",), operands(((3, 4), (4, 2)), ((2, 3, 4), (2, 4, 3)), ((2, 3), (2, 3, 4)))),
    reference=_numpy_dot)
inner = _product_op(
    "inner", jnp.inner, "Inner product over the last axes of ``input`` and ``other``.", ((2, 3), (4, 3), (2, 4)),
    method="inner", samples=operands(((3, 4), (2, 4)), ((4,), (4,))), reference=np.inner)
outer = _product_op(
    "outer", jnp.outer, "Outer product of two vectors.", ((2,), (3,), (2, 3)),
    # ``Outer``: MindSpore 2.10 registers its kernel on Ascend only; here it runs everywhere.
    inputs=("input", "vec2"), method="outer", mint="outer", primitive="Outer", samples=operands(((3,), (4,)), ((1,), (2,))),
    reference=np.outer)
def _kron(input, other):
    if input.dtype == other.dtype == np.bool_:  # XLA multiplies no Bools; MindSpore's Kron gives their AND
        return jnp.kron(input.astype(np.uint8), other.astype(np.uint8)).astype(np.bool_)
    return jnp.kron(input, other)


kron = _product_op(
    "kron", _kron, "Kronecker product.", ((2, 3), (2, 2), (4, 6)),
    method="kron", samples=operands(((2, 3), (2, 2)), ((3,), (2,))), reference=np.kron)


def _numpy_tensor_dot(x1, x2, axes):
    return np.tensordot(x1, x2, axes)


@op(inputs=("x1", "x2"), dtypes=ANY,
    samples=with_settings(operands(((2, 3, 4), (4, 3, 2)), ((3, 4), (4, 2)), axes=1), {"axes": ((1, 2), (1, 0))},
                          {"axes": ((0,), (2,))}),
    reference=_numpy_tensor_dot)
def tensor_dot(x1, x2, axes):
    """Sum of products over the axes ``axes``: an int (the last ``axes`` of ``x1`` with the first of ``x2``) or a
    pair of axis lists, in the operands' common dtype.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.tensor_dot(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((3, 4), np.float32)), [[1], [0]]).shape
        (2, 4)
    """
    return _product("tensor_dot", lambda p, q: jnp.tensordot(p, q, axes), x1, x2, "x1", "x2")


def _numpy_einsum(x, equation):
    return np.einsum(equation, *x)


# MindSpore's Einsum Primitive takes the operands as one tuple; ``ops.einsum(equation, *operands)`` calls it.
# The op test table differentiates no Tensor lists: grad_check off.
@op(inputs="x", sequences="x", dtypes=ANY, primitive="Einsum", primitive_attrs=("equation",), grad_check=False,
    samples=sequences((((3, 4), (4, 2)), {"equation": "ij,jk->ik"}), (((2, 3, 4),), {"equation": "bij->bji"}),
                      (((3,), (3,), (2, 3)), {"equation": "i,i,ji->j"})),
    reference=_numpy_einsum)
def einsum_operands(x, equation):
    """Einstein summation of the tuple of Tensors ``x`` by the subscripts ``equation`` (``ops.Einsum``), in their
    common dtype.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.Einsum("ij->ji")((Tensor(np.ones((2, 3), np.float32)),)).shape
        (3, 2)
    """
    try:
        return jnp.einsum(equation, *_promoted(*x))
    except (TypeError, ValueError) as error:
        shapes = ", ".join(str(tuple(a.shape)) for a in x)
        raise ValueError(f"For 'einsum', the equation {equation!r} does not fit the operand "
                         f"shapes {shapes}. Details: {error}") from None


def einsum(equation, *operands):
    """Einstein summation over ``operands`` by the subscripts ``equation`` (the operands may also be one list).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.einsum("ij,jk->ik", Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((3, 4), np.float32))).shape
        (2, 4)
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return einsum_operands(operands, equation)


# MindSpore 2.10's Trace refuses Bool and BFloat16 (ops.trace, the Primitive); Tensor.trace sums a Bool diagonal
@op(dtypes=ANY, primitive="Trace", method="trace", mint="trace",
    samples=without(("bfloat16",), operands(((3, 4),), ((2, 2),))),
    primitive_check=primitive_check("Trace", "x", NUMBERS), reference=lambda input: np.trace(input))
def trace(input):
    """Sum of the main diagonal of a 2-D tensor.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.trace(Tensor(np.eye(3, dtype=np.float32))).asnumpy().item()
        3.0
    """
    if input.ndim != 2:
        raise RuntimeError(f"For Primitive[Trace], the rank of the input must be 2, but got {input.ndim}!\nFor 'trace', "
                           f"the input must be 2-D, but got shape {tuple(input.shape)}.")
    return jnp.trace(input).astype(input.dtype)


def _numpy_addmm(input, mat1, mat2, beta=1, alpha=1):
    return beta * np.asarray(input) + alpha * (np.asarray(mat1) @ np.asarray(mat2))


@op(inputs=("input", "mat1", "mat2"), dtypes=ANY, method="addmm", mint="addmm",
    samples=with_settings(operands(((3, 2), (3, 4), (4, 2)), ((2,), (1, 3), (3, 2))), {"beta": 0.5, "alpha": 2}),
    reference=_numpy_addmm)
def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """Return ``beta * input + alpha * (mat1 @ mat2)``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.addmm(Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((2, 3), np.float32)),
        ...           Tensor(np.ones((3, 2), np.float32)), beta=2).asnumpy()[0, 0].item()
        5.0
    """
    product = _product("addmm", jnp.matmul, mat1, mat2, "mat1", "mat2")
    base, product = _promoted(input, product)
    return beta * base + alpha * product


@op(inputs="x", sequences="x", dtypes=ANY, primitive="AddN", aliases=("accumulate_n",), grad_check=False,
    samples=sequences((((3, 4), (3, 4), (3, 4)), {}), (((5,), (5,)), {})),
    reference=lambda x: np.sum(np.stack(x), axis=0))
def addn(x):
    """Element-wise sum of a list or tuple of tensors of one shape (Bool: any of them).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.addn([Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float32))]).asnumpy().tolist()
        [2.0, 2.0]
    """
    total = x[0]
    for i, array in enumerate(x[1:], 1):
        if array.shape != total.shape:
            raise ValueError(f"For 'addn', every input must have the shape of x[0] "
                             f"{tuple(total.shape)}, but x[{i}] has {tuple(array.shape)}.")
        total = jnp.logical_or(total, array) if total.dtype == np.bool_ else total + array
    return total


accumulate_n = addn


_FIRST_OF_SIZE_3 = -65530  # ops.Cross's default ``dim``: MindSpore's way of saying None


def _cross_axis(shape, dim):
    """``dim``, or MindSpore's default: the first dimension of size 3."""
    if dim is None or dim == _FIRST_OF_SIZE_3:
        return next((i for i, size in enumerate(shape) if size == 3), -1)
    return dim


def _numpy_cross(input, other, dim=None):
    return np.cross(input, other, axis=_cross_axis(np.broadcast_shapes(np.shape(input), np.shape(other)), dim))


@op(inputs=("input", "other"), dtypes=ANY, primitive="Cross", primitive_attrs=(("dim", "dim", _FIRST_OF_SIZE_3),),
    method="cross", mint="cross",
    samples=with_settings(operands(((4, 3), (4, 3)), ((3, 2), (3, 2)), ((2, 3, 3), (2, 3, 3))), {"dim": -1}),
    reference=_numpy_cross)
def cross(input, other, dim=None):
    """Cross product of 3-vectors along ``dim`` (the first dimension of size 3 when None).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> x, y = Tensor(np.array([1.0, 0, 0], np.float32)), Tensor(np.array([0, 1.0, 0], np.float32))
        >>> ops.cross(x, y).asnumpy().tolist()
        [0.0, 0.0, 1.0]
    """
    a, b = _promoted(input, other)
    return jnp.cross(a, b, axis=_cross_axis(a.shape, dim))

"""Products and norms: ``ops.matmul``, ``ops.bmm``, ``ops.dot``, ``ops.einsum``, ``ops.addn``, ``ops.norm`` ...

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.matmul(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((3, 4), np.float32))).shape
    (2, 4)
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops._dispatch import (array_of, binary_operands, describe, float_array_of,
                                  promote_types, wrap)
from sporax.ops.functional.reduce import _axes

_FLOAT32 = np.dtype(np.float32)


def _product(op_name, function, input, other, input_name="input", other_name="other"):
    a, b = binary_operands(op_name, array_of(op_name, input_name, input),
                           array_of(op_name, other_name, other))
    try:
        return wrap(function(a, b))
    except (TypeError, ValueError) as error:
        raise ValueError(f"For '{op_name}', the shapes {tuple(a.shape)} and {tuple(b.shape)} do "
                         f"not fit: the last dimension of '{input_name}' must equal the "
                         f"second-to-last of '{other_name}' (batch dimensions broadcast). "
                         f"Details: {error}") from None


def matmul(input, other):
    """Matrix product of ``input`` and ``other`` with NumPy's broadcasting rules."""
    return _product("matmul", jnp.matmul, input, other)


def mm(input, mat2):
    """Matrix product of two 2-D tensors."""
    return _product("mm", jnp.matmul, input, mat2, "input", "mat2")


def bmm(input_x, mat2):
    """Batched matrix product: ``(..., n, m) @ (..., m, p)``."""
    return _product("bmm", jnp.matmul, input_x, mat2, "input_x", "mat2")


def mv(mat, vec):
    """Matrix-vector product."""
    return _product("mv", jnp.matmul, mat, vec, "mat", "vec")


def dot(input, other):
    """Dot product over the last axis of ``input`` and the second-to-last of ``other``."""
    return _product("dot", _dot, input, other)


def _dot(a, b):
    if a.ndim <= 2 and b.ndim <= 2:
        return jnp.dot(a, b)
    return jnp.tensordot(a, b, axes=([-1], [b.ndim - 2 if b.ndim > 1 else 0]))


def inner(input, other):
    """Inner product over the last axes of ``input`` and ``other``."""
    return _product("inner", jnp.inner, input, other)


def outer(input, vec2):
    """Outer product of two vectors."""
    return _product("outer", jnp.outer, input, vec2, "input", "vec2")


def kron(input, other):
    """Kronecker product."""
    return _product("kron", jnp.kron, input, other)


def tensor_dot(x1, x2, axes):
    """Sum of products over the axes ``axes`` (an int or a pair of axis lists)."""
    if isinstance(axes, list):
        axes = tuple(tuple(a) if isinstance(a, list) else a for a in axes)
    return _product("tensor_dot", lambda a, b: jnp.tensordot(a, b, axes), x1, x2, "x1", "x2")


def einsum(equation, *operands):
    """Einstein summation over ``operands`` by the subscripts ``equation``."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    arrays = [array_of("einsum", f"operands[{i}]", item) for i, item in enumerate(operands)]
    dtype = arrays[0].dtype
    for array in arrays[1:]:
        dtype = promote_types(dtype, array.dtype)
    try:
        return wrap(jnp.einsum(equation, *[a.astype(dtype) for a in arrays]))
    except (TypeError, ValueError) as error:
        shapes = ", ".join(str(tuple(a.shape)) for a in arrays)
        raise ValueError(f"For 'einsum', the equation {equation!r} does not fit the operand "
                         f"shapes {shapes}. Details: {error}") from None


def trace(input):
    """Sum of the main diagonal of a 2-D tensor."""
    array = array_of("trace", "input", input)
    if array.ndim != 2:
        raise ValueError(f"For 'trace', the input must be 2-D, but got shape {tuple(array.shape)}.")
    return wrap(jnp.trace(array).astype(array.dtype))


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """Return ``beta * input + alpha * (mat1 @ mat2)``."""
    product = array_of("addmm", "product", mm(mat1, mat2))
    base = array_of("addmm", "input", input)
    dtype = promote_types(base.dtype, product.dtype)
    return wrap(beta * base.astype(dtype) + alpha * product.astype(dtype))


def addn(x):
    """Element-wise sum of a list or tuple of tensors of one shape and dtype."""
    if not isinstance(x, (list, tuple)) or not x:
        raise TypeError(f"For 'addn', 'x' must be a non-empty list or tuple of Tensors, "
                        f"but got {describe(x)}.")
    arrays = [array_of("addn", f"x[{i}]", item) for i, item in enumerate(x)]
    total = arrays[0]
    for i, array in enumerate(arrays[1:], 1):
        if array.shape != total.shape:
            raise ValueError(f"For 'addn', every input must have the shape of x[0] "
                             f"{tuple(total.shape)}, but x[{i}] has {tuple(array.shape)}.")
        total = jnp.logical_or(total, array) if total.dtype == np.bool_ else total + array
    return wrap(total)


accumulate_n = addn


def cross(input, other, dim=None):
    """Cross product of 3-vectors along ``dim`` (the first dimension of size 3 when None)."""
    a, b = binary_operands("cross", array_of("cross", "input", input),
                           array_of("cross", "other", other))
    if dim is None:
        dim = next((i for i, size in enumerate(a.shape) if size == 3), -1)
    return wrap(jnp.cross(a, b, axis=dim))


# --- norms ------------------------------------------------------------------------------------
@functools.partial(jax.jit, static_argnames=("ord", "axes", "keepdims"))
def _vector_norm(array, ord, axes, keepdims):
    magnitude = jnp.abs(array)
    if ord == 2:
        return jnp.sqrt(jnp.sum(magnitude * magnitude, axes, keepdims=keepdims))
    if ord == float("inf"):
        return jnp.max(magnitude, axes, keepdims=keepdims)
    if ord == float("-inf"):
        return jnp.min(magnitude, axes, keepdims=keepdims)
    if ord == 0:
        return jnp.sum(array != 0, axes, keepdims=keepdims).astype(array.dtype)
    if ord == 1:
        return jnp.sum(magnitude, axes, keepdims=keepdims)
    return jnp.sum(magnitude ** ord, axes, keepdims=keepdims) ** (1.0 / ord)


@functools.partial(jax.jit, static_argnames=("ord", "axes", "keepdims"))
def _matrix_norm_kernel(array, ord, axes, keepdims):
    if ord == "fro":
        return jnp.sqrt(jnp.sum(array * array, axes, keepdims=keepdims))
    result = jnp.linalg.matrix_norm(jnp.moveaxis(array, axes, (-2, -1)), ord=ord)
    return jnp.expand_dims(result, tuple(sorted(axes))) if keepdims else result


def _matrix_norm(op_name, array, ord, axes, keepdims):
    try:
        return _matrix_norm_kernel(array, ord, axes, keepdims)
    except (TypeError, ValueError) as error:
        raise ValueError(f"For '{op_name}', unsupported matrix norm ord={ord!r}: use 'fro', "
                         f"'nuc', inf, -inf, 1, -1, 2 or -2. Details: {error}") from None


def _norm_input(op_name, arg_name, value, dtype):
    array = float_array_of(op_name, arg_name, value)
    if dtype is not None:
        array = array.astype(mstype.to_numpy_dtype(mstype.normalize(dtype)))
    return array


def vector_norm(x, ord=2, axis=None, keepdims=False, *, dtype=None):
    """The ``ord`` vector norm of ``x`` over ``axis`` (all elements when None)."""
    array = _norm_input("vector_norm", "x", x, dtype)
    return wrap(_vector_norm(array, ord, _axes("vector_norm", axis, array.ndim), keepdims))


def matrix_norm(A, ord="fro", axis=(-2, -1), keepdims=False, *, dtype=None):
    """The ``ord`` matrix norm of ``A`` over the two dimensions ``axis``."""
    array = _norm_input("matrix_norm", "A", A, dtype)
    axes = tuple(int(a) % array.ndim for a in axis)
    return wrap(_matrix_norm("matrix_norm", array, ord, axes, keepdims))


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """Vector or matrix norm of ``A``.

    With ``dim`` None and ``ord`` None: the 2-norm of all elements. With ``dim`` None and an
    ``ord``: a vector norm of a 1-D input or a matrix norm of a 2-D one. An int ``dim`` gives a
    vector norm, a pair of dims a matrix norm (``'fro'`` by default).
    """
    array = _norm_input("norm", "A", A, dtype)
    if dim is None:
        if ord is None:
            return wrap(_vector_norm(array, 2, tuple(range(array.ndim)), keepdim))
        if array.ndim == 1:
            return wrap(_vector_norm(array, ord, (0,), keepdim))
        if array.ndim == 2:
            return wrap(_matrix_norm("norm", array, ord, (0, 1), keepdim))
        raise ValueError(f"For 'norm', an 'ord' without 'dim' needs a 1-D or 2-D input, but got "
                         f"shape {tuple(array.shape)}; pass dim as well.")
    if isinstance(dim, (tuple, list)) and len(dim) == 2:
        axes = tuple(int(a) % array.ndim for a in dim)
        return wrap(_matrix_norm("norm", array, "fro" if ord is None else ord, axes, keepdim))
    axes = _axes("norm", dim, array.ndim)
    if isinstance(ord, str):
        raise ValueError(f"For 'norm', ord={ord!r} is a matrix norm and needs a pair of dims, "
                         f"but got dim={dim!r}.")
    return wrap(_vector_norm(array, 2 if ord is None else ord, axes, keepdim))


@jax.jit
def _clip_by_global_norm_kernel(arrays, clip_norm):
    total = sum(jnp.sum(jnp.square(a.astype(_FLOAT32))) for a in arrays)
    scale = clip_norm / jnp.maximum(jnp.sqrt(total), clip_norm)
    return tuple((a * scale).astype(a.dtype) for a in arrays)


def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """Scale the tensors ``x`` so their joint 2-norm is at most ``clip_norm``.

    Each tensor becomes ``t * clip_norm / max(global_norm, clip_norm)``. A tuple or list gives a
    tuple; a single Tensor gives a Tensor.
    """
    if use_norm is not None:
        raise ValueError("For 'clip_by_global_norm', 'use_norm' only supports None: the global "
                         "norm is always computed from 'x'.")
    single = not isinstance(x, (list, tuple))
    items = (x,) if single else tuple(x)
    arrays = tuple(array_of("clip_by_global_norm", f"x[{i}]", item) for i, item in enumerate(items))
    clipped = tuple(wrap(a) for a in _clip_by_global_norm_kernel(arrays, clip_norm))
    return clipped[0] if single else clipped


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    """Cosine of the angle between ``x1`` and ``x2`` along ``dim``."""
    a, b = binary_operands("cosine_similarity", float_array_of("cosine_similarity", "x1", x1),
                           float_array_of("cosine_similarity", "x2", x2))
    return wrap(_cosine_kernel(a, b, int(dim), eps))


@functools.partial(jax.jit, static_argnames=("dim",))
def _cosine_kernel(a, b, dim, eps):
    dot_product = jnp.sum(a * b, dim)
    norms = jnp.linalg.norm(a, axis=dim) * jnp.linalg.norm(b, axis=dim)
    return dot_product / jnp.maximum(norms, eps)


def cdist(x1, x2, p=2.0):
    """Pairwise ``p``-norm distances between the rows of ``x1`` (..., P, M) and ``x2`` (..., R, M)."""
    a = float_array_of("cdist", "x1", x1)
    b = float_array_of("cdist", "x2", x2)
    if a.ndim < 2 or b.ndim < 2 or a.shape[-1] != b.shape[-1]:
        raise ValueError(f"For 'cdist', x1 and x2 must be (..., P, M) and (..., R, M) with the "
                         f"same M, but got shapes {tuple(a.shape)} and {tuple(b.shape)}.")
    return wrap(_pairwise_kernel(a, b, float(p)))


@functools.partial(jax.jit, static_argnames=("p",))
def _pairwise_kernel(a, b, p):
    difference = a[..., :, None, :] - b[..., None, :, :]
    return _vector_norm(difference, p, (difference.ndim - 1,), False)


def dist(input, other, p=2):
    """The ``p``-norm of ``input - other`` over all elements."""
    a, b = binary_operands("dist", float_array_of("dist", "input", input),
                           float_array_of("dist", "other", other))
    difference = a - b
    return wrap(_vector_norm(difference, float(p), tuple(range(difference.ndim)), False))

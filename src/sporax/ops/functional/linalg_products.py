"""Matrix products: ``addbmm``, ``addmv``, ``addr``, ``baddbmm``, ``batch_dot``, ``block_diag``,
``cartesian_prod``, ``combinations``, ``ger``, ``adjoint``, ``cov``, ``einsum_ext``.

Contract: the products follow MindSpore's ``beta * input + alpha * product`` form (``input``
broadcast to the product). The decompositions are in ``decompositions``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.ger(Tensor(np.ones(2, np.float32)), Tensor(np.ones(3, np.float32))).shape
    (2, 3)
"""
import itertools
import numbers

import jax
import jax.numpy as jnp
import jax.scipy.linalg as scipy_linalg
import numpy as np

from sporax.ops._dispatch import wrap
from sporax.ops.functional import linalg
from sporax.ops.functional.linalg import _promoted, operands
from sporax.ops.face_inputs import accepting, primitive_accepting
from sporax.ops.op_table import ANY, FLOAT, TO_FLOAT, Sample, op
from sporax.ops.op_table import spelling
from sporax.ops.samples import _numpy_dtype, sequences, with_settings, without


def _scaled_sum(op_name, input, product, beta, alpha):
    """``beta * input + alpha * product`` in their common dtype, broadcast together (as MindSpore: an
    ``input`` of more dimensions than the product widens the result)."""
    base, product = _promoted(input, product)
    try:
        shape = jnp.broadcast_shapes(base.shape, product.shape)
    except ValueError:
        raise ValueError(f"For '{op_name}', 'input' of shape {tuple(base.shape)} must broadcast with the "
                         f"product's shape {tuple(product.shape)}.") from None
    base, product = jnp.broadcast_to(base, shape), jnp.broadcast_to(product, shape)
    if beta == 0:
        return (alpha * product).astype(product.dtype)
    return (beta * base + alpha * product).astype(product.dtype)


def _ranked(op_name, **named):
    """The arrays ``named`` as ``(array, rank)``, refused unless each has its rank."""
    for name, (array, rank) in named.items():
        if array.ndim != rank:
            raise ValueError(f"For '{op_name}', '{name}' must be {rank}-D, but got shape {tuple(array.shape)}.")
    return [array for array, _ in named.values()]


def _batched_matrices(op_name, batch1, batch2):
    """``batch1`` and ``batch2`` refused below 2-D; as MindSpore's BatchMatMul, 2-D operands are a
    plain matrix product and more than 3 dimensions are batches of batches."""
    for name, array in (("batch1", batch1), ("batch2", batch2)):
        if array.ndim < 2:
            raise ValueError(f"For '{op_name}', '{name}' must be at least 2-D (a batch of matrices is 3-D), "
                             f"but got shape {tuple(array.shape)}.")
    return batch1, batch2


def _numpy_scaled(product):
    """The NumPy reference of ``beta * input + alpha * product(*operands)``."""

    def reference(input, *operands, beta=1, alpha=1):
        return beta * np.asarray(input) + alpha * product(*[np.asarray(operand) for operand in operands])

    return reference


_SCALED = {"beta": 0.5, "alpha": 2}


@op(inputs=("input", "batch1", "batch2"), dtypes=ANY, method="addbmm", mint="addbmm",
    samples=with_settings(operands(((2, 3), (4, 2, 5), (4, 5, 3)), ((3,), (2, 1, 2), (2, 2, 3))), _SCALED),
    reference=_numpy_scaled(lambda a, b: np.matmul(a, b).sum(0)))
def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.addbmm(Tensor(np.zeros((2, 2), np.float32)), Tensor(np.ones((3, 2, 4), np.float32)),
        ...            Tensor(np.ones((3, 4, 2), np.float32))).asnumpy()[0, 0].item()
        12.0
    """
    a, b = _batched_matrices("addbmm", batch1, batch2)
    products = jnp.matmul(*_promoted(a, b))
    # the batch sum of unsigned products is Int64 in MindSpore 2.10 (NumPy's rule, which jnp follows, gives UInt64)
    return _scaled_sum("addbmm", input, products.sum(0, dtype=np.int64 if products.dtype.kind == "u" else None),
                       beta, alpha)


@op(inputs=("input", "batch1", "batch2"), dtypes=ANY, method="baddbmm",
    mint=spelling("baddbmm", "input, batch1, batch2, *, beta=1, alpha=1"),
    samples=with_settings(operands(((2, 2, 3), (2, 2, 4), (2, 4, 3)), ((3,), (1, 2, 2), (1, 2, 3))), _SCALED),
    reference=_numpy_scaled(np.matmul))
def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)`` for batches of matrices.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.baddbmm(Tensor(np.ones((1, 2, 2), np.float32)), Tensor(np.ones((1, 2, 3), np.float32)),
        ...             Tensor(np.ones((1, 3, 2), np.float32))).asnumpy()[0, 0, 0].item()
        4.0
    """
    a, b = _batched_matrices("baddbmm", batch1, batch2)
    return _scaled_sum("baddbmm", input, jnp.matmul(*_promoted(a, b)), beta, alpha)


def baddbmm_ext(input, batch1, batch2, *, beta=1, alpha=1):
    """``baddbmm`` with ``beta`` and ``alpha`` keyword-only."""
    return baddbmm(input, batch1, batch2, beta, alpha)


# MindSpore 2.10's Addmv/Addr check the added input's dtype in Python (Bool, BFloat16, Int8, UInt: its TypeError)
_SCALED_DTYPES = ("Float16", "Float32", "Float64", "Int16", "Int32", "Int64")


def _scaled_input(primitive, argument):
    allowed = ", ".join(f"mindspore.{name.lower()}" for name in _SCALED_DTYPES)
    return accepting(_SCALED_DTYPES, f"For '{primitive}', the '{argument}' should be one of [{allowed}], but got "
                                     "'mindspore.{lower}'.", keep=True)


@op(inputs=("input", "mat", "vec"), dtypes=ANY, method="addmv", mint="addmv",
    input_dtypes={"input": _scaled_input("Addmv", "input")},
    samples=without(("bfloat16",), with_settings(operands(((2,), (2, 3), (3,)), ((), (4, 2), (2,))), _SCALED)),
    reference=_numpy_scaled(np.matmul))
def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> print(ops.addmv(Tensor(np.ones(2, np.float32)), Tensor(np.ones((2, 3), np.float32)),
        ...                 Tensor(np.ones(3, np.float32))))
        [4. 4.]
    """
    m, v = _ranked("addmv", mat=(mat, 2), vec=(vec, 1))
    return _scaled_sum("addmv", input, jnp.matmul(*_promoted(m, v)), beta, alpha)


@op(inputs=("x", "vec1", "vec2"), dtypes=ANY, method="addr", input_dtypes={"x": _scaled_input("Addr", "x")},
    samples=without(("bfloat16",), with_settings(operands(((2, 3), (2,), (3,)), ((3,), (2,), (3,))), _SCALED)),
    reference=_numpy_scaled(np.outer))
def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """``beta * x + alpha * outer(vec1, vec2)``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.addr(Tensor(np.zeros((2, 2), np.float32)), Tensor(np.ones(2, np.float32)),
        ...          Tensor(np.ones(2, np.float32))).asnumpy().sum().item()
        4.0
    """
    a, b = _ranked("addr", vec1=(vec1, 1), vec2=(vec2, 1))
    return _scaled_sum("addr", x, jnp.outer(*_promoted(a, b)), beta, alpha)


@op(inputs=("input", "vec1", "vec2"), dtypes=ANY, writes="input", grad_check=False,
    mint=spelling("addr_", "input, vec1, vec2, beta=1, alpha=1"),
    samples=with_settings(operands(((2, 3), (2,), (3,))), _SCALED), reference=_numpy_scaled(np.outer))
def inplace_addr(input, vec1, vec2, *, beta=1, alpha=1):
    """``input = beta * input + alpha * outer(vec1, vec2)`` in place (MindSpore's InplaceAddr); returns ``input``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.ops.functional.linalg_products import inplace_addr
        >>> x = Tensor(np.zeros((2, 2), np.float32))
        >>> inplace_addr(x, Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float32))) is x
        True
    """
    result = addr.entry.kernel(input, vec1, vec2, beta=beta, alpha=alpha)
    if result.shape != input.shape:
        raise ValueError(f"For 'addr_', 'input' is updated in place, so it must have the shape of "
                         f"outer(vec1, vec2) {tuple(result.shape)}, but got {tuple(input.shape)}.")
    return result.astype(input.dtype)


# MindSpore 2.10's Ger takes Float16/32/64 vectors alone
_GER_DTYPES = ("Float16", "Float32", "Float64")


@op(inputs=("input", "vec2"), dtypes=FLOAT, method="ger",
    samples=without(("bfloat16",), operands(((2,), (3,)), ((4,), (1,)))),
    input_dtypes={"input": primitive_accepting("Ger", "x1", _GER_DTYPES),
                  "vec2": primitive_accepting("Ger", "x2", _GER_DTYPES)},
    reference=np.outer)
def ger(input, vec2):
    """The outer product of two 1-D tensors (same dtype).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.ger(Tensor(np.ones(2, np.float32)), Tensor(np.ones(3, np.float32))).shape
        (2, 3)
    """
    a, b = _ranked("ger", input=(input, 1), vec2=(vec2, 1))
    if a.dtype != b.dtype:
        raise TypeError(f"For 'ger', 'input' and 'vec2' must have the same dtype, but got {a.dtype} and {b.dtype}.")
    return jnp.outer(a, b)


@op(inputs="x", dtypes=ANY, method="adjoint", samples=operands(((2, 3),), ((2, 1, 3),)),
    reference=lambda x: np.conj(np.swapaxes(x, -1, -2)))
def adjoint(x):
    """The conjugate transpose of the last two dimensions.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.adjoint(Tensor(np.ones((2, 3), np.float32))).shape
        (3, 2)
    """
    if x.ndim < 2:
        raise ValueError(f"For 'adjoint', 'x' must have at least 2 dimensions, but got shape {tuple(x.shape)}.")
    return jnp.conj(jnp.swapaxes(x, -1, -2))


def _numpy_batch_dot(x1, x2, axes=None):
    a, b = np.asarray(x1), np.asarray(x2)
    if axes is None:
        axes = (a.ndim - 1, b.ndim - 1) if b.ndim == 2 else (a.ndim - 1, b.ndim - 2)
    elif isinstance(axes, int):
        axes = (axes, axes)
    axes = [axis % array.ndim - 1 for axis, array in zip(axes, (a, b))]
    result = np.stack([np.tensordot(p, q, (axes[:1], axes[1:])) for p, q in zip(a, b)])
    return result[:, None] if result.ndim == 1 else result


@op(inputs=("x1", "x2"), dtypes=ANY,
    samples=with_settings(operands(((2, 3), (2, 3)), ((2, 3, 4), (2, 4, 2))), {"axes": (1, 1)}),
    reference=_numpy_batch_dot)
def batch_dot(x1, x2, axes=None):
    """Dot products of the batch items (axis 0) of ``x1`` and ``x2`` over ``axes``.

    ``axes`` (int or pair; default: the last axis of ``x1`` and the second-to-last of ``x2``, or the
    last axis of each for 2-D inputs) are contracted; 2-D inputs give shape (batch, 1).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.batch_dot(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 3), np.float32))).shape
        (2, 1)
    """
    a, b = x1, x2
    if a.ndim < 2 or b.ndim < 2 or a.shape[0] != b.shape[0]:
        raise ValueError(f"For 'batch_dot', 'x1' and 'x2' must be at least 2-D with the same batch size, but got "
                         f"shapes {tuple(a.shape)} and {tuple(b.shape)}.")
    if axes is None:
        axes = (a.ndim - 1, b.ndim - 1) if b.ndim == 2 else (a.ndim - 1, b.ndim - 2)
    elif isinstance(axes, numbers.Integral):
        axes = (axes, axes)
    axes = [int(axis) % array.ndim for axis, array in zip(axes, (a, b))]
    if 0 in axes:
        raise ValueError(f"For 'batch_dot', 'axes' must not contain the batch axis 0, but got {axes}.")
    if a.shape[axes[0]] != b.shape[axes[1]]:
        raise ValueError(f"For 'batch_dot', the contracted dimensions differ: {a.shape[axes[0]]} (x1 axis "
                         f"{axes[0]}) and {b.shape[axes[1]]} (x2 axis {axes[1]}).")
    result = jax.vmap(lambda p, q: jnp.tensordot(p, q, ((axes[0] - 1,), (axes[1] - 1,))))(*_promoted(a, b))
    return result[:, None] if result.ndim == 1 else result


def _numpy_block_diag(inputs):
    import scipy.linalg  # a test oracle only (scipy comes with jax)

    return scipy.linalg.block_diag(*[np.reshape(item, (1, -1)) if np.ndim(item) < 2 else item for item in inputs])


# The Tensors as one tuple (an op-table ``sequences`` input); ``ops.block_diag(*inputs)`` below calls it.
@op(inputs="inputs", sequences="inputs", dtypes=ANY, grad_check=False, reference=_numpy_block_diag,
    samples=sequences((((2, 2), (1, 3), (3,)), {}), ((((2, 3)),), {})))
def block_diag(inputs):
    """The block-diagonal matrix of a tuple of Tensors (scalars, vectors and matrices), in their common dtype."""
    arrays = []
    for i, array in enumerate(inputs):
        if array.ndim > 2:
            raise ValueError(f"For 'block_diag', each input must have at most 2 dimensions, but inputs[{i}] has "
                             f"shape {tuple(array.shape)}.")
        arrays.append(array.reshape((1, -1)) if array.ndim < 2 else array)
    return scipy_linalg.block_diag(*_promoted(*arrays))


_block_diag_of = block_diag


def block_diag(*inputs):  # noqa: F811 (the face of the entry above)
    """The block-diagonal matrix of the inputs (scalars, vectors and matrices), as ``torch.block_diag``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.block_diag(Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((1, 3), np.float32))).shape
        (3, 5)
    """
    if not inputs:
        return wrap(jnp.zeros((1, 0), jnp.float32))
    return _block_diag_of(inputs)


def _numpy_cartesian_prod(inputs):
    if len(inputs) == 1:
        return np.asarray(inputs[0])
    return np.asarray(list(itertools.product(*[np.asarray(item).tolist() for item in inputs])))


@op(inputs="inputs", sequences="inputs", dtypes=ANY, grad_check=False, reference=_numpy_cartesian_prod,
    samples=sequences((((2,), (3,)), {}), (((2,), (1,), (2,)), {}), (((3,),), {})))
def cartesian_prod(inputs):
    """The Cartesian product of a tuple of 1-D Tensors, one row per combination (a 1-D result for one input)."""
    for i, array in enumerate(inputs):
        if array.ndim != 1:
            raise ValueError(f"For 'cartesian_prod', each input must be 1-D, but inputs[{i}] has shape "
                             f"{tuple(array.shape)}.")
    if len(inputs) == 1:
        return inputs[0]
    grids = jnp.meshgrid(*inputs, indexing="ij")
    return jnp.stack([grid.reshape(-1) for grid in grids], axis=1)


_cartesian_prod_of = cartesian_prod


def cartesian_prod(*inputs):  # noqa: F811 (the face of the entry above)
    """The Cartesian product of 1-D tensors, one row per combination (a 1-D result for one input).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.cartesian_prod(Tensor(np.array([1, 2])), Tensor(np.array([3, 4, 5]))).shape
        (6, 2)
    """
    return _cartesian_prod_of(inputs)


def _numpy_combinations(input, r=2, with_replacement=False):
    choose = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = [list(row) for row in choose(np.asarray(input).tolist(), r)]
    return np.array(rows).reshape(-1, r) if rows and r else np.zeros((0,))


@op(dtypes=ANY, samples=with_settings(operands(((4,),), ((1,),)), {"r": 3}, {"r": 2, "with_replacement": True}),
    reference=_numpy_combinations)
def combinations(input, r=2, with_replacement=False):
    """The length-``r`` combinations of the elements of 1-D ``input`` (rows in lexicographic order).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.combinations(Tensor(np.array([1, 2, 3]))).asnumpy().tolist()
        [[1, 2], [1, 3], [2, 3]]
    """
    if input.ndim != 1:
        raise ValueError(f"For 'combinations', 'input' must be 1-D, but got shape {tuple(input.shape)}.")
    if isinstance(r, bool) or not isinstance(r, numbers.Integral) or r < 0:
        raise ValueError(f"For 'combinations', 'r' must be a non-negative int, but got {r!r}.")
    choose = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = np.array(list(choose(range(input.shape[0]), int(r))), np.int32).reshape(-1, int(r))
    if rows.shape[0] == 0 or r == 0:
        return jnp.zeros((0,), input.dtype)
    return input[jnp.asarray(rows)]


def _numpy_cov(input, fweights=None, aweights=None, *, correction=1):
    return np.cov(input, ddof=correction, fweights=fweights, aweights=aweights)


def _cov_samples(dtype):
    """Variables in rows (and one variable as a vector), then frequency and observation weights."""
    generator = np.random.default_rng(5)
    rows, vector = (generator.uniform(-2.0, 2.0, shape).astype(_numpy_dtype(dtype)) for shape in ((3, 5), (6,)))
    frequency = np.asarray([1, 2, 1, 3, 1], np.int32)
    weights = generator.uniform(0.5, 2.0, 5).astype(_numpy_dtype(dtype))
    return [Sample((rows,)), Sample((vector,), {"correction": 0}), Sample((rows, frequency, weights))]


@op(inputs=("input", "fweights", "aweights"), dtypes=TO_FLOAT, indices="fweights", method="cov", grad_check=False,
    samples=_cov_samples, reference=_numpy_cov)
def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in the rows of ``input`` (observations in columns); integer
    ``input`` computes in Float32.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> round(ops.cov(Tensor(np.array([1.0, 2.0, 4.0], np.float32))).asnumpy().item(), 4)
        2.3333
    """
    if input.ndim > 2:
        raise ValueError(f"For 'cov', 'input' must be at most 2-D, but got shape {tuple(input.shape)}.")
    if isinstance(correction, bool) or not isinstance(correction, numbers.Integral):
        raise TypeError(f"For 'cov', 'correction' must be an int, but got {type(correction).__name__}.")
    if input.dtype.kind in "fV" and input.dtype.itemsize < 4:  # MindSpore's Cov computes half precision in Float32
        input = input.astype(np.float32)
    return jnp.cov(input, ddof=int(correction), fweights=fweights, aweights=aweights).astype(input.dtype)


def einsum_ext(equation, *operands):
    """Einstein summation (same as ``ops.einsum``; the operands may also be one list).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.einsum_ext("ij->j", Tensor(np.ones((2, 3), np.float32))).shape
        (3,)
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return linalg.einsum(equation, *operands)


def _vectors(op_name, *arrays):
    for name, array in zip(("input", "other"), arrays):
        if array.ndim != 1:
            raise ValueError(f"For '{op_name}', '{name}' must be a 1-D tensor, but got shape {tuple(array.shape)}.")
    if arrays[0].shape != arrays[1].shape:
        raise ValueError(f"For '{op_name}', 'input' and 'other' must have the same length, but got shapes "
                         f"{tuple(arrays[0].shape)} and {tuple(arrays[1].shape)}.")
    return _promoted(*arrays)


@op(inputs=("input", "other"), dtypes=ANY, mint="dot", samples=operands(((4,), (4,)), ((1,), (1,))),
    reference=np.dot)
def dot_ext(input, other):
    """The dot product of two 1-D tensors (``mint.dot``, MindSpore's ``Dot``; ``ops.dot`` multiplies matrices).

    Example:
        >>> from sporax import Tensor, mint
        >>> mint.dot(Tensor([1.0, 2.0]), Tensor([3.0, 4.0])).asnumpy().item()
        11.0
    """
    return jnp.dot(*_vectors("dot", input, other))


@op(inputs=("input", "other"), dtypes=ANY, primitive="Vdot", mint="vdot",
    samples=operands(((4,), (4,)), ((1,), (1,))), reference=np.vdot)
def vdot(input, other):
    """The dot product of two 1-D tensors, the first conjugated (``mint.vdot``; MindSpore's ``Vdot``).

    Example:
        >>> from sporax import Tensor, mint
        >>> mint.vdot(Tensor([1.0, 2.0]), Tensor([3.0, 4.0])).asnumpy().item()
        11.0
    """
    return jnp.vdot(*_vectors("vdot", input, other))

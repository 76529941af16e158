"""CSR arithmetic: ``ops.csr_mul``, ``csr_div``, ``csr_mv``, ``csr_reduce_sum``, ``csr_softmax``, ``csr_gather``.

Op-table entries on ``CSRTensor`` operands (the ``CSR`` rule: the kernel gets the tensor's ``CSRArrays``, a returned
record becomes a CSRTensor again); conversions, COO arithmetic and products are in ``sparse``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> csr = ops.dense_to_sparse_csr(Tensor(np.array([[0, 2.0], [4.0, 0]], np.float32)))
    >>> ops.csr_mv(csr, Tensor(np.ones((2, 1), np.float32))).asnumpy().tolist()
    [[2.0], [4.0]]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops import op_table, samples
from sporax.ops._dispatch import promote_types
from sporax.ops.functional.sparse import _SAMPLE_COLUMNS, _SAMPLE_INDPTR, _csr_record, _csr_samples
from sporax.ops.sparse_operands import CSRArrays, dense_of, positions


def _dense_at_entries(op_name, x, y):
    """``y`` broadcast to the shape of the CSR ``x`` and read at its entries, and the result dtype."""
    try:
        broadcast = np.broadcast_shapes(tuple(y.shape), x.shape)
    except ValueError:
        broadcast = None
    if broadcast != tuple(x.shape):
        raise ValueError(f"For '{op_name}', the shape of 'y' {tuple(y.shape)} must equal (or broadcast to) the "
                         f"CSRTensor's shape {x.shape}.")
    dtype = promote_types(x.values.dtype, y.dtype)
    return jnp.broadcast_to(y, x.shape)[x.rows(), x.columns()].astype(dtype), dtype


def _csr_values_reference(combine):
    def reference(x, y):
        rows, columns = positions(x)
        return dense_of(x.with_values(combine(x.values, np.broadcast_to(y, x.shape)[rows, columns])))

    return reference


@op_table.op(inputs=("x", "y"), dtypes=op_table.ANY, input_dtypes={"x": op_table.CSR},
             samples=_csr_samples(dense_shape=(4,)), reference=_csr_values_reference(np.multiply), grad_check=False)
def csr_mul(x, y):
    """``x * y``: a CSRTensor times a dense Tensor broadcast to its shape (values only where ``x`` has entries).

    Example:
        >>> from sporax import CSRTensor, Tensor, ops
        >>> csr = CSRTensor(Tensor([0, 1, 1]), Tensor([1]), Tensor([2.0]), (2, 2))
        >>> ops.csr_mul(csr, Tensor([10.0, 3.0])).values.asnumpy().tolist()
        [6.0]
    """
    gathered, dtype = _dense_at_entries("csr_mul", x, y)
    return x.with_values(x.values.astype(dtype) * gathered)


@op_table.op(inputs=("x", "y"), dtypes=op_table.TO_FLOAT, input_dtypes={"x": op_table.CSR, "y": op_table.ANY},
             samples=_csr_samples(dense_shape=(3, 4)), reference=_csr_values_reference(np.divide), grad_check=False)
def csr_div(x, y):
    """``x / y``: a CSRTensor divided by a dense Tensor broadcast to its shape; Int/Bool values give Float32.

    Example:
        >>> from sporax import CSRTensor, Tensor, ops
        >>> csr = CSRTensor(Tensor([0, 1, 1]), Tensor([1]), Tensor([3.0]), (2, 2))
        >>> ops.csr_div(csr, Tensor([1.0, 2.0])).values.asnumpy().tolist()
        [1.5]
    """
    gathered, dtype = _dense_at_entries("csr_div", x, y)  # Int/Bool values are Float32 already (TO_FLOAT)
    return x.with_values(x.values.astype(dtype) / gathered.astype(dtype))


@op_table.op(inputs=("csr_tensor", "dense"), dtypes=op_table.ANY, input_dtypes={"csr_tensor": op_table.CSR},
             samples=_csr_samples(dense_shape=(4, 1)), reference=lambda csr, dense: dense_of(csr) @ dense,
             grad_check=False)
def csr_mv(csr_tensor, dense):
    """``csr_tensor @ dense`` for a dense column of shape ``(N, 1)``; the result has shape ``(M, 1)``.

    Example:
        >>> import numpy as np
        >>> from sporax import CSRTensor, Tensor, ops
        >>> csr = CSRTensor(Tensor([0, 1, 1]), Tensor([1]), Tensor([2.0]), (2, 2))
        >>> ops.csr_mv(csr, Tensor(np.ones((2, 1), np.float32))).asnumpy().tolist()
        [[2.0], [0.0]]
    """
    expected = (csr_tensor.shape[1], 1)
    if len(csr_tensor.shape) != 2 or tuple(dense.shape) != expected:
        raise ValueError(f"For 'csr_mv', 'dense' must have shape {expected} (a column), but got "
                         f"{tuple(dense.shape)}. Reshape a 1-D vector with v.reshape(-1, 1).")
    return _csr_product(csr_tensor, dense)


def _csr_product(csr, dense):
    """``csr @ dense`` in the promoted dtype, through BCSR: XLA gets the backend's sparse product where it has
    one, and JAX's rules give the gradients."""
    from jax.experimental import sparse as jsparse  # imported here: it imports scipy.sparse (see sparse_csr)

    dtype = promote_types(csr.values.dtype, dense.dtype)
    index_dtype = np.promote_types(csr.indices.dtype, csr.indptr.dtype)
    matrix = jsparse.BCSR((csr.values.astype(dtype), csr.indices.astype(index_dtype), csr.indptr.astype(index_dtype)),
                          shape=csr.shape)
    return matrix @ dense.astype(dtype)


@op_table.op(inputs="csr_tensor", dtypes=op_table.NUMBER, input_dtypes={"csr_tensor": op_table.CSR},
             samples=_csr_samples({"axis": 1}, {"axis": -1}),
             reference=lambda csr, axis: dense_of(csr).sum(1, keepdims=True), grad_check=False)
def csr_reduce_sum(csr_tensor, axis):
    """Row sums of a 2-D CSRTensor (``axis`` 1 or -1), a dense Tensor of shape ``(M, 1)``.

    Example:
        >>> from sporax import CSRTensor, Tensor, ops
        >>> csr = CSRTensor(Tensor([0, 2, 2]), Tensor([0, 1]), Tensor([2.0, 3.0]), (2, 2))
        >>> ops.csr_reduce_sum(csr, 1).asnumpy().tolist()
        [[5.0], [0.0]]
    """
    if axis not in (1, -1) or len(csr_tensor.shape) != 2:
        raise ValueError(f"For 'csr_reduce_sum', 'axis' must be 1 or -1 (row sums of a 2-D CSRTensor), but got "
                         f"{axis}. Sum over columns with ops.csr_to_dense(x).sum(0).")
    count = csr_tensor.shape[0]
    return jax.ops.segment_sum(csr_tensor.values, csr_tensor.rows(), num_segments=count).reshape(count, 1)


def _csr_softmax_reference(logits, dtype):
    rows, _ = positions(logits)
    values = np.asarray(logits.values, np.float64)
    result = np.empty_like(values)
    for row in np.unique(rows):
        exponent = np.exp(values[rows == row] - values[rows == row].max())
        result[rows == row] = exponent / exponent.sum()
    return dense_of(logits.with_values(result))


@op_table.op(inputs="logits", dtypes=op_table.TO_FLOAT, input_dtypes={"logits": op_table.CSR},
             samples=_csr_samples({"dtype": mstype.float32}), reference=_csr_softmax_reference, grad_check=False)
def csr_softmax(logits, dtype):
    """Softmax over the stored entries of each row of a 2-D CSRTensor; the result's values have ``dtype``.

    Example:
        >>> import sporax
        >>> from sporax import CSRTensor, Tensor, ops
        >>> csr = CSRTensor(Tensor([0, 2, 2]), Tensor([0, 1]), Tensor([1.0, 1.0]), (2, 2))
        >>> ops.csr_softmax(csr, sporax.float32).values.asnumpy().tolist()
        [0.5, 0.5]
    """
    if len(logits.shape) != 2:
        raise ValueError(f"For 'csr_softmax', 'logits' must be a 2-D CSRTensor, but got shape {logits.shape}.")
    values = logits.values.astype(mstype.to_numpy_dtype(mstype.normalize(dtype)))
    rows, count = logits.rows(), logits.shape[0]
    # the row maximum only stabilises exp(); softmax's value and gradient do not depend on it
    row_max = jax.lax.stop_gradient(jax.ops.segment_max(values, rows, num_segments=count))
    exponent = jnp.exp(values - row_max[rows])
    return logits.with_values(exponent / jax.ops.segment_sum(exponent, rows, num_segments=count)[rows])


def _csr_gather_samples(dtype):
    return [op_table.Sample((_SAMPLE_INDPTR, _SAMPLE_COLUMNS, samples.values((3, 4), dtype)),
                            {"dense_shape": (3, 4)})]


def _csr_gather_reference(indptr, indices, dense, dense_shape):
    return dense[np.repeat(np.arange(len(indptr) - 1), np.diff(indptr)), indices]


@op_table.op(inputs=("indptr", "indices", "dense"), dtypes=op_table.ANY, indices=("indptr", "indices"),
             primitive="CSRGather", samples=_csr_gather_samples, reference=_csr_gather_reference, grad_check=False)
def csr_gather(indptr, indices, dense, dense_shape):
    """The entries of ``dense`` at the positions of a CSR structure (``indptr``, ``indices``), as the values of
    a CSRTensor of ``dense_shape``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> dense = Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
        >>> ops.csr_gather(Tensor([0, 1, 2]), Tensor([1, 0]), dense, (2, 2)).asnumpy().tolist()
        [1.0, 2.0]
    """
    rows = jnp.searchsorted(indptr, jnp.arange(indices.shape[0], dtype=indptr.dtype), side="right") - 1
    return dense[rows, indices]


# --- MindSpore's CSR Primitives on components (``ops.operations._csr_ops``) -------------------------------
# ``CSRMul()(indptr, indices, values, dense_shape, dense_tensor)``: the op of the CSRTensor made of the components.
# Primitive-only entries (no functional name in MindSpore); their classes are in ``ops.operations.csr_ops``.
def _components_samples(dense_shape=None, **settings):
    def make(dtype):
        record = _csr_record(dtype)
        dense = () if dense_shape is None else (samples.values(dense_shape, dtype, 0.5, 2.0, 1),)
        return [op_table.Sample((record.indptr, record.indices, record.values) + dense,
                                dict(settings, dense_shape=record.shape))]

    return make


def _on_components(reference):
    """A reference of the components from ``reference`` of the CSR record (and the dense operand)."""

    def of_components(indptr, indices, values, *dense, dense_shape, **settings):
        return reference(CSRArrays(indptr, indices, values, tuple(dense_shape)), *dense, **settings)

    return of_components


def _values_of(reference):
    def values(*arguments, **settings):
        dense = reference(*arguments, **settings)
        return dense[positions(arguments[0])]

    return values


_COMPONENTS = dict(indices=("indptr", "indices"), grad_check=False)


@op_table.op(inputs=("indptr", "indices", "values", "dense_tensor"), dtypes=op_table.ANY, primitive="CSRMul",
             samples=_components_samples((4,)), reference=_on_components(_values_of(csr_mul.entry.reference)),
             **_COMPONENTS)
def csr_mul_components(indptr, indices, values, dense_shape, dense_tensor):
    """``CSRMul``: the values of ``csr_mul`` of the CSRTensor of these components and ``dense_tensor``."""
    return csr_mul.entry.kernel(CSRArrays(indptr, indices, values, tuple(dense_shape)), dense_tensor).values


@op_table.op(inputs=("indptr", "indices", "values", "dense_tensor"), dtypes=op_table.TO_FLOAT, primitive="CSRDiv",
             input_dtypes={"dense_tensor": op_table.ANY}, samples=_components_samples((3, 4)),
             reference=_on_components(_values_of(csr_div.entry.reference)), **_COMPONENTS)
def csr_div_components(indptr, indices, values, dense_shape, dense_tensor):
    """``CSRDiv``: the values of ``csr_div`` of the CSRTensor of these components by ``dense_tensor``."""
    return csr_div.entry.kernel(CSRArrays(indptr, indices, values, tuple(dense_shape)), dense_tensor).values


@op_table.op(inputs=("indptr", "indices", "values", "dense_tensor"), dtypes=op_table.ANY, primitive="CSRMV",
             samples=_components_samples((4, 1)), reference=_on_components(csr_mv.entry.reference), **_COMPONENTS)
def csr_mv_components(indptr, indices, values, dense_shape, dense_tensor):
    """``CSRMV``: ``csr_mv`` of the CSRTensor of these components and the column ``dense_tensor``."""
    return csr_mv.entry.kernel(CSRArrays(indptr, indices, values, tuple(dense_shape)), dense_tensor)


@op_table.op(inputs=("indptr", "indices", "values"), dtypes=op_table.NUMBER, primitive="CSRReduceSum",
             samples=_components_samples(axis=1), reference=_on_components(csr_reduce_sum.entry.reference),
             **_COMPONENTS)
def csr_reduce_sum_components(indptr, indices, values, dense_shape, axis):
    """``CSRReduceSum``: ``csr_reduce_sum`` of the CSRTensor of these components (row sums, ``axis`` 1 or -1)."""
    return csr_reduce_sum.entry.kernel(CSRArrays(indptr, indices, values, tuple(dense_shape)), axis)


@op_table.op(inputs=("indptr", "indices", "values", "dense"), dtypes=op_table.ANY, primitive="CSRMM",
             samples=_components_samples((4, 2)), reference=_on_components(lambda csr, dense: dense_of(csr) @ dense),
             **_COMPONENTS)
def csr_mm_components(indptr, indices, values, dense_shape, dense):
    """``CSRMM``: the dense product of the CSR matrix of these components and the dense matrix ``dense``."""
    csr = CSRArrays(indptr, indices, values, tuple(dense_shape))
    if len(csr.shape) != 2 or dense.ndim != 2 or dense.shape[0] != csr.shape[1]:
        raise ValueError(f"For 'CSRMM', 'dense' must be 2-D with {csr.shape[1]} rows to multiply a CSR matrix of "
                         f"shape {csr.shape}, but got shape {tuple(dense.shape)}.")
    return _csr_product(csr, dense)

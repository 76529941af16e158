"""``ops.unique_with_pad``: the distinct values of a 1-D tensor, padded back to its length (the ``UniqueWithPad``
Primitive's functional form; MindSpore 2.10 deprecates it for ``ops.unique`` with ``ops.pad``).

Unlike ``unique``, the output shape is the input's, so it compiles (and vmaps): the first occurrence of each
value is found by comparisons.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> y, idx = ops.unique_with_pad(Tensor(np.array([3, 1, 3, 2], np.int32)), 0)
    >>> y.asnumpy().tolist(), idx.asnumpy().tolist()
    ([3, 1, 2, 0], [0, 1, 0, 2])
"""
import jax.numpy as jnp
import numpy as np

from sporax.ops.op_table import ANY, Sample, op


def _numpy_unique_with_pad(x, pad_num):
    values, first, inverse = np.unique(x, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    padded = np.full(np.shape(x), pad_num, np.asarray(x).dtype)
    padded[:order.size] = values[order]
    index_dtype = np.asarray(x).dtype if np.asarray(x).dtype.kind in "iu" else np.int32
    return padded, rank[np.reshape(inverse, -1)].astype(index_dtype)


def _samples(dtype):
    repeated = np.array([3.5, -1.0, 3.5, 2.0, -1.0, 0.5]).astype(dtype)
    distinct = np.array([1.0, 2.0, 4.0]).astype(dtype)
    return [Sample((repeated, np.array(0.0, dtype))), Sample((distinct, -1.0)),
            Sample((np.array([2, 2, 7, 2], np.int32), 9))]


@op(inputs=("x", "pad_num"), scalars="pad_num", dtypes=ANY, primitive="UniqueWithPad", grad_check=False,
    samples=_samples, reference=_numpy_unique_with_pad)
def unique_with_pad(x, pad_num):
    """The distinct values of 1-D ``x`` in order of first appearance, then ``pad_num`` up to ``x``'s length, and for
    each element of ``x`` its position among them.

    Args:
        x (Tensor): 1-D int32, int64 or float tensor.
        pad_num (Union[int, float, Tensor]): the fill of the unused tail.

    Returns:
        ``(y, idx)``: ``y`` of ``x``'s shape and dtype; ``idx`` of ``x``'s shape (the dtype of ``x`` for integer
        input, Int32 for float input).
    """
    if x.ndim != 1:
        raise ValueError(f"For 'UniqueWithPad', 'x' must be 1-d, but got shape {tuple(x.shape)}.")
    size = x.shape[0]
    equal = x[:, None] == x[None, :]
    first = jnp.argmax(equal, axis=1)                       # earliest index holding the same value
    is_first = first == jnp.arange(size)
    slot = jnp.cumsum(is_first) - 1                         # rank among the first occurrences
    index_dtype = x.dtype if x.dtype.kind in "iu" else jnp.int32
    y = jnp.full((size,), pad_num, x.dtype).at[jnp.where(is_first, slot, size)].set(x, mode="drop")
    return y, slot[first].astype(index_dtype)

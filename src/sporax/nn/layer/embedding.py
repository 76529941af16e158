"""``Embedding``: a lookup table from integer ids to learned vectors."""
import jax
import jax.numpy as jnp

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.nn.layer.basic import _check_positive_int, make_parameter
from sporax.ops.functional._args import check_index_range


class Embedding(Cell):
    """Map integer ids to rows of a (vocab_size, embedding_size) table.

    Args:
        vocab_size (int): the number of rows.
        embedding_size (int): the length of each row.
        use_one_hot (bool): compute the lookup as one_hot(ids) @ table. Default: False.
        embedding_table (Union[Tensor, str, Initializer, numbers.Number]): the initial table.
            Default: 'normal' (N(0, 0.01^2)).
        dtype (mindspore.dtype): the dtype of the table. Default: float32.
        padding_idx (int): a row that starts as zeros. Default: None.

    Inputs:
        - **x** (Tensor) -- integer ids of any shape, in [0, vocab_size).

    Outputs:
        Tensor of shape x.shape + (embedding_size,).
    """

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=mstype.float32, padding_idx=None):
        super().__init__()
        self.vocab_size = _check_positive_int("Embedding", "vocab_size", vocab_size)
        self.embedding_size = _check_positive_int("Embedding", "embedding_size", embedding_size)
        if not isinstance(use_one_hot, bool):
            raise TypeError(f"For 'Embedding', the 'use_one_hot' must be bool, but got {type(use_one_hot).__name__}.")
        if padding_idx is not None:
            if isinstance(padding_idx, bool) or not isinstance(padding_idx, int) or \
                    not -vocab_size <= padding_idx < vocab_size:
                raise ValueError(f"For 'Embedding', the 'padding_idx' must be an int in range [{-vocab_size}, "
                                 f"{vocab_size}), but got {padding_idx!r}.")
            padding_idx %= vocab_size
        self.use_one_hot, self.dtype, self.padding_idx = use_one_hot, dtype, padding_idx
        self.embedding_table = make_parameter("Embedding", "embedding_table", embedding_table,
                                              (vocab_size, embedding_size), dtype, "embedding_table")
        if padding_idx is not None:
            table = self.embedding_table._value
            self.embedding_table.set_data(Tensor._wrap(table.at[padding_idx].set(0)))

    def construct(self, x):
        if not isinstance(x, Tensor) or not jnp.issubdtype(x._value.dtype, jnp.integer):
            raise TypeError(f"For 'Embedding', the input must be an integer Tensor of ids, but got "
                            f"{getattr(x, 'dtype', type(x).__name__)}.")
        ids = x._value
        table = self.embedding_table._value
        check_index_range("Embedding", "x", ids, -self.vocab_size, self.vocab_size)
        if self.use_one_hot:
            # MindSpore 2.10's one-hot row of an id in [-vocab_size, 0) is all zeros: its lookup gives zeros
            return Tensor._wrap(jnp.matmul(jax.nn.one_hot(ids, self.vocab_size, dtype=table.dtype), table))
        ids = jnp.where(ids < 0, ids + self.vocab_size, ids)  # the gather wraps ids in [-vocab_size, 0)
        return Tensor._wrap(jnp.take(table, ids, axis=0, mode="clip"))

    def extend_repr(self):
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, use_one_hot={self.use_one_hot}, "
                f"embedding_table={self.embedding_table}, dtype={self.dtype}, padding_idx={self.padding_idx}")


class EmbeddingLookup(Cell):
    """Rows of an ``embedding_table`` Parameter (vocab_size, embedding_size) for integer ``indices``.

    Indices outside ``[0, vocab_size)`` give zero rows (as MindSpore's lookup kernel does); with
    ``max_norm`` each looked-up row is scaled down to L2 norm ``max_norm`` when longer. In one process
    ``target`` and ``slice_mode`` only say where MindSpore would place and split the table.

    Args:
        vocab_size (int), embedding_size (int): the table's shape.
        param_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``'normal'``.
        target (str): ``'CPU'`` or ``'DEVICE'``. Default: ``'CPU'``.
        slice_mode (str): ``'batch_slice'``, ``'field_slice'``, ``'table_row_slice'`` or ``'table_column_slice'``.
        manual_shapes (tuple): for ``'field_slice'``. Default: ``None``.
        max_norm (float): Default: ``None``. sparse (bool): Default: ``True``.
        dtype (mindspore.dtype): the table's dtype. Default: ``mindspore.float32``.

    Inputs:
        - **input_indices** (Tensor) - int32/int64 indices of any shape.

    Outputs:
        Tensor of shape ``input_indices.shape + (embedding_size,)``.
    """

    _SLICE_MODES = ("batch_slice", "field_slice", "table_row_slice", "table_column_slice")

    def __init__(self, vocab_size, embedding_size, param_init="normal", target="CPU", slice_mode="batch_slice",
                 manual_shapes=None, max_norm=None, sparse=True, dtype=mstype.float32):
        super().__init__()
        self.vocab_size = _check_positive_int("EmbeddingLookup", "vocab_size", vocab_size)
        self.embedding_size = _check_positive_int("EmbeddingLookup", "embedding_size", embedding_size)
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"For 'EmbeddingLookup', 'target' must be one of ['CPU', 'DEVICE'], but got '{target}'.")
        if slice_mode not in self._SLICE_MODES:
            raise ValueError(f"For 'EmbeddingLookup', 'slice_mode' must be one of {list(self._SLICE_MODES)}, but got "
                             f"'{slice_mode}'.")
        if not isinstance(sparse, bool):
            raise TypeError(f"For 'EmbeddingLookup', 'sparse' must be a bool, but got {type(sparse).__name__}.")
        if max_norm is not None and (isinstance(max_norm, bool) or not isinstance(max_norm, (int, float))
                                     or max_norm <= 0):
            raise ValueError(f"For 'EmbeddingLookup', 'max_norm' must be a positive float, but got {max_norm!r}.")
        self.target, self.slice_mode, self.manual_shapes = target, slice_mode, manual_shapes
        self.max_norm, self.sparse = max_norm, sparse
        self.embedding_table = make_parameter("EmbeddingLookup", "param_init", param_init,
                                              (vocab_size, embedding_size), dtype, "embedding_table")

    def construct(self, indices):
        if not isinstance(indices, Tensor) or not jnp.issubdtype(indices._value.dtype, jnp.integer):
            raise TypeError("For 'EmbeddingLookup', 'input_indices' must be an int32/int64 Tensor.")
        index = indices._value
        table = self.embedding_table._value
        valid = (index >= 0) & (index < self.vocab_size)
        rows = jnp.take(table, jnp.clip(index, 0, self.vocab_size - 1), axis=0)
        rows = jnp.where(valid[..., None], rows, jnp.zeros((), table.dtype))
        if self.max_norm is not None:
            norm = jnp.sqrt(jnp.sum(jnp.square(rows.astype(jnp.float32)), axis=-1, keepdims=True))
            rows = (rows * (self.max_norm / jnp.maximum(norm, self.max_norm))).astype(table.dtype)
        return Tensor._wrap(rows)

"""``Embedding``: a lookup table from integer ids to learned vectors."""
import jax
import jax.numpy as jnp

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.nn.layer.basic import _check_positive_int, make_parameter


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
        if self.use_one_hot:
            return Tensor._wrap(jnp.matmul(jax.nn.one_hot(ids, self.vocab_size, dtype=table.dtype), table))
        return Tensor._wrap(jnp.take(table, ids, axis=0, mode="clip"))

    def extend_repr(self):
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, use_one_hot={self.use_one_hot}, "
                f"embedding_table={self.embedding_table}, dtype={self.dtype}, padding_idx={self.padding_idx}")

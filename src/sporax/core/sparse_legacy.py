"""``SparseTensor``: MindSpore's deprecated name for a COO sparse tensor (``indices``, ``values``, ``shape``).

MindSpore 1.7 replaced it by ``COOTensor``; it remains as a ``COOTensor`` built from the three
positional arguments, and says so in the log when created, as MindSpore does.
"""
from sporax.core.sparse import COOTensor
from sporax.log import warning as _warning

_warned = []


class SparseTensor(COOTensor):
    """A COO sparse tensor (deprecated: use ``COOTensor``).

    Args:
        indices (Tensor): (N, ndim) integer positions of the non-zero values.
        values (Tensor): (N,) the values.
        shape (tuple[int]): the dense shape.

    Example:
        >>> import sporax as ms
        >>> t = ms.SparseTensor(ms.Tensor([[0, 1], [1, 2]], ms.int32), ms.Tensor([1.0, 2.0]), (3, 4))
        >>> t.shape
        (3, 4)
    """

    def __init__(self, indices, values, shape):
        if not _warned:
            _warned.append(True)
            _warning("'SparseTensor' is deprecated from version 1.7 and will be removed in a future version. "
                     "Please use 'COOTensor' instead.")
        super().__init__(indices, values, shape)

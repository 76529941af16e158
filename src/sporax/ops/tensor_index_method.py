"""``Tensor.index(indices)``: advanced indexing by a tuple of index Tensors (MindSpore's ``index``).

``x.index((i0, i1, ...))`` is ``x[i0, i1, ...]``: integer Tensors broadcast together and pick
elements along the leading axes, a bool Tensor selects where it is True, and ``None`` keeps an
axis whole. ``install()`` adds the method when ``sporax.ops`` imports this module.
"""
from sporax.core.tensor import Tensor


def index(self, indices):
    """Index this Tensor by a tuple (or list) of index Tensors, one per leading axis.

    Args:
        indices (Union[tuple[Tensor], list[Tensor]]): integer or bool Tensors (or None).

    Returns:
        Tensor.

    Example:
        >>> import sporax as ms
        >>> x = ms.Tensor([[1, 2], [3, 4]])
        >>> x.index((ms.Tensor([1, 0]), ms.Tensor([0, 1]))).asnumpy().tolist()
        [3, 2]
    """
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"index(): argument 'indices' (position 1) must be tuple of Tensor, not "
                        f"{type(indices).__name__}.")
    for position, item in enumerate(indices):
        if item is not None and not isinstance(item, Tensor):
            raise TypeError(f"index(): argument 'indices' (position 1) must be tuple of Tensor but found type of "
                            f"{type(item).__name__} at pos {position}.")
    if len(indices) > self.ndim:
        raise IndexError(f"index(): too many indices for a Tensor of dimension {self.ndim} (got {len(indices)}).")
    return self[tuple(slice(None) if item is None else item for item in indices)]


def install():
    Tensor.index = index


install()

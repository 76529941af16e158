"""The PyTorch-style ``*Ext`` Cells of ``mindspore.nn``: ``LayerNormExt``, ``DropoutExt``,
``Dropout2dExt``, ``MaxPool2dExt``, ``EmbeddingExt`` (PyTorch's arguments and parameter names)."""
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.initializer import Normal, initializer
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax import ops
from sporax.ops.functional.dropouts import inplace_dropout, inplace_dropout2d


def _probability(cell, p):
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
        raise ValueError(f"For '{cell}', the 'p' must be a number in [0, 1], but got {p!r}.")
    return float(p)


class LayerNormExt(Cell):
    """Layer normalization over the trailing ``normalized_shape`` axes, with ``weight`` and ``bias``.

    Args:
        normalized_shape (Union[int, tuple[int]]): the normalized trailing shape.
        eps (float): added to the variance. Default: 1e-5.
        elementwise_affine (bool): learn ``weight`` (ones) and ``bias`` (zeros). Default: True.
        bias (bool): learn ``bias`` too. Default: True.
        dtype (mindspore.dtype): the Parameters' dtype. Default: None (float32).

    Inputs:
        - **input** (Tensor) -- (..., \\*normalized_shape).

    Outputs:
        Tensor, same shape.
    """

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, dtype=None):
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        if not shape or not all(isinstance(size, int) and size > 0 for size in shape):
            raise ValueError(f"For 'LayerNormExt', the 'normalized_shape' must be positive ints, but got "
                             f"{normalized_shape!r}.")
        numpy_dtype = mstype.to_numpy_dtype(dtype or mstype.float32)
        self.normalized_shape, self.eps, self.elementwise_affine = shape, eps, elementwise_affine
        self.weight = Parameter(Tensor(np.ones(shape, numpy_dtype)), name="weight") if elementwise_affine else None
        self.bias = (Parameter(Tensor(np.zeros(shape, numpy_dtype)), name="bias")
                     if elementwise_affine and bias else None)

    def construct(self, input):
        return ops.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)


class DropoutExt(Cell):
    """Zero each element with probability ``p`` in training (scaling the rest by 1 / (1 - p)).

    Args:
        p (float): the drop probability. Default: 0.5.
        inplace (bool): in training, write the result into the input and return it. Default: False.

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor, same shape (the input itself when not training or ``p`` is 0).
    """

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        self.p, self.inplace = _probability("DropoutExt", p), inplace

    def construct(self, input):
        if not self.training or self.p == 0:
            return input
        return (inplace_dropout if self.inplace else ops.dropout)(input, self.p, True)


class Dropout2dExt(Cell):
    """Zero whole channels of (N, C, H, W) inputs with probability ``p`` in training.

    Args:
        p (float): the drop probability. Default: 0.5.
        inplace (bool): in training, write the result into the input and return it. Default: False.

    Inputs:
        - **input** (Tensor) -- (N, C, H, W).

    Outputs:
        Tensor, same shape.
    """

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        self.p, self.inplace = _probability("Dropout2dExt", p), inplace

    def construct(self, input):
        if not self.training or self.p == 0:
            return input
        return (inplace_dropout2d if self.inplace else ops.dropout2d)(input, self.p, True)


class MaxPool2dExt(Cell):
    """2-D max pooling with PyTorch's arguments.

    Args:
        kernel_size (Union[int, tuple[int]]): the window. Default: 1.
        stride (Union[int, tuple[int]]): Default: None (the kernel size).
        padding (Union[int, tuple[int]]): implicit -inf padding on both sides. Default: 0.
        dilation (Union[int, tuple[int]]): Default: 1.
        return_indices (bool): also return the flat H*W index of each maximum. Default: False.
        ceil_mode (bool): round the output size up. Default: False.

    Inputs:
        - **input** (Tensor) -- (N, C, H, W) or (C, H, W).

    Outputs:
        Tensor (and the indices with ``return_indices``).
    """

    def __init__(self, kernel_size=1, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode

    def construct(self, input):
        return ops.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                              self.return_indices, self.ceil_mode)


class EmbeddingExt(Cell):
    """A lookup table of ``num_embeddings`` vectors of ``embedding_dim`` (PyTorch's ``Embedding``; also
    ``mint.nn.Embedding``): the Cell of the op table's ``embedding`` op (``mint.nn.functional.embedding``).

    Args:
        num_embeddings (int): the table size.
        embedding_dim (int): the vector size.
        padding_idx (int): in ``[-num_embeddings, num_embeddings)``; this row gets no gradient, and a new table
            (without ``_weight``) starts with it zero. Default: None.
        max_norm (float): each looked-up row whose ``norm_type``-norm exceeds it is renormalised to it, in place in
            ``weight``. Default: None.
        norm_type (float): the p of that norm. Default: 2.0.
        scale_grad_by_freq (bool): divide each row's gradient by how often its index occurs in the input.
            Default: False.
        sparse (bool): must be False (True raises ValueError, as in MindSpore 2.10). Default: False.
        _weight (Tensor): the initial table (copied; its dtype is kept). Default: None: drawn from N(0, 1) with
            the global seed (``set_seed``).
        _freeze (bool): the table is not trainable. Default: False.
        dtype (mindspore.dtype): the dtype of a new table (without ``_weight``). Default: None (float32).

    Inputs:
        - **input** (Tensor) -- Int32/Int64 indices in ``[0, num_embeddings)``.

    Outputs:
        Tensor, ``input.shape + (embedding_dim,)``, the dtype of ``weight``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, mint
        >>> table = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
        >>> layer = mint.nn.Embedding(3, 2, _weight=table)
        >>> layer(Tensor(np.array([2, 0], np.int32))).asnumpy().tolist()
        [[4.0, 5.0], [0.0, 1.0]]
    """

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, dtype=None):
        super().__init__()
        for name, value in (("num_embeddings", num_embeddings), ("embedding_dim", embedding_dim)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'EmbeddingExt', the type of '{name}' should be 'int', but got type "
                                f"'{type(value).__name__}'.")
        if padding_idx is not None and (isinstance(padding_idx, bool) or not isinstance(padding_idx, int) or
                                        not -num_embeddings <= padding_idx < num_embeddings):
            raise ValueError(f"For 'EmbeddingExt', the 'padding_idx' must be in range of [-{num_embeddings}, "
                             f"{num_embeddings}), but got {padding_idx!r} with type '{type(padding_idx).__name__}'.")
        if sparse:
            # MindSpore 2.10 refuses it with this ValueError on every target.
            raise ValueError("For Embedding, sparse=True (sparse gradients) is not supported, as in MindSpore 2.10; "
                             "use sparse=False: the gradient of the table is then dense.")
        self.dtype = mstype.float32 if dtype is None else mstype.normalize(dtype)
        if _weight is None:
            table = initializer(Normal(1.0), (num_embeddings, embedding_dim), self.dtype).init_data()
            if padding_idx is not None:
                table = Tensor._wrap(table._value.at[padding_idx].set(0))
        else:
            if not isinstance(_weight, Tensor):
                raise TypeError(f"For 'EmbeddingExt', '_weight' must be a Tensor, but got {type(_weight).__name__}.")
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError(f"For 'EmbeddingExt', the '_weight' must have shape "
                                 f"{(num_embeddings, embedding_dim)} (num_embeddings, embedding_dim), but got "
                                 f"{tuple(_weight.shape)}.")
            table = Tensor._wrap(_weight._value)  # the Parameter's own slot: later writes leave _weight alone
        # MindSpore keeps padding_idx as given (-1 stays -1); the op reads a negative one from the end
        self.num_embeddings, self.embedding_dim, self.padding_idx = num_embeddings, embedding_dim, padding_idx
        self.max_norm, self.norm_type, self.scale_grad_by_freq = max_norm, norm_type, scale_grad_by_freq
        self.sparse = sparse
        self.weight = Parameter(table, name="weight", requires_grad=not _freeze)

    def construct(self, input):
        return ops.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                             self.scale_grad_by_freq)

    def extend_repr(self):
        return (f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, "
                f"padding_idx={self.padding_idx}, max_norm={self.max_norm}, norm_type={self.norm_type}, "
                f"scale_grad_by_freq={self.scale_grad_by_freq}, dtype={self.dtype}")

"""The THOR layers: ``nn.DenseThor``, ``nn.Conv2dThor``, ``nn.EmbeddingThor``, ``nn.EmbeddingLookupThor``.

Each computes what ``Dense``/``Conv2d``/``Embedding``/``EmbeddingLookup`` compute and keeps the two
Kronecker factors the THOR second-order optimizer preconditions with: ``A`` from the layer's input in
the forward pass, ``G`` from the gradient of the layer's output in the backward pass (MindSpore 2.10's
GPU/CPU formulas, written below per layer). ``A`` is an ordinary state write of the forward pass;
``G`` is computed in the backward pass by a custom VJP and handed to the host (``jax.debug.callback``),
so it lands in its Parameter when the backward program has run: read it through the layer's attribute
(``layer.matrix_g``), which waits for pending callbacks first.

Example:
    >>> import numpy as np, sporax as ms
    >>> layer = ms.nn.DenseThor(3, 2)
    >>> x = ms.Tensor(np.ones((4, 3), np.float32))
    >>> _ = ms.grad(lambda t: layer(t).sum())(x)
    >>> layer.matrix_g.shape
    (2, 2)
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.autodiff.tensor_hooks import hooked_identity
from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.layer.basic import Dense
from sporax.nn.layer.conv import Conv2d
from sporax.nn.layer.embedding import Embedding, EmbeddingLookup
from sporax.state import parameter_storage
from sporax.state.assign import write
from sporax.state.scope import is_tracing


def _store(cell, name, value):
    """Host side of the backward statistic: keep it until the layer's attribute is read."""
    cell.__dict__.setdefault("_thor_pending", {})[name] = np.asarray(value)


def _tap(cell, array, statistics):
    """``array`` unchanged; in the backward pass, ``statistics(gradient)`` -> {Parameter name: value} is stored."""

    def record(gradient):
        for name, value in statistics(gradient._value).items():
            jax.debug.callback(functools.partial(_store, cell, name), value)

    return hooked_identity(array, {0: record})


class _ThorStatistics:
    """Applies the backward statistics the host received when a statistic Parameter is read."""

    _THOR_STATISTICS = ()

    def __getattr__(self, name):
        if name in type(self)._THOR_STATISTICS and not is_tracing():
            jax.effects_barrier()
            pending = self.__dict__.get("_thor_pending")
            if pending:
                for key, value in list(pending.items()):
                    parameter = self._params[key]
                    parameter_storage.update(parameter, Tensor(value))  # MindSpore's THOR assigns in place
                pending.clear()
        return super().__getattr__(name)


def _gram(rows, normalizer):
    """rows^T rows / normalizer."""
    return rows.T @ rows / normalizer


class DenseThor(_ThorStatistics, Dense):
    """A dense layer that keeps THOR's factors: ``matrix_a = x^T x / in_channels`` (forward; MindSpore's
    GPU/CPU normaliser) and ``matrix_g = dy^T dy / N`` (backward; ``dy`` the gradient of ``x @ W^T``).

    Args:
        in_channels (int), out_channels (int): the sizes.
        weight_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``'normal'``.
        bias_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``'zeros'``.
        has_bias (bool): Default: ``True``.
        activation (str): applied to the output. Default: ``None``.

    Inputs:
        - **x** (Tensor) - (N, in_channels).

    Outputs:
        Tensor (N, out_channels).

    Example:
        >>> import numpy as np, sporax as ms
        >>> ms.nn.DenseThor(3, 4)(ms.Tensor(np.ones((2, 3), np.float32))).shape
        (2, 4)
    """

    _THOR_STATISTICS = ("matrix_g",)

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros", has_bias=True,
                 activation=None):
        super().__init__(in_channels, out_channels, weight_init, bias_init, has_bias, activation)
        self.thor = True
        self.matrix_a = Parameter(Tensor(np.eye(in_channels, dtype=np.float32)), name="matrix_a", requires_grad=False)
        self.matrix_g = Parameter(Tensor(np.eye(out_channels, dtype=np.float32)), name="matrix_g",
                                  requires_grad=False)

    def construct(self, x):
        if not isinstance(x, Tensor) or x.ndim != 2 or x.shape[1] != self.in_channels:
            raise ValueError(f"For 'DenseThor', the input must be a 2-D Tensor (N, {self.in_channels}), but got "
                             f"{getattr(x, 'shape', type(x).__name__)}.")
        array = x._value
        output = array @ self.weight._value.T
        if self.thor:
            write(self.matrix_a, _gram(array, array.shape[1]).astype(jnp.float32), "DenseThor")
            output = _tap(self, output, lambda dy: {"matrix_g": _gram(dy, dy.shape[0]).astype(jnp.float32)})
        if self.has_bias:
            output = output + self.bias._value
        output = Tensor._wrap(output)
        return self.activation(output) if self.activation_flag else output


class Conv2dThor(_ThorStatistics, Conv2d):
    """A 2-D convolution that keeps THOR's factors (MindSpore's GPU/CPU formulas): with the input's
    patches ``P`` (C*kh*kw, N, Ho*Wo) taken with 'same' padding and the layer's stride and averaged over
    the batch, ``matrix_a = P P^T / (Ho*Wo)`` (``a_normalizer`` = Ho*Wo); with the output gradient averaged
    over the batch, ``D`` (C_out, Ho'*Wo'), ``matrix_g = D D^T / (Ho'*Wo')`` (``g_normalizer``).

    Args:
        in_channels (int), out_channels (int), kernel_size (Union[int, tuple[int]]): as ``nn.Conv2d``.
        stride (Union[int, tuple[int]]): Default: ``1``. pad_mode (str): Default: ``'same'``.
        padding (Union[int, tuple[int]]): Default: ``0``. dilation (Union[int, tuple[int]]): Default: ``1``.
        group (int): Default: ``1``. has_bias (bool): Default: ``False``.
        weight_init, bias_init: Default: ``'normal'``, ``'zeros'``.

    Inputs:
        - **x** (Tensor) - (N, C_in, H, W).

    Outputs:
        Tensor (N, C_out, H_out, W_out).

    Example:
        >>> import numpy as np, sporax as ms
        >>> ms.nn.Conv2dThor(2, 3, 2)(ms.Tensor(np.ones((1, 2, 4, 4), np.float32))).shape
        (1, 3, 4, 4)
    """

    _THOR_STATISTICS = ("matrix_g_cov", "g_normalizer")

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init="normal", bias_init="zeros"):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init)
        self.thor = True
        self.hw = self.kernel_size[0] * self.kernel_size[1]
        self.matrix_a_dim = in_channels * self.hw
        self.matrix_g_dim = out_channels
        self.a_normalizer = Parameter(Tensor(np.ones(1, np.float32)), name="a_normalizer", requires_grad=False)
        self.g_normalizer = Parameter(Tensor(np.ones(1, np.float32)), name="g_normalizer", requires_grad=False)
        self.matrix_a_cov = Parameter(Tensor(np.zeros((self.matrix_a_dim,) * 2, np.float32)), name="matrix_a",
                                      requires_grad=False)
        self.matrix_g_cov = Parameter(Tensor(np.zeros((self.matrix_g_dim,) * 2, np.float32)), name="matrix_g",
                                      requires_grad=False)

    def construct(self, x):
        output = super().construct(x)
        if not self.thor:
            return output
        # The patches of every output position, channel-major like MindSpore's ThorIm2Col, batch-averaged.
        patches = lax.conv_general_dilated_patches(x._value.astype(jnp.float32), self.kernel_size, self.stride, "SAME")
        positions = patches.shape[2] * patches.shape[3]
        patches = jnp.mean(patches.reshape(patches.shape[0], self.matrix_a_dim, positions), axis=0)
        write(self.matrix_a_cov, patches @ patches.T / positions, "Conv2dThor")
        write(self.a_normalizer, jnp.full((1,), positions, jnp.float32), "Conv2dThor")

        def statistics(gradient):
            mean = jnp.mean(gradient.astype(jnp.float32), axis=0).reshape(self.out_channels, -1)
            count = mean.shape[1]
            return {"matrix_g_cov": mean @ mean.T / count, "g_normalizer": jnp.full((1,), count, jnp.float32)}

        return Tensor._wrap(_tap(self, output._value, statistics))


class EmbeddingThor(_ThorStatistics, Embedding):
    """An embedding that keeps THOR's factors: ``matrix_a`` (vocab_size,) counts how often each id was looked
    up; ``matrix_g = dY^T dY / n`` over the n looked-up rows' gradients (E, E). With ``use_one_hot`` it keeps
    none, as in MindSpore.

    Args:
        vocab_size (int), embedding_size (int): the table's shape.
        use_one_hot (bool): Default: ``False``. embedding_table: Default: ``'normal'``.
        dtype (mindspore.dtype): Default: ``mindspore.float32``. padding_idx (int): Default: ``None``.

    Inputs:
        - **x** (Tensor) - integer ids of any shape.

    Outputs:
        Tensor of shape ``x.shape + (embedding_size,)``.

    Example:
        >>> import numpy as np, sporax as ms
        >>> ms.nn.EmbeddingThor(5, 3)(ms.Tensor(np.array([[1, 2]], np.int32))).shape
        (1, 2, 3)
    """

    _THOR_STATISTICS = ("matrix_g",)

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=mstype.float32, padding_idx=None):
        super().__init__(vocab_size, embedding_size, use_one_hot, embedding_table, dtype, padding_idx)
        self.thor = True
        self.matrix_a = Parameter(Tensor(np.zeros(vocab_size, np.float32)), name="matrix_a", requires_grad=False)
        self.matrix_g = Parameter(Tensor(np.zeros((embedding_size, embedding_size), np.float32)), name="matrix_g",
                                  requires_grad=False)

    def construct(self, x):
        output = super().construct(x)
        if self.use_one_hot or not self.thor:
            return output
        ids = x._value.reshape(-1)
        ids = jnp.where(ids < 0, ids + self.vocab_size, ids)
        write(self.matrix_a, jnp.zeros(self.vocab_size, jnp.float32).at[ids].add(1.0), "EmbeddingThor")
        size = self.embedding_size
        tapped = _tap(self, output._value.reshape(-1, size),
                      lambda dy: {"matrix_g": _gram(dy.astype(jnp.float32), dy.shape[0])})
        return Tensor._wrap(tapped.reshape(output.shape))


class EmbeddingLookupThor(_ThorStatistics, EmbeddingLookup):
    """``nn.EmbeddingLookup`` that keeps THOR's factors when ``target='DEVICE'`` (as MindSpore; with 'CPU' it
    keeps none): ``matrix_a`` the lookup count per id, ``matrix_g = dY^T dY / indices.shape[0]`` over the
    flattened row gradients (taken before ``max_norm`` clipping), both rounded to float16 as MindSpore does.

    Args:
        vocab_size (int), embedding_size (int): the table's shape.
        param_init: Default: ``'normal'``. target (str): ``'CPU'`` or ``'DEVICE'``. Default: ``'CPU'``.
        slice_mode (str): Default: ``'batch_slice'``. manual_shapes (tuple): Default: ``None``.
        max_norm (float): Default: ``None``. sparse (bool): Default: ``True``.

    Inputs:
        - **input_indices** (Tensor) - int32/int64 ids of any shape.

    Outputs:
        Tensor of shape ``input_indices.shape + (embedding_size,)``.

    Example:
        >>> import numpy as np, sporax as ms
        >>> layer = ms.nn.EmbeddingLookupThor(5, 3, target="DEVICE")
        >>> layer(ms.Tensor(np.array([1, 1, 4], np.int32))).shape
        (3, 3)
    """

    _THOR_STATISTICS = ("matrix_g",)

    def __init__(self, vocab_size, embedding_size, param_init="normal", target="CPU", slice_mode="batch_slice",
                 manual_shapes=None, max_norm=None, sparse=True):
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode, manual_shapes, max_norm, sparse)
        self.thor = True
        self.matrix_a = Parameter(Tensor(np.zeros(vocab_size, np.float32)), name="matrix_a", requires_grad=False)
        self.matrix_g = Parameter(Tensor(np.zeros((embedding_size, embedding_size), np.float32)), name="matrix_g",
                                  requires_grad=False)

    def construct(self, input_indices):
        if self.target == "CPU" or not self.thor:
            return super().construct(input_indices)
        if not isinstance(input_indices, Tensor) or not jnp.issubdtype(input_indices._value.dtype, jnp.integer):
            raise TypeError("For 'EmbeddingLookupThor', 'input_indices' must be an int32/int64 Tensor.")
        ids = input_indices._value
        counts = jnp.zeros(self.vocab_size, jnp.float32).at[ids.reshape(-1)].add(1.0, mode="drop")
        write(self.matrix_a, counts.astype(jnp.float16).astype(jnp.float32), "EmbeddingLookupThor")
        table = self.embedding_table._value
        rows = jnp.take(table, jnp.clip(ids, 0, self.vocab_size - 1), axis=0)
        rows = jnp.where(((ids >= 0) & (ids < self.vocab_size))[..., None], rows, jnp.zeros((), table.dtype))
        size, batch = self.embedding_size, ids.shape[0] if ids.ndim else 1

        def statistics(gradient):
            flat = gradient.reshape(-1, size).astype(jnp.float32)
            return {"matrix_g": _gram(flat, batch).astype(jnp.float16).astype(jnp.float32)}

        rows = _tap(self, rows, statistics)
        if self.max_norm is not None:
            norm = jnp.sqrt(jnp.sum(jnp.square(rows.astype(jnp.float32)), axis=-1, keepdims=True))
            rows = (rows * (self.max_norm / jnp.maximum(norm, self.max_norm))).astype(table.dtype)
        return Tensor._wrap(rows)

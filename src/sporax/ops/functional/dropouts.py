"""Dropout: dropout, dropout1d/2d/3d (whole channels) and the bit masks of MindSpore's DropoutGenMask and
DropoutDoMask Primitives.

Each draws its key from the global random state as the ops of ``sporax.ops.functional.random`` do; outside
training, and at ``p`` 0 or 1, no key is drawn and the random state stays put. Seeded, ``dropout`` draws
MindSpore 2.10's mask (its Dropout kernel's stream, ``sporax.core.seeded_streams``); ``dropout1d/2d/3d`` always
draw MindSpore's (its Dropout2D/3D kernels' unseeded streams, ``channel_dropped``).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.dropout(Tensor(np.ones(4, np.float32)), p=0.5, training=False).asnumpy().tolist()
    [1.0, 1.0, 1.0, 1.0]
"""
import functools
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.seeded_streams import MinstdStream, eager_kernel
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional import random_samples as samples
from sporax.ops.functional.random import _host_draw, _key, _seeded, dropped
from sporax.ops.op_table import ANY, op
from sporax.state.scope import in_compiled_trace


# --- dropout ----------------------------------------------------------------------------------
def _check_p(op_name, p, allow_one=False):
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not (0.0 <= p < 1.0 or (allow_one and p == 1.0)):
        interval = "[0, 1]" if allow_one else "[0, 1)"
        raise ValueError(f"For '{op_name}', 'p' (the probability of dropping an element) must be a "
                         f"float in {interval}, but got {p!r}.")


def _dropping(input, p=0.5, training=True, *rest):
    """Whether a dropout call draws a key: outside training, and at p 0 or 1, the random state stays put."""
    return bool(training) and isinstance(p, numbers.Real) and not isinstance(p, bool) and 0.0 < p < 1.0


def _dropout_mask(op_name, input, p, training, mask_shape, key, allow_one=False):
    if not isinstance(input, jax.Array):
        raise TypeError(f"For '{op_name}', 'input' must be a Tensor, but got {describe(input)}.")
    _check_p(op_name, p, allow_one)
    if key is None:  # no draw (``_dropping``): the input as it is, or every channel dropped at p = 1
        return jnp.zeros_like(input) if training and p == 1.0 else input
    if key is _CHANNEL_KERNEL:  # MindSpore's Dropout2D/3D kernel stream
        _check_channel_rank(op_name, input)
        return channel_dropped(_CHANNEL_PRIMITIVE[op_name], input, 1.0 - p, mask_shape(input.shape))[0]
    if not isinstance(key, jax.Array):  # seeded: MindSpore's Dropout kernel (element-wise masks only)
        return dropped(_host_draw(key, input.shape, ("units",), np.float32), input, 1.0 - p)[0]
    keep = jax.random.bernoulli(key, 1.0 - p, mask_shape(input.shape))
    scale = jnp.asarray(1.0 / (1.0 - p), input.dtype)
    return jnp.where(keep, input * scale, jnp.zeros((), input.dtype))


# The key of ops.dropout1d/2d/3d: MindSpore's Dropout2D/3D kernels own an unseeded stream (set_seed unused)
_CHANNEL_KERNEL = "MindSpore's channel dropout kernel"
_CHANNEL_PRIMITIVE = {"dropout1d": "Dropout2D", "dropout2d": "Dropout2D", "dropout3d": "Dropout3D"}


def _check_channel_rank(op_name, input):
    if op_name == "dropout1d":
        if input.ndim not in (2, 3):
            raise ValueError(f"For dropout1d, input shape should be 2D or 3D, but got {input.ndim}: pass (N, C, L) "
                             "or (C, L).")
        return
    rank = 4 if op_name == "dropout2d" else 5
    if input.ndim != rank:
        raise ValueError(f"For primitive[{_CHANNEL_PRIMITIVE[op_name]}], the rank of input must be equal to {rank}, "
                         f"but got {input.ndim}: {op_name} takes a batch of channels "
                         f"({'(N, C, H, W)' if rank == 4 else '(N, C, D, H, W)'}).")


def _channel_kernel(seed=None):
    return _CHANNEL_KERNEL


def _channel_drawing(input, p=0.5, training=True, *rest):
    """Whether a channel dropout launches its kernel: in training at ``p`` < 1 (at ``p`` 0 too: the kernel draws
    its flags, all kept)."""
    return bool(training) and isinstance(p, numbers.Real) and not isinstance(p, bool) and 0.0 <= p < 1.0


def channel_dropped(primitive, array, keep_prob, mask_shape):
    """MindSpore 2.10's Dropout2D/3D CPU kernel on ``array``: ``(output, Bool mask)``.

    One keep flag per channel (``mask_shape``: the input's with its spatial axes 1), in row-major order, each a
    ``bernoulli_distribution(keep_prob)`` draw of a ``default_random_engine`` seeded with its default 1, which the
    kernel keeps: a PyNative kernel per (Primitive, keep_prob, input shape and dtype) runs on from call to call
    (a PyNative gradient's forward included), ``set_seed`` unused; an op compiled by ``ms.jit`` or in GRAPH_MODE
    has one of its own. Kept channels are ``input * (1 / keep_prob)`` in
    float32; at ``keep_prob`` 0 everything is dropped, drawing nothing.
    """
    keep_prob = float(np.float32(keep_prob))  # the Primitive's float attribute
    if keep_prob == 0.0:
        keep = jnp.zeros(mask_shape, bool)
    else:
        def build():
            return MinstdStream(1)

        count = int(np.prod(mask_shape, dtype=np.int64))
        signature = (primitive, keep_prob, tuple(array.shape), np.dtype(array.dtype).name)
        # a PyNative gradient's program stands for eager calls: it draws on from the PyNative kernel at each run
        stream = build() if in_compiled_trace() else eager_kernel(signature, build)
        keep = _host_draw(stream, (count,), ("bernoulli", keep_prob), np.bool_).reshape(mask_shape)
    mask = jnp.broadcast_to(keep, array.shape)
    scale = np.float32(1) / np.float32(keep_prob) if keep_prob else np.float32(0)
    scaled = (array.astype(np.float32) * scale).astype(array.dtype)
    return jnp.where(mask, scaled, jnp.zeros((), array.dtype)), mask


_dropout = functools.partial(op, dtypes=ANY, random=_key, draws=_dropping, grad_check=False)


@_dropout(samples=samples.dropout(2), reference=samples.dropout_reference, random=_seeded("dropout"))
def dropout(input, p=0.5, training=True, seed=None, *, key):
    """Zero each element with probability ``p`` and scale the others by ``1 / (1 - p)``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> sorted(set(ops.dropout(Tensor(np.ones(100, np.float32)), p=0.5).asnumpy().tolist()))
        [0.0, 2.0]
    """
    return _dropout_mask("dropout", input, p, training, lambda shape: shape, key)


@_dropout(samples=samples.dropout(3), reference=samples.dropout_reference, random=_channel_kernel,
          draws=_channel_drawing)
def dropout1d(input, p=0.5, training=True, *, key):
    """Zero whole channels of an ``(N, C, L)`` or ``(C, L)`` input with probability ``p``: MindSpore's Dropout2D
    kernel on it as ``(N, C, L, 1)`` or ``(1, C, L, 1)`` (``channel_dropped``)."""
    if key is _CHANNEL_KERNEL and isinstance(input, jax.Array):
        _check_channel_rank("dropout1d", input)
        _check_p("dropout1d", p, allow_one=True)
        as_4d = (input.reshape((1,) * (3 - input.ndim) + input.shape + (1,)))
        return channel_dropped("Dropout2D", as_4d, 1.0 - p, as_4d.shape[:2] + (1, 1))[0].reshape(input.shape)
    return _dropout_mask("dropout1d", input, p, training, lambda shape: shape[:-1] + (1,), key, allow_one=True)


@_dropout(samples=samples.dropout(4), reference=samples.dropout_reference, random=_channel_kernel,
          draws=_channel_drawing)
def dropout2d(input, p=0.5, training=True, *, key):
    """Zero whole channels of an ``(N, C, H, W)`` input with probability ``p`` (MindSpore's Dropout2D kernel
    stream, ``channel_dropped``).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> out = ops.dropout2d(Tensor(np.ones((2, 8, 3, 3), np.float32))).asnumpy()
        >>> bool((out.min(axis=(2, 3)) == out.max(axis=(2, 3))).all())  # a channel is kept or dropped whole
        True
    """
    return _dropout_mask("dropout2d", input, p, training, lambda shape: shape[:-2] + (1, 1), key, allow_one=True)


@_dropout(samples=samples.dropout(5), reference=samples.dropout_reference, random=_channel_kernel,
          draws=_channel_drawing)
def dropout3d(input, p=0.5, training=True, *, key):
    """Zero whole channels of an ``(N, C, D, H, W)`` input with probability ``p`` (MindSpore's Dropout3D kernel
    stream, ``channel_dropped``)."""
    return _dropout_mask("dropout3d", input, p, training, lambda shape: shape[:-3] + (1, 1, 1), key,
                         allow_one=True)


def _in_place(function, rank):
    """Declare ``inplace_<function>``: ``function``'s draws stored into ``input`` (the in-place forms
    ``mint.nn.functional.dropout(..., inplace=True)`` calls, MindSpore's FuncDropoutExt with ``inplace``)."""
    name = f"inplace_{function.__name__}"

    def kernel(input, p=0.5, training=True, *, key):
        return function.entry.kernel(input, p, training, key=key)

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__module__ = __name__
    shape = (4,) if rank == 2 else (1, 4, 2, 2)
    kernel.__doc__ = (f"``{function.__name__}`` stored into ``input``; returns ``input``.\n\n    Example:\n"
                      f"        >>> import numpy as np\n        >>> from sporax import Tensor\n"
                      f"        >>> from {__name__} import {name}\n"
                      f"        >>> x = Tensor(np.ones({shape}, np.float32))\n        >>> {name}(x, 0.5) is x\n"
                      f"        True\n")
    return _dropout(writes="input", samples=samples.dropout(rank), reference=samples.dropout_reference)(kernel)


inplace_dropout = _in_place(dropout, 2)
inplace_dropout2d = _in_place(dropout2d, 4)


def dropout_gen_mask(shape, keep_prob, seed=None):
    """A bit mask for ``dropout_do_mask``: one bit per element of ``shape`` (1 with probability
    ``keep_prob``), little-endian within bytes, padded to a multiple of 128 bits (UInt8)."""
    count = int(np.prod(shape))
    padded = -(-count // 128) * 128
    return wrap(_pack_bits(jax.random.bernoulli(_key(seed), keep_prob, (padded,))))


def _pack_bits(keep):
    """One bit per element (little-endian within bytes), padded to a multiple of 128 bits, as UInt8."""
    bits = keep.reshape(-1).astype(jnp.uint8)
    bits = jnp.pad(bits, (0, -(-bits.size // 128) * 128 - bits.size))
    weights = jnp.asarray([1 << i for i in range(8)], jnp.uint8)
    return (bits.reshape(-1, 8) * weights).sum(axis=1).astype(jnp.uint8)


def dropout_ext(input, p, seed, offset):
    """MindSpore's DropoutExt: ``(output, mask)`` with the key given by ``seed`` and ``offset``.

    ``output`` zeroes each element with probability ``p`` and scales the rest by ``1 / (1 - p)``;
    ``mask`` packs the kept elements as bits in the layout of ``dropout_gen_mask`` (UInt8, one byte
    per 8 elements, padded to a multiple of 128 bits: MindSpore 2.10 infers 16 bytes for a (3, 4)
    input). The same ``seed`` and ``offset`` give the same mask; mindformers' Dropout passes the pair
    its ``Generator`` returns.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.ops.functional.dropouts import dropout_ext
        >>> out, mask = dropout_ext(Tensor(np.ones((3, 4), np.float32)), 0.0, 0, 0)
        >>> out.asnumpy().tolist()[0], mask.shape
        ([1.0, 1.0, 1.0, 1.0], (16,))
    """
    array = array_of("DropoutExt", "input", input)
    if not jnp.issubdtype(array.dtype, jnp.floating):
        raise TypeError(f"For 'DropoutExt', 'input' must be a float Tensor, but got {describe(input)}.")
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0.0 <= p <= 1.0:
        raise ValueError(f"For 'DropoutExt', 'p' (the probability of dropping an element) must be a float in "
                         f"[0, 1], but got {p!r}.")
    if p == 0.0:
        keep = jnp.ones(array.shape, bool)
    elif p == 1.0:
        keep = jnp.zeros(array.shape, bool)
    else:
        seed_value = array_of("DropoutExt", "seed", seed).astype(jnp.uint32)
        offset_value = array_of("DropoutExt", "offset", offset).astype(jnp.uint32)
        key = jax.random.fold_in(jax.random.PRNGKey(seed_value), offset_value)
        keep = jax.random.bernoulli(key, 1.0 - p, array.shape)
    scale = jnp.asarray(1.0 / (1.0 - p) if p < 1.0 else 0.0, array.dtype)
    output = jnp.where(keep, array * scale, jnp.zeros((), array.dtype))
    return wrap(output), wrap(_pack_bits(keep))


def dropout_do_mask(input_x, mask, keep_prob):
    """``input_x * bit / keep_prob`` with the bits of a ``dropout_gen_mask`` mask."""
    array = array_of("DropoutDoMask", "input_x", input_x)
    packed = array_of("DropoutDoMask", "mask", mask)
    if packed.dtype != np.uint8 or packed.size * 8 < array.size:
        raise ValueError(f"For 'DropoutDoMask', 'mask' must be a UInt8 Tensor of at least {-(-array.size // 8)} "
                         f"bytes, but got {describe(mask)}.")
    bits = (packed[:, None] >> jnp.arange(8, dtype=jnp.uint8)) & 1
    keep = bits.reshape(-1)[:array.size].reshape(array.shape)
    return wrap(jnp.where(keep == 1, array / keep_prob, 0).astype(array.dtype))

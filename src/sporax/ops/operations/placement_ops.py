"""Remaining l-z Primitives and helpers: ``Quantile``, ``MoveTo``, ``reshard``/``Reshard``, ``MaxPool3DWithArgmax``
and the sequence-iteration helpers ``ms_next``/``ms_hasnext`` that MindSpore's compiler lowers ``for`` loops to.

Example:
    >>> from sporax import ops
    >>> ops.ms_next((1, 2, 3)), ops.ms_hasnext(())
    ((1, (2, 3)), False)
"""
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional import order_statistics, primitive_aliases
from sporax.ops.primitive import Primitive, prim_attr_register


def ms_hasnext(*args):
    """Whether a tuple, list, string, dict or Tensor (along its first axis) has elements left."""
    if len(args) != 1:
        raise TypeError(f"For 'ms_hasnext', one input is expected, but got {len(args)}.")
    (sequence,) = args
    if isinstance(sequence, Tensor):
        return sequence.ndim > 0 and sequence.shape[0] > 0
    if not isinstance(sequence, (tuple, list, str, dict)):
        raise TypeError(f"For 'ms_hasnext', the input must be a tuple, list, str, dict or Tensor, but got "
                        f"{type(sequence).__name__}.")
    return len(sequence) > 0


def ms_next(*args):
    """``(first element, the rest)`` of a tuple, list, string or Tensor (rows)."""
    if len(args) != 1:
        raise TypeError(f"For 'ms_next', one input is expected, but got {len(args)}.")
    (sequence,) = args
    if not ms_hasnext(sequence):
        raise ValueError("For 'ms_next', the input is empty: there is no next element.")
    if isinstance(sequence, dict):
        keys = tuple(sequence)
        return keys[0], keys[1:]
    return sequence[0], sequence[1:]


def reshard(tensor, layout):
    """Place (or, inside a compiled parallel step, constrain) ``tensor`` by ``layout`` in semi-auto/auto parallel
    mode; in the other modes the tensor is returned as it is."""
    from sporax.parallel.layout import Layout
    from sporax.parallel.shard import _place

    if not isinstance(tensor, Tensor):
        raise TypeError(f"For 'reshard', 'tensor' must be a Tensor, but got {describe(tensor)}.")
    if not isinstance(layout, Layout):
        raise TypeError(f"For 'reshard', 'layout' must be a Layout (called with a tensor map), but got "
                        f"{type(layout).__name__}.")
    return _place("reshard", (tensor,), (layout,))[0]


class Reshard(Primitive):
    """``ops.reshard`` as a Primitive: place its input by ``out_layout``.

    Inputs:
        - **tensor** (Tensor).
    """

    @prim_attr_register
    def __init__(self, in_layout, out_layout, in_strategy):
        layouts = out_layout if isinstance(out_layout, (tuple, list)) else (out_layout,)
        self.layout = layouts[0]

    def __call__(self, tensor):
        return reshard(tensor, self.layout)


class Quantile(Primitive):
    """The ``q``-th quantiles of ``input`` along ``dim`` (all elements when None), linearly interpolated.

    Args:
        dim (int). keep_dims (bool). ignore_nan (bool): skip NaN values (else a slice with NaN gives NaN).

    Inputs:
        - **input** (Tensor) - float. **q** (Tensor) - 0-D or 1-D, in [0, 1].
    """

    @prim_attr_register
    def __init__(self, dim=None, keep_dims=False, ignore_nan=False):
        self.dim, self.keep_dims, self.ignore_nan = dim, keep_dims, ignore_nan

    def __call__(self, input, q):
        function = order_statistics.nanquantile if self.ignore_nan else order_statistics.quantile
        return function(input, q, self.dim, self.keep_dims)


class MoveTo(Primitive):
    """A copy of ``input`` on device ``to`` ('CPU' or 'Ascend'; sporax keeps one device).

    Inputs:
        - **input** (Tensor). **to** (str). **blocking** (bool).
    """

    def __call__(self, input, to="CPU", blocking=True):
        return primitive_aliases.move_to(input, to, blocking)


def _triple(name, value):
    triple = (value,) * 3 if isinstance(value, int) else tuple(value)
    if len(triple) != 3 or any(isinstance(v, bool) or not isinstance(v, int) for v in triple):
        raise ValueError(f"For 'MaxPool3DWithArgmax', '{name}' must be an int or 3 ints, but got {value!r}.")
    return triple


class MaxPool3DWithArgmax(Primitive):
    """``(output, argmax)`` of a 3-D max pool of (N, C, D, H, W); argmax indexes each D*H*W volume (first maximum).

    Args:
        ksize, strides, pads (Union[int, tuple[int]]). dilation (tuple[int]). ceil_mode (bool).
        data_format (str): 'NCDHW'. argmax_type (mindspore.dtype): int32 or int64.

    Inputs:
        - **x** (Tensor) - (N, C, D, H, W).
    """

    @prim_attr_register
    def __init__(self, ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False, data_format="NCDHW",
                 argmax_type=mstype.int64):
        if data_format != "NCDHW":
            raise ValueError(f"For 'MaxPool3DWithArgmax', 'data_format' must be 'NCDHW', but got {data_format!r}.")
        self.kernel, self.stride, self.pad = _triple("ksize", ksize), _triple("strides", strides), _triple("pads",
                                                                                                          pads)
        self.dilation = _triple("dilation", dilation)
        self.ceil_mode = ceil_mode
        self.index_dtype = mstype.to_numpy_dtype(mstype.normalize(argmax_type))

    def __call__(self, x):
        array = array_of("MaxPool3DWithArgmax", "x", x)
        if array.ndim != 5:
            raise ValueError(f"For 'MaxPool3DWithArgmax', 'x' must be 5-D, but got shape {tuple(array.shape)}.")
        spatial = array.shape[2:]
        sizes = []
        for size, k, s, p, d in zip(spatial, self.kernel, self.stride, self.pad, self.dilation):
            span = size + 2 * p - d * (k - 1) - 1
            count = (-(-span // s) if self.ceil_mode else span // s) + 1
            if self.ceil_mode and (count - 1) * s >= size + p:
                count -= 1
            sizes.append(count)
        # Index of every window element in the padded volume, and whether it lies inside the input.
        grids = []
        for size, k, s, p, d, count in zip(spatial, self.kernel, self.stride, self.pad, self.dilation, sizes):
            grids.append(np.arange(count)[:, None] * s + np.arange(k)[None, :] * d - p)  # (out, k)
        depth, height, width = grids
        coordinates = np.stack(np.meshgrid(*[np.arange(c) for c in sizes], *[np.arange(k) for k in self.kernel],
                                           indexing="ij"), 0)
        od, oh, ow, kd, kh, kw = coordinates
        z, y, w_ = depth[od, kd], height[oh, kh], width[ow, kw]
        inside = (z >= 0) & (z < spatial[0]) & (y >= 0) & (y < spatial[1]) & (w_ >= 0) & (w_ < spatial[2])
        flat = np.where(inside, (z * spatial[1] + y) * spatial[2] + w_, 0).reshape(tuple(sizes) + (-1,))
        valid = inside.reshape(tuple(sizes) + (-1,))
        volume = array.reshape(array.shape[:2] + (-1,))
        lowest = jnp.finfo(array.dtype).min if array.dtype.kind == "f" else jnp.iinfo(array.dtype).min
        windows = jnp.where(valid, volume[..., flat], lowest)
        position = jnp.argmax(windows, axis=-1)
        output = jnp.take_along_axis(windows, position[..., None], axis=-1)[..., 0]
        argmax = jnp.take_along_axis(jnp.broadcast_to(flat, windows.shape), position[..., None], axis=-1)[..., 0]
        return wrap(output), wrap(argmax.astype(self.index_dtype))


"""The ops of MindSpore's pooling Primitives, whose padding is a mode: ``MaxPool``/``AvgPool`` (TensorFlow's
'same'/'valid') and ``MaxPool3D``/``AvgPool3D`` ('valid', 'same' or 'pad' with ``pad_list``/``pad``).

'same' pads so the output is ``ceil(size / stride)``, the odd row at the high end; ``AvgPool`` then counts
the input's elements only, ``AvgPool3D`` the whole kernel unless ``count_include_pad`` is False (MindSpore 2.10). These are op-table entries whose Primitive is hand-written in
``ops.operations.nn_ops`` (it checks its attributes when built); MindSpore has no functional name for them.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.MaxPool(2, 2, "same")(Tensor(np.arange(9.0, dtype=np.float32).reshape(1, 1, 3, 3))).shape
    (1, 1, 2, 2)
"""
import itertools
import math
import numbers

import numpy as np
from jax import lax

from sporax.ops.functional.nan_orders import LAST
from sporax.ops.functional.pooling import _avg_pool_kernel, _max_pool, _pool_pads
from sporax.ops.op_table import FLOAT, NUMBER, Sample, op
from sporax.ops.samples import _numpy_dtype


def pool_window(name, arg, value, spatial):
    """``spatial`` ints from an int, ``spatial`` ints, or MindSpore's (1, 1, ...) form of ``spatial + 2``."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return (int(value),) * spatial
    value = tuple(value)
    if len(value) in (spatial, spatial + 2):
        return tuple(int(item) for item in value[-spatial:])
    raise ValueError(f"For '{name}', '{arg}' must be an int, a tuple of {spatial} ints or the same "
                     f"after (1, 1, ...), but got {value!r}.")


def _per_axis(pad, spatial):
    """One pad per axis from an int, one per axis, or a (low, high) pair per axis (the low entries are used,
    as MindSpore's CPU kernels do)."""
    if isinstance(pad, numbers.Integral):
        return (int(pad),) * spatial
    return tuple(pad) if len(pad) == spatial else tuple(pad)[::2]


def _mode_pads(name, array, kernel, strides, pad_mode, pad, ceil_mode, spatial):
    """(low, high) pads of the last ``spatial`` axes for ``pad_mode`` ('VALID', 'SAME' or 'PAD' with ``pad``,
    see ``_per_axis``)."""
    mode = pad_mode.upper()
    if mode == "PAD":
        pads = _per_axis(pad, spatial)
        return _pool_pads(array.shape[-spatial:], kernel, strides, pads, (1,) * spatial, bool(ceil_mode), name)
    if mode not in ("SAME", "VALID"):
        raise ValueError(f"For '{name}', 'pad_mode' must be 'same', 'valid' or 'pad', but got {pad_mode!r}.")
    return tuple(lax.padtype_to_pads(array.shape[-spatial:], kernel, strides, mode))


def check_output_size(name, array, kernel, strides, pads):
    """MindSpore 2.10's refusal of a 2-d pool whose window does not fit: an empty output is an error, not a
    zero-size tensor (AvgPool's RuntimeError, MaxPool's ValueError, with their wording)."""
    out = [(size + low + high - k) // s + 1 for size, k, s, (low, high) in zip(array.shape[-2:], kernel, strides, pads)]
    if min(out) > 0:
        return
    if name == "AvgPool":
        raise RuntimeError("For 'AvgPool' op, H_out/W_out must be positive, but H_out/W_out is "
                           f"{min(max(v, 0) for v in out)}, please check input and parameters of op")
    vector = lambda values: "[const vector]{" + ", ".join(str(int(v)) for v in values) + "}"
    raise ValueError(f"For '{name}', the each element of the output shape must be larger than 0, but got output shape: "
                     f"{vector(tuple(array.shape[:-2]) + tuple(max(v, 0) for v in out))}. The input shape: "
                     f"{vector(array.shape)}, kernel size: {vector((1, 1) + tuple(kernel))}, strides: "
                     f"{vector((1, 1) + tuple(strides))}. Please check the official api documents for more "
                     "information about the output.")


def check_channels_first(name, data_format, expected, channels_last=False):
    """MindSpore 2.10's checks: the 3-D pools and convolutions take 'NCDHW' only; the 2-D ones refuse 'NHWC' on
    CPU (GPU-only; ``channels_last``: this op runs NHWC on the GPU target)."""
    if expected == "NCDHW":
        if data_format != expected:
            raise ValueError(f"For '{name}', the 'data_format' must be str and must be in '['NCDHW']', but got "
                             f"{data_format!r}; move the channels to axis 1 with ops.transpose first.")
        return
    # Imported here: layer_forms imports the functional package this module belongs to.
    from sporax.ops import layer_forms
    layer_forms.check_data_format(name, data_format, ("NCHW", "NHWC"), channels_last=channels_last)


def _channels_first(pool, x, data_format):
    """``pool`` (an NCHW pooling of an array) applied in ``data_format``: NHWC (MindSpore's GPU layout) pools as
    NCHW between two transposes, which XLA fuses."""
    if data_format != "NHWC":
        return pool(x)
    return pool(x.transpose(0, 3, 1, 2)).transpose(0, 2, 3, 1)


# --- samples and NumPy references (the op test table's oracle) ---------------------------------

def _same_or_valid(sizes, kernel, strides, pad_mode):
    if pad_mode.upper() == "VALID":
        return [(0, 0)] * len(sizes)
    pads = []
    for size, k, s in zip(sizes, kernel, strides):
        total = max((math.ceil(size / s) - 1) * s + k - size, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def _numpy_pool(x, kernel, strides, pads, reduce, spatial, divisor=None):
    """``reduce`` of each window over the input's elements it covers (padding takes no part); an average
    divides by ``divisor(window positions)`` when given, else by the elements covered."""
    sizes = x.shape[-spatial:]
    counts = [(size + low + high - k) // s + 1 for size, (low, high), k, s in zip(sizes, pads, kernel, strides)]
    out = np.empty(x.shape[:-spatial] + tuple(counts))
    for index in itertools.product(*[range(count) for count in counts]):
        starts = [i * s - low for i, s, (low, _) in zip(index, strides, pads)]
        inside = tuple(slice(max(start, 0), min(start + k, size)) for start, k, size in zip(starts, kernel, sizes))
        window = x[(Ellipsis,) + inside].reshape(x.shape[:-spatial] + (-1,))
        out[(Ellipsis,) + index] = reduce(window, -1) if divisor is None else window.sum(-1) / divisor(starts)
    return out


def _numpy_max_pool(x, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
    kernel, steps = pool_window("", "", kernel_size, 2), pool_window("", "", strides, 2)
    return _numpy_pool(x, kernel, steps, _same_or_valid(x.shape[-2:], kernel, steps, pad_mode), np.max, 2)


def _numpy_avg_pool(x, kernel_size=1, strides=1, pad_mode="VALID", data_format="NCHW"):
    kernel, steps = pool_window("", "", kernel_size, 2), pool_window("", "", strides, 2)
    return _numpy_pool(x, kernel, steps, _same_or_valid(x.shape[-2:], kernel, steps, pad_mode), np.mean, 2)


def _uniform(shape, dtype, seed):
    return np.random.default_rng(seed).uniform(-2.0, 2.0, size=shape).astype(_numpy_dtype(dtype))


def _pool_samples(dtype):
    x = _uniform((2, 3, 7, 6), dtype, 0)
    return [Sample((x,), {"kernel_size": 2, "strides": 2}),
            Sample((x,), {"kernel_size": 3, "strides": 2, "pad_mode": "same"}),
            Sample((_uniform((1, 2, 5, 5), dtype, 1),), {"kernel_size": (1, 1, 2, 3), "strides": (1, 1, 2, 1),
                                                          "pad_mode": "SAME"})]


def _pool3d_reference(average):
    def reference(x, kernel_size=1, strides=1, pad_mode="VALID", pad=0, ceil_mode=False, count_include_pad=True,
                  divisor_override=0, **_):
        kernel, steps = pool_window("", "", kernel_size, 3), pool_window("", "", strides, 3)
        if pad_mode.upper() != "PAD":
            pads = _same_or_valid(x.shape[-3:], kernel, steps, pad_mode)
            if not average:
                return _numpy_pool(x, kernel, steps, pads, np.max, 3)
            return _numpy_pool(x, kernel, steps, pads, None, 3, divisor=lambda starts: divisor_override or (
                np.prod(kernel) if count_include_pad else np.prod(
                    [min(start + k, size) - max(start, 0) for start, k, size in zip(starts, kernel, x.shape[-3:])])))
        padding = (pad,) * 3
        pads = [(p, p) for p in padding]
        if not average:
            return _numpy_pool(x, kernel, steps, pads, np.max, 3)
        return _numpy_pool(x, kernel, steps, pads, None, 3, divisor=lambda starts: divisor_override or (
            np.prod(kernel) if count_include_pad else np.prod(
                [min(start + k, size) - max(start, 0) for start, k, size in zip(starts, kernel, x.shape[-3:])])))
    return reference


def _pool3d_samples(average):
    def make(dtype):
        x = _uniform((1, 2, 5, 4, 5), dtype, 0)
        padded = {"pad_mode": "pad", "pad": 1, "kernel_size": 3, "strides": 2}
        if average:
            padded["count_include_pad"] = False
        samples = [Sample((x,), {"kernel_size": 2, "strides": 2}),
                   Sample((x,), {"kernel_size": (2, 3, 2), "strides": 2, "pad_mode": "same"}),
                   Sample((x,), padded)]
        if average:  # 'same' counts the input's elements only without count_include_pad
            samples.append(Sample((x,), {"kernel_size": 3, "strides": 2, "pad_mode": "same",
                                         "count_include_pad": False}))
            samples.append(Sample((x,), {"kernel_size": 2, "strides": 1, "divisor_override": 3}))
        return samples
    return make


# --- the ops ------------------------------------------------------------------------------------

_ATTRIBUTES = ("kernel_size", "strides", "pad_mode", "data_format")


@op(inputs="x", dtypes=NUMBER, primitive="MaxPool", primitive_attrs=_ATTRIBUTES,
    lowering="pool", samples=_pool_samples, reference=_numpy_max_pool)
def max_pool(x, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
    """2-d max pooling of an (N, C, H, W) input with 'same' or 'valid' padding (``ops.MaxPool``'s op; (N, H, W, C)
    with data_format='NHWC' on the GPU target)."""
    check_channels_first("MaxPool", data_format, "NCHW", channels_last=True)
    kernel, steps = pool_window("MaxPool", "kernel_size", kernel_size, 2), pool_window("MaxPool", "strides", strides, 2)

    def pool(array):
        pads = _mode_pads("MaxPool", array, kernel, steps, pad_mode, 0, False, 2)
        check_output_size("MaxPool", array, kernel, steps, pads)
        return _max_pool(array, kernel, steps, pads, nan_rule=LAST)
    return _channels_first(pool, x, data_format)


@op(inputs="x", dtypes=FLOAT, primitive="AvgPool", primitive_attrs=_ATTRIBUTES,
    samples=_pool_samples, reference=_numpy_avg_pool)
def avg_pool(x, kernel_size=1, strides=1, pad_mode="VALID", data_format="NCHW"):
    """2-d average pooling of an (N, C, H, W) input with 'same' or 'valid' padding; padded cells are never
    counted (``ops.AvgPool``'s op; (N, H, W, C) with data_format='NHWC' on the GPU target)."""
    check_channels_first("AvgPool", data_format, "NCHW", channels_last=True)
    kernel, steps = pool_window("AvgPool", "kernel_size", kernel_size, 2), pool_window("AvgPool", "strides", strides, 2)

    def pool(array):
        pads = _mode_pads("AvgPool", array, kernel, steps, pad_mode, 0, False, 2)
        check_output_size("AvgPool", array, kernel, steps, pads)
        return _avg_pool_kernel(array, kernel, steps, (1, 1), pads, True, False, 0)
    return _channels_first(pool, x, data_format)


@op(inputs="x", dtypes=NUMBER, primitive="MaxPool3D", lowering="pool",
    primitive_attrs=("kernel_size", "strides", "pad_mode", ("pad_list", "pad"), "ceil_mode", "data_format"),
    samples=_pool3d_samples(False), reference=_pool3d_reference(False))
def max_pool_3d(x, kernel_size=1, strides=1, pad_mode="VALID", pad=0, ceil_mode=None, data_format="NCDHW"):
    """3-d max pooling of an (N, C, D, H, W) input, padded by ``pad_mode`` (``ops.MaxPool3D``'s op; its
    ``pad_list`` is ``pad``)."""
    check_channels_first("MaxPool3D", data_format, "NCDHW")
    kernel = pool_window("MaxPool3D", "kernel_size", kernel_size, 3)
    steps = pool_window("MaxPool3D", "strides", strides, 3)
    return _max_pool(x, kernel, steps, _mode_pads("MaxPool3D", x, kernel, steps, pad_mode, pad, ceil_mode, 3),
                     nan_rule=LAST)


@op(inputs="x", dtypes=FLOAT, primitive="AvgPool3D",
    primitive_attrs=("kernel_size", "strides", "pad_mode", "pad", "ceil_mode", "count_include_pad",
                     "divisor_override", "data_format"),
    samples=_pool3d_samples(True), reference=_pool3d_reference(True))
def avg_pool_3d(x, kernel_size=1, strides=1, pad_mode="valid", pad=0, ceil_mode=False, count_include_pad=True,
                divisor_override=0, data_format="NCDHW"):
    """3-d average pooling of an (N, C, D, H, W) input, padded by ``pad_mode`` (``ops.AvgPool3D``'s op): 'same'
    and 'pad' follow ``count_include_pad`` (whole kernel, or the input's elements only); ``divisor_override``
    replaces both."""
    check_channels_first("AvgPool3D", data_format, "NCDHW")
    kernel = pool_window("AvgPool3D", "kernel_size", kernel_size, 3)
    steps = pool_window("AvgPool3D", "strides", strides, 3)
    if pad_mode.upper() == "PAD":
        padding = _per_axis(pad, 3)
        pads = _mode_pads("AvgPool3D", x, kernel, steps, pad_mode, pad, ceil_mode, 3)
        return _avg_pool_kernel(x, kernel, steps, padding, pads, bool(ceil_mode), bool(count_include_pad),
                                divisor_override)
    pads = _mode_pads("AvgPool3D", x, kernel, steps, pad_mode, pad, ceil_mode, 3)
    if count_include_pad:  # MindSpore 2.10 divides 'same' windows by the whole kernel then
        return _avg_pool_kernel(x, kernel, steps, (0, 0, 0), pads, False, True, divisor_override)
    return _avg_pool_kernel(x, kernel, steps, (1, 1, 1), pads, True, False, divisor_override)

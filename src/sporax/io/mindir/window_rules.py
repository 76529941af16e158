"""The MindIR rules of JAX's windowed ops: convolutions (``Conv2D``; 1-D ones over a height of 1) and pooling
(``MaxPool``; a windowed sum as ``AvgPool`` times the window), NCHW as MindSpore 2.10 writes them.

Example:
    >>> sorted(WINDOW_RULES)
    ['conv_general_dilated', 'reduce_window_max', 'reduce_window_sum']
"""
import numpy as np

from sporax.io.mindir.graph_nodes import Aval, constant_of, is_static, node, pad, reshape, transpose


def _conv(builder, params, inputs, avals):
    x, weight = inputs
    numbers = params["dimension_numbers"]
    spatial = len(x.shape) - 2
    # Other layouts (a gradient's convolutions: batch and channels swapped) are transposed into NCHW/OIHW.
    x, weight = transpose(builder, x, numbers.lhs_spec), transpose(builder, weight, numbers.rhs_spec)
    out_layout = tuple(int(axis) for axis in np.argsort(numbers.out_spec))
    if params["batch_group_count"] != 1 or spatial not in (1, 2):
        raise ValueError("For 'export' to MINDIR: batch-grouped or 3-D convolutions cannot be written.")
    strides, padding, dilation = list(params["window_strides"]), list(params["padding"]), list(params["rhs_dilation"])
    if any(int(d) != 1 for d in params["lhs_dilation"]):
        # A transposed convolution (Conv1dTranspose/Conv2dTranspose): JAX spreads the input with zeros and
        # pads it (maybe negatively); written as that Pad, then a plain Conv2D over the result.
        x, padding = _spread_input(builder, x, padding, [int(d) for d in params["lhs_dilation"]]), [(0, 0)] * spatial
    out = avals[0]
    out = Aval(tuple(out.shape[axis] for axis in numbers.out_spec), out.dtype)
    if spatial == 1:  # as MindSpore's Conv1d: a Conv2D over a height of 1
        x = reshape(builder, x, x.shape[:2] + (1,) + x.shape[2:])
        weight = reshape(builder, weight, weight.shape[:2] + (1,) + weight.shape[2:])
        strides, padding, dilation = [1] + strides, [(0, 0)] + padding, [1] + dilation
    (top, bottom), (left, right) = padding
    pads = (int(top), int(bottom), int(left), int(right))
    groups = int(params["feature_group_count"])
    attributes = {"kernel_size": tuple(int(dim) for dim in weight.shape[2:]), "mode": 1,
                  "out_channel": int(weight.shape[0]), "pad": pads, "pad_mode": "pad", "format": "NCHW",
                  "pad_list": pads, "groups": groups, "group": groups,
                  "stride": (1, 1) + tuple(int(s) for s in strides),
                  "dilation": (1, 1) + tuple(int(d) for d in dilation),
                  "input_names": ["x", "w"], "output_names": ["output"]}
    shape2d = out.shape[:2] + (1,) + out.shape[2:] if spatial == 1 else out.shape
    result = node(builder, "Conv2D", [x, weight], Aval(shape2d, out.dtype), attributes)
    return transpose(builder, reshape(builder, result, out.shape), out_layout)


def _spread_input(builder, x, padding, lhs_dilation):
    """``x`` (N, C, spatial...) with ``d - 1`` zeros between neighbours and JAX's ``padding`` applied."""
    if not all(is_static(dim) for dim in x.shape):
        raise ValueError("For 'export' to MINDIR: a transposed convolution needs a static input shape.")
    config = [(0, 0, 0), (0, 0, 0)] + [(int(low), int(high), d - 1) for (low, high), d in zip(padding, lhs_dilation)]
    shape = tuple(x.shape[:2]) + tuple(int(n) + (int(n) - 1) * (d - 1) + int(low) + int(high)
                                       for n, (low, high), d in zip(x.shape[2:], padding, lhs_dilation))
    return pad(builder, x, constant_of(builder, np.asarray(0, x.dtype)), config, Aval(shape, x.dtype))


def _window(params, rank):
    dims, strides, padding = params["window_dimensions"], params["window_strides"], params["padding"]
    if len(dims) != rank or any(dim != 1 for dim in dims[:-2]) or any(s != 1 for s in strides[:-2]):
        raise ValueError("For 'export' to MINDIR: only pooling over the last two dimensions can be written.")
    if any(d != 1 for d in params.get("base_dilation", (1,)) or ()) or \
            any(d != 1 for d in params.get("window_dilation", (1,)) or ()):
        raise ValueError("For 'export' to MINDIR: dilated pooling cannot be written.")
    return tuple(int(d) for d in dims[-2:]), tuple(int(s) for s in strides[-2:]), padding


def _pooled_input(builder, value, padding, fill, rank):
    if all(low == 0 and high == 0 for low, high in padding):
        return value
    config = [(int(low), int(high), 0) for low, high in padding]
    aval = Aval(tuple(dim + low + high if is_static(dim) else dim for dim, (low, high, _) in zip(value.shape, config)),
                 value.dtype)
    return pad(builder, value, constant_of(builder, np.asarray(fill, value.dtype)), config, aval)


def _as_4d(builder, value):
    return reshape(builder, value, (1,) * (4 - len(value.shape)) + value.shape) if len(value.shape) < 4 else value


def _max_pool(builder, params, inputs, avals):
    value = inputs[0]
    kernel, strides, padding = _window(params, len(value.shape))
    value = _as_4d(builder, _pooled_input(builder, value, padding, -np.inf, len(value.shape)))
    attributes = {"pad_mode": "VALID", "kernel_size": (1, 1) + kernel, "strides": (1, 1) + strides,
                  "format": "NCHW", "input_names": ["x"], "output_names": ["output"]}
    pooled = node(builder, "MaxPool", [value], Aval(_as_4d_shape(avals[0].shape), value.dtype), attributes)
    return reshape(builder, pooled, avals[0].shape)


def _as_4d_shape(shape):
    return (1,) * (4 - len(shape)) + tuple(shape)


def _sum_pool(builder, params, inputs, avals):
    value = inputs[0]
    kernel, strides, padding = _window(params, len(value.shape))
    value = _as_4d(builder, _pooled_input(builder, value, padding, 0, len(value.shape)))
    pooled = node(builder, "AvgPool", [value, kernel, strides, 2, 0], Aval(_as_4d_shape(avals[0].shape), value.dtype))
    summed = node(builder, "Mul", [pooled, constant_of(builder, np.asarray(kernel[0] * kernel[1], value.dtype))],
                 pooled.aval)
    return reshape(builder, summed, avals[0].shape)


WINDOW_RULES = {"conv_general_dilated": _conv, "reduce_window_max": _max_pool, "reduce_window_sum": _sum_pool}

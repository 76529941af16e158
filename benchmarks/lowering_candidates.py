"""Candidate CPU convolution forms that ``lowering_step.py`` measures inside whole train steps.

None of them is adopted in ``sporax/ops/lowering``: each wins in isolation on XLA:CPU (jaxlib
0.10.2) and loses, or wins nothing, inside a train step, because XLA:CPU removes optimization
barriers before fusion and then fuses the elementwise parts of these forms into their consumers
(recomputing them once per consumer, or folding them into layout transposes). They are kept so
the measurement can be rerun on another jaxlib or machine. All take NCHW inputs, OIHW weights,
one group, explicit ``(low, high)`` pads; each is a ``conv(x, w, strides, pads)`` whose value
and gradients equal ``lax.conv_general_dilated``'s (checked by ``check()``).

- ``taps_forward``: one input channel as the sum over kernel taps of the weight times the
  shifted input (LeNet5 conv1, b256: 1.8 ms vs XLA's 14.6 ms in isolation; the step 0.45x,
  CPU time, because every pool view recomputes the 25-tap sum).
- ``columns_gemm``: im2col built with dynamic_update_slice (a stack of slices is 3x slower on
  XLA:CPU), the forward and the weight gradient as one matrix product each (the columns are
  saved for the backward pass); the input gradient is XLA's.
- ``gemm_input_gradient``: dx as ``W^T @ dy`` then col2im (each tap's slab padded into place and
  summed): 2x faster than XLA's transposed convolution in isolation (LeNet5 conv2, b256), 3-4x
  slower step (the 25-operand sum is fused with the next layer's pool/ReLU gradient and a
  layout transpose).
- ``batch_columns_weight_grad(_batched)``: dw from per-sample columns (N, C*kh*kw, Ho*Wo) built
  without moving the batch axis, contracted with dy over (n, hw) in one dot, or per sample then
  summed: 0.67x and 0.79x LeNet5 b256 step (CPU time). XLA's weight gradients (YNNPACK
  fusions) stay the largest items of that step (profile: conv1 dw, conv2 dx, conv2 dw).
- ``padded_input_gradient``: dx as a VALID stride-1 convolution of the explicitly padded dy:
  1.02x (XLA already lowers its transposed convolution this way).
- ``winograd_conv``: 3x3 stride-1 convolutions as Winograd F(2x2, 3x3) (input/filter/output
  transforms around 16 batched (O, C) x (C, tiles) products, 2.25x fewer multiplies),
  differentiated by JAX: ResNet-18 b32 step 0.81x with every 3x3 stride-1 convolution of >= 16
  input channels, 0.92x with >= 128 (``WINOGRAD_MIN_CHANNELS``): the transforms' memory traffic
  costs more than the saved multiplies on XLA:CPU.
"""
import functools
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

DIMENSIONS = ("NCHW", "OIHW", "NCHW")


def plain(x, w, strides, pads):
    return lax.conv_general_dilated(x, w, strides, pads, dimension_numbers=DIMENSIONS)


def _out_size(sizes, kernel, strides, pads):
    return tuple((n + low + high - k) // s + 1 for n, k, s, (low, high) in zip(sizes, kernel, strides, pads))


def _window(padded, row, col, out_size, strides):
    limit = padded.shape[:2] + (row + (out_size[0] - 1) * strides[0] + 1, col + (out_size[1] - 1) * strides[1] + 1)
    return lax.slice(padded, (0, 0, row, col), limit, (1, 1) + tuple(strides))


def _pad(array, pads):
    return lax.pad(array, np.zeros((), array.dtype), [(0, 0, 0), (0, 0, 0)] + [(low, high, 0) for low, high in pads])


def _with_backward(forward, backward):
    """A custom-VJP convolution from a forward (x, w, ...) -> (out, residuals) and a backward."""
    @functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3))
    def conv(x, w, strides, pads):
        return forward(x, w, strides, pads)[0]
    conv.defvjp(forward, backward)
    return conv


def _xla_backward(strides, pads, residuals, grad):
    x, w = residuals[:2]
    return jax.vjp(lambda a, k: plain(a, k, strides, pads), x, w)[1](grad)


def _taps_forward(x, w, strides, pads):
    if w.shape[1] != 1:
        return plain(x, w, strides, pads), (x, w)
    out_size = _out_size(x.shape[2:], w.shape[2:], strides, pads)
    padded = _pad(x, pads)
    total = None
    for i in range(w.shape[2]):
        for j in range(w.shape[3]):
            term = _window(padded, i, j, out_size, strides) * w[:, 0, i, j].reshape(1, -1, 1, 1)
            total = term if total is None else total + term
    return lax.optimization_barrier(total), (x, w)


def columns(x, kernel, strides, pads, out_size):
    """(C*kh*kw, N*Ho*Wo): row c*T + t holds kernel tap t of channel c at every output position."""
    batch, channels = x.shape[:2]
    padded = _pad(x.transpose(1, 0, 2, 3), pads)
    out = jnp.zeros((channels, kernel[0] * kernel[1], batch) + tuple(out_size), x.dtype)
    for tap in range(kernel[0] * kernel[1]):
        window = _window(padded, tap // kernel[1], tap % kernel[1], out_size, strides)
        out = lax.dynamic_update_slice(out, window[:, None], (0, tap, 0, 0, 0))
    return out.reshape(channels * kernel[0] * kernel[1], -1)


def _columns_forward(x, w, strides, pads):
    out_size = _out_size(x.shape[2:], w.shape[2:], strides, pads)
    cols = columns(x, w.shape[2:], strides, pads, out_size)
    out = (w.reshape(w.shape[0], -1) @ cols).reshape((w.shape[0], x.shape[0]) + out_size)
    return out.transpose(1, 0, 2, 3), (x, w, cols)


def _columns_backward(strides, pads, residuals, grad):
    x, w, cols = residuals
    weight_grad = (grad.transpose(1, 0, 2, 3).reshape(w.shape[0], -1) @ cols.T).reshape(w.shape)
    return jax.vjp(lambda a: plain(a, w, strides, pads), x)[1](grad)[0], weight_grad


def gemm_input_gradient(grad, w, input_shape, strides, pads):
    out_channels, channels, kh, kw = w.shape
    batch, _, height, width = input_shape
    out_h, out_w = grad.shape[2:]
    by_channel, matrix = lax.optimization_barrier((grad.transpose(1, 0, 2, 3).reshape(out_channels, -1),
                                                   w.reshape(out_channels, -1).T))
    slabs = lax.optimization_barrier(matrix @ by_channel).reshape(channels, kh * kw, batch, out_h, out_w)
    padded_h, padded_w = height + sum(pads[0]), width + sum(pads[1])
    total = None
    for tap in range(kh * kw):
        row, col = tap // kw, tap % kw
        high_h = padded_h - (row + (out_h - 1) * strides[0] + 1)
        high_w = padded_w - (col + (out_w - 1) * strides[1] + 1)
        placed = lax.pad(slabs[:, tap], np.zeros((), grad.dtype), [(0, 0, 0), (0, 0, 0), (row, high_h, strides[0] - 1),
                                                                   (col, high_w, strides[1] - 1)])
        total = placed if total is None else total + placed
    cropped = lax.slice(total, (0, 0, pads[0][0], pads[1][0]), (channels, batch, pads[0][0] + height,
                                                                 pads[1][0] + width))
    return lax.optimization_barrier(cropped.transpose(1, 0, 2, 3))


def _gemm_input_backward(strides, pads, residuals, grad):
    x, w = residuals
    weight_grad = jax.vjp(lambda k: plain(x, k, strides, pads), w)[1](grad)[0]
    return gemm_input_gradient(grad, w, x.shape, strides, pads), weight_grad


def _plain_forward(x, w, strides, pads):
    return plain(x, w, strides, pads), (x, w)


taps_forward = _with_backward(_taps_forward, _xla_backward)
columns_gemm = _with_backward(_columns_forward, _columns_backward)
gemm_input = _with_backward(_plain_forward, _gemm_input_backward)
CANDIDATES = {"taps forward (C=1)": taps_forward, "columns gemm fwd+wgrad (C<=3)": columns_gemm,
              "gemm input grad": gemm_input}
APPLIES = {"taps forward (C=1)": lambda w: w.shape[1] == 1, "columns gemm fwd+wgrad (C<=3)": lambda w: w.shape[1] <= 3,
           "gemm input grad": lambda w: True}


def check():
    """Every candidate's value and gradients against XLA's on a few strided/padded shapes."""
    rng = np.random.default_rng(0)
    for x_shape, w_shape, strides, pads in [((2, 1, 11, 9), (3, 1, 3, 3), (2, 1), ((1, 2), (0, 1))),
                                            ((2, 3, 8, 8), (4, 3, 3, 3), (1, 1), ((1, 1), (1, 1)))]:
        x = jnp.asarray(rng.standard_normal(x_shape), jnp.float32)
        w = jnp.asarray(rng.standard_normal(w_shape), jnp.float32)

        def grads(conv):
            return jax.value_and_grad(lambda a, k: jnp.sum(jnp.sin(conv(a, k, strides, pads))), (0, 1))(x, w)
        expected = jax.tree_util.tree_leaves(grads(plain))
        for name, conv in CANDIDATES.items():
            for got, want in zip(jax.tree_util.tree_leaves(grads(conv)), expected):
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=name)


def batch_columns(x, kernel, strides, pads, out_size):
    """(N, C*kh*kw, Ho*Wo) from an NCHW input without moving the batch axis."""
    batch, channels = x.shape[:2]
    padded = _pad(x, pads)
    out = jnp.zeros((batch, channels, kernel[0] * kernel[1]) + tuple(out_size), x.dtype)
    for tap in range(kernel[0] * kernel[1]):
        window = _window(padded, tap // kernel[1], tap % kernel[1], out_size, strides)
        out = lax.dynamic_update_slice(out, window[:, :, None], (0, 0, tap, 0, 0))
    return out.reshape(batch, channels * kernel[0] * kernel[1], -1)


def _batch_columns_backward(strides, pads, residuals, grad):
    x, w = residuals
    cols = batch_columns(x, w.shape[2:], strides, pads, grad.shape[2:])
    by_sample = grad.reshape(grad.shape[0], grad.shape[1], -1)
    weight_grad = lax.dot_general(by_sample, cols, (((0, 2), (0, 2)), ((), ()))).reshape(w.shape)
    return jax.vjp(lambda a: plain(a, w, strides, pads), x)[1](grad)[0], weight_grad


def _batch_columns_backward_batched(strides, pads, residuals, grad):
    x, w = residuals
    cols = batch_columns(x, w.shape[2:], strides, pads, grad.shape[2:])
    by_sample = grad.reshape(grad.shape[0], grad.shape[1], -1)
    weight_grad = lax.dot_general(by_sample, cols, (((2,), (2,)), ((0,), (0,)))).sum(0).reshape(w.shape)
    return jax.vjp(lambda a: plain(a, w, strides, pads), x)[1](grad)[0], weight_grad


batch_columns_weight_grad = _with_backward(_plain_forward, _batch_columns_backward)
batch_columns_weight_grad_batched = _with_backward(_plain_forward, _batch_columns_backward_batched)
CANDIDATES["wgrad: (n,hw)-contracted columns"] = batch_columns_weight_grad
CANDIDATES["wgrad: per-sample columns, summed"] = batch_columns_weight_grad_batched
APPLIES["wgrad: (n,hw)-contracted columns"] = APPLIES["wgrad: per-sample columns, summed"] = lambda w: True


def padded_input_gradient(grad, w, input_shape, strides, pads):
    """dx as a VALID stride-1 convolution of dy, explicitly padded (interior padding for the
    strides), with the flipped, transposed kernel: the Eigen convolution without padding."""
    kh, kw = w.shape[2:]
    height, width = input_shape[2:]
    configs = []  # (low, high, interior) per axis; high makes the VALID output the input's size
    for k, s, (low, _), size, n in zip((kh, kw), strides, pads, (height, width), grad.shape[2:]):
        dilated = (n - 1) * s + 1
        configs.append((k - 1 - low, size + low - dilated, s - 1))
    padded = lax.pad(grad, np.zeros((), grad.dtype), [(0, 0, 0), (0, 0, 0)] + configs)
    kernel = jnp.flip(w, (2, 3)).transpose(1, 0, 2, 3)
    return lax.conv_general_dilated(padded, kernel, (1, 1), "VALID", dimension_numbers=DIMENSIONS)


def _padded_input_backward(strides, pads, residuals, grad):
    x, w = residuals
    weight_grad = jax.vjp(lambda k: plain(x, k, strides, pads), w)[1](grad)[0]
    return padded_input_gradient(grad, w, x.shape, strides, pads), weight_grad


CANDIDATES["input grad: VALID conv of padded dy"] = _with_backward(_plain_forward, _padded_input_backward)
APPLIES["input grad: VALID conv of padded dy"] = lambda w: True


_BT = np.array([[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]], np.float32)
_G = np.array([[1, 0, 0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0, 0, 1]], np.float32)
_AT = np.array([[1, 1, 1, 0], [0, 1, -1, -1]], np.float32)


def _combine(matrix, parts):
    """[sum_j matrix[a, j] * parts[j] for a]: a small constant transform, zeros skipped."""
    out = []
    for row in matrix:
        total = None
        for weight, part in zip(row, parts):
            if weight == 0:
                continue
            term = part if weight == 1 else (-part if weight == -1 else part * weight)
            total = term if total is None else total + term
        out.append(total)
    return out


def winograd_conv(x, w, strides, pads):
    """3x3 stride-1 convolution as Winograd F(2x2, 3x3): 16 (O, C) x (C, tiles) products.

    Differentiated by JAX through the transforms (linear) and the batched product.
    """
    if w.shape[2:] != (3, 3) or tuple(strides) != (1, 1):
        return plain(x, w, strides, pads)
    batch, channels, height, width = x.shape
    out_h, out_w = height + sum(pads[0]) - 2, width + sum(pads[1]) - 2
    tiles_h, tiles_w = -(-out_h // 2), -(-out_w // 2)
    padded = lax.pad(x, np.zeros((), x.dtype), [(0, 0, 0), (0, 0, 0),
                                                 (pads[0][0], 2 * tiles_h + 2 - height - pads[0][0], 0),
                                                 (pads[1][0], 2 * tiles_w + 2 - width - pads[1][0], 0)])
    taps = [[lax.slice(padded, (0, 0, i, j), (batch, channels, i + 2 * tiles_h - 1, j + 2 * tiles_w - 1),
                       (1, 1, 2, 2)) for j in range(4)] for i in range(4)]
    rows = [_combine(_BT, [taps[i][j] for i in range(4)]) for j in range(4)]  # rows[j][a]
    transformed = [value for a in range(4) for value in _combine(_BT, [rows[j][a] for j in range(4)])]
    inputs = jnp.stack(transformed).transpose(0, 2, 1, 3, 4).reshape(16, channels, -1)
    kernel = jnp.einsum("ai,oicj,bj->aboc", jnp.asarray(_G), w.transpose(0, 2, 1, 3), jnp.asarray(_G))
    products = lax.dot_general(kernel.reshape(16, w.shape[0], channels), inputs, (((2,), (1,)), ((0,), (0,))))
    products = products.reshape(4, 4, w.shape[0], batch, tiles_h, tiles_w)
    cols = [_combine(_AT, [products[a, b] for a in range(4)]) for b in range(4)]  # cols[b][i]
    outputs = [[_combine(_AT, [cols[b][i] for b in range(4)])[j] for j in range(2)] for i in range(2)]
    tiled = jnp.stack([jnp.stack(row) for row in outputs])  # (2, 2, O, N, th, tw)
    full = tiled.transpose(3, 2, 4, 0, 5, 1).reshape(batch, w.shape[0], 2 * tiles_h, 2 * tiles_w)
    return full[:, :, :out_h, :out_w]


CANDIDATES["winograd F(2,3) (3x3 stride 1)"] = winograd_conv
APPLIES["winograd F(2,3) (3x3 stride 1)"] = lambda w: w.shape[2:] == (3, 3) and w.shape[1] >= int(os.environ.get("WINOGRAD_MIN_CHANNELS", "16"))


def _space_to_depth_with(weight_gradient):
    """``sporax.ops.lowering.conv_cpu``'s blocked convolution with another weight-gradient form."""
    from jax.custom_derivatives import SymbolicZero

    from sporax.ops.lowering import conv_cpu

    @functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
    def blocked(x, w, pads):
        return conv_cpu._blocked(x, w, pads)

    def rule(pads, primals, tangents):
        (x, w), (x_dot, w_dot) = primals, tangents
        terms = [] if isinstance(x_dot, SymbolicZero) else [conv_cpu._blocked(x_dot, w, pads)]
        if not isinstance(w_dot, SymbolicZero):
            terms.append(weight_gradient(x, w_dot, pads))
        return conv_cpu._blocked(x, w, pads), sum(terms[1:], terms[0]) if terms else jnp.zeros(())
    blocked.defjvp(rule, symbolic_zeros=True)

    def conv(x, w, strides, pads):
        if not conv_cpu.applies(x, w, strides, pads, None, 1, None):
            return plain(x, w, strides, pads)
        return blocked(x, w, tuple(tuple(p) for p in pads))
    return conv


def conv_cpu_blocked(x, w, pads):
    from sporax.ops.lowering import conv_cpu
    return conv_cpu._blocked(x, w, pads)


def _batch_halves(x, w_dot, pads):
    half = x.shape[0] // 2
    return jnp.concatenate([plain(x[:half], w_dot, (1, 1), pads), plain(x[half:], w_dot, (1, 1), pads)], 0)


# Adopted with XLA's weight gradient (sporax/ops/lowering/conv_cpu.py). Rejected variants, CPU ms
# per hand-written LeNet5 step (2 threads, shared machine, best of 7 interleaved rounds, 2026-11-27):
# - blocked weight gradient as well: b256 19.9 vs 16.2 ms (plain 24.5), b32 2.10 vs 1.74 ms (plain
#   2.90); only for 1-channel inputs: 19.6 / 2.07 ms. In isolation conv1's blocked weight gradient
#   is faster (b256, one thread, 2.1 vs 3.4 ms), in the step it costs more than it saves.
# - XLA's weight gradient split over two batch halves (two independent convolutions, to use both
#   cores where the 25 x 6 product cannot): no clear change (b32 1.80 vs 1.87 ms wall, b256 lost
#   under load); not adopted.
CANDIDATES["space-to-depth, blocked weight grad (C<=8)"] = _space_to_depth_with(
    lambda x, w_dot, pads: conv_cpu_blocked(x, w_dot, pads))
CANDIDATES["space-to-depth, weight grad over batch halves (C<=8)"] = _space_to_depth_with(_batch_halves)
APPLIES["space-to-depth, blocked weight grad (C<=8)"] = lambda w: True
APPLIES["space-to-depth, weight grad over batch halves (C<=8)"] = lambda w: True

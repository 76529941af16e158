"""An LSTM layer's whole time loop as one call into oneDNN's fused CPU RNN kernel (XLA FFI).

Contract: ``lstm(inputs, h0, c0, weight_ih, weight_hh, bias)`` equals the plain ``lax.scan`` of
``sporax.nn.layer.rnn`` over unmasked steps: time-major float32 ``inputs`` (T, B, I), gates in
MindSpore's order (input, forget, cell, output), ``bias = b_ih + b_hh``; it returns
``(outputs (T, B, H), h_T, c_T)``. Values and reverse-mode derivatives agree within float32
rounding (oneDNN sums in its own order and has its own exp/tanh); second-order reverse derivatives
come from ``lstm_cpu``'s JAX backward pass. Forward mode is not defined (``jax.custom_vjp``):
sporax's forward-mode APIs trace under ``plain_lowering()``. ``applies(mode, inputs)`` says whether
a layer takes this form: LSTM, float32, and ``available()``, i.e. Linux on x86-64 with the
``onednn-cpu-gomp`` and ``onednn-devel-cpu-gomp`` wheels (oneDNN 3.x, a dependency of sporax there),
a C++ compiler and jaxlib's FFI headers. Anything missing (or ``SPORAX_ONEDNN=off``) leaves the
layer on ``lstm_cpu``'s XLA loop; ``unavailable_reason()`` says why.

Algorithm: ``lstm_onednn.cc`` (built and loaded by ``onednn.library()``) defines two FFI handlers:
oneDNN's ``forward_training`` primitive, which also writes the workspace the backward pass reads,
and its ``backward`` primitive, which gives the input, state, weight and bias gradients at once.
Primitives are created once per shape; the OpenMP settings are ``onednn``'s.

Measured (sporax GRAPH train step of ``benchmarks/suite_models.py``'s LSTM tagger, b32, T=64,
embedding 128, hidden 256; 2-core AMD EPYC, quiet machine, runs alternated): 25.0-26.1 ms with
``lstm_cpu``'s loop, 14.5-15.1 ms here. Without the spin settings: 24.7-28.7 ms.
"""
import jax
import jax.numpy as jnp

from sporax.ops.lowering import lstm_cpu, onednn

_FORWARD, _BACKWARD = "sporax_onednn_lstm_forward", "sporax_onednn_lstm_backward"


def available():
    """Whether the oneDNN kernel can run here (built and loaded on the first call)."""
    return onednn.library() is not None


def unavailable_reason():
    """Why ``available()`` is false (``None`` when it is true)."""
    return onednn.unavailable_reason()


def applies(mode, inputs):
    """Whether the loop of a ``mode`` layer over time-major ``inputs`` takes this form."""
    return (mode == "LSTM" and inputs.ndim == 3 and inputs.dtype == jnp.float32 and inputs.size > 0
            and available())


def _workspace_bytes(inputs, hidden):
    """The forward call's workspace for these sizes, 64 bytes more for aligning it."""
    return onednn.library().SporaxLstmWorkspaceBytes(*inputs.shape, hidden) + 64


def _forward(inputs, h0, c0, weight_ih, weight_hh, bias):
    steps, batch, _ = inputs.shape
    hidden = h0.shape[-1]
    workspace = _workspace_bytes(inputs, hidden)
    state = jax.ShapeDtypeStruct((batch, hidden), jnp.float32)
    results = (jax.ShapeDtypeStruct((steps, batch, hidden), jnp.float32), state, state,
               jax.ShapeDtypeStruct((workspace,), jnp.uint8))
    return jax.ffi.ffi_call(_FORWARD, results, vmap_method="sequential")(inputs, h0, c0, weight_ih, weight_hh, bias)


@jax.custom_vjp
def lstm(inputs, h0, c0, weight_ih, weight_hh, bias):
    """The LSTM loop over time-major ``inputs`` in one oneDNN call; returns ``(outputs, h_T, c_T)``."""
    outputs, h, c, _ = _forward_call(inputs, h0, c0, weight_ih, weight_hh, bias)
    return outputs, h, c


def _lstm_forward(*primals):
    outputs, h, c, workspace = _forward_call(*primals)
    return (outputs, h, c), (primals, (outputs, h, c), workspace)


def _lstm_backward(saved, cotangents):
    primals, results, workspace = saved
    return _gradients(primals, tuple(cotangents), results, workspace)


lstm.defvjp(_lstm_forward, _lstm_backward)


def _reference(inputs, h0, c0, weight_ih, weight_hh, bias):
    """The same function in JAX (``lstm_cpu``'s loop), for derivatives of the gradients."""
    return lstm_cpu.lstm_recurrence(inputs @ weight_ih.T + bias, h0, c0, weight_hh, jnp.zeros_like(bias))


def _reference_gradients(primals, cotangents):
    return jax.vjp(_reference, *primals)[1](cotangents)


# Second-order derivatives differentiate ``_lstm_forward`` and ``_lstm_backward`` themselves: both
# oneDNN calls take their derivatives from the same function written in JAX (``_reference``).
def _forward_reference(*primals):
    outputs, h, c = _reference(*primals)
    return outputs, h, c, jnp.zeros((_workspace_bytes(primals[0], h.shape[-1]),), jnp.uint8)


def _gradients_kernel(primals, cotangents, results, workspace):
    result_types = tuple(jax.ShapeDtypeStruct(value.shape, jnp.float32) for value in primals)
    return tuple(jax.ffi.ffi_call(_BACKWARD, result_types, vmap_method="sequential")(
        *primals, *results, workspace, *cotangents))


_forward_call = onednn.with_reference_derivatives(_forward, _forward_reference)
# results and workspace are functions of primals, whose whole effect the reference carries
_gradients = onednn.with_reference_derivatives(
    _gradients_kernel, lambda primals, cotangents, results, workspace: _reference_gradients(primals, cotangents))

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

Algorithm: ``lstm_onednn.cc`` (built and loaded by ``onednn.load``) defines two FFI handlers:
oneDNN's ``forward_training`` primitive, which also writes the workspace the backward pass reads,
and its ``backward`` primitive, which gives the input, state, weight and bias gradients at once.
Primitives are created once per shape; the OpenMP settings are ``onednn``'s.

Measured (sporax GRAPH train step of ``benchmarks/suite_models.py``'s LSTM tagger, b32, T=64,
embedding 128, hidden 256; 2-core AMD EPYC, quiet machine, runs alternated): 25.0-26.1 ms with
``lstm_cpu``'s loop, 14.5-15.1 ms here. Without the spin settings: 24.7-28.7 ms.
"""
import ctypes

import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.lowering import lstm_cpu, onednn

_FORWARD, _BACKWARD = "sporax_onednn_lstm_forward", "sporax_onednn_lstm_backward"
_HANDLERS = ((_FORWARD, "SporaxLstmForward"), (_BACKWARD, "SporaxLstmBackward"))


def _library():
    library, _ = onednn.load("lstm_onednn.cc", _HANDLERS)
    if library is not None:
        library.SporaxLstmWorkspaceBytes.restype = ctypes.c_int64
        library.SporaxLstmWorkspaceBytes.argtypes = [ctypes.c_int64] * 4
    return library


def available():
    """Whether the oneDNN kernel can run here (built and loaded on the first call)."""
    return not onednn.switched_off() and _library() is not None


def unavailable_reason():
    """Why ``available()`` is false (``None`` when it is true)."""
    return "SPORAX_ONEDNN switches it off" if onednn.switched_off() else onednn.load("lstm_onednn.cc", _HANDLERS)[1]


def applies(mode, inputs):
    """Whether the loop of a ``mode`` layer over time-major ``inputs`` takes this form."""
    return (mode == "LSTM" and inputs.ndim == 3 and inputs.dtype == jnp.float32 and inputs.size > 0
            and available())


def _forward(inputs, h0, c0, weight_ih, weight_hh, bias):
    steps, batch, features = inputs.shape
    hidden = h0.shape[-1]
    workspace = _library().SporaxLstmWorkspaceBytes(steps, batch, features, hidden) + 64
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


# Second-order derivatives differentiate ``_lstm_forward`` and ``_lstm_backward`` themselves: both
# oneDNN calls get derivatives from the same function written in JAX (``_reference``).
@jax.custom_vjp
def _forward_call(*primals):
    return _forward(*primals)


def _forward_call_forward(*primals):
    return _forward(*primals), primals


def _forward_call_backward(primals, cotangents):
    return jax.vjp(_reference, *primals)[1](tuple(cotangents[:3]))


_forward_call.defvjp(_forward_call_forward, _forward_call_backward)


def _reference(inputs, h0, c0, weight_ih, weight_hh, bias):
    """The same function in JAX (``lstm_cpu``'s loop), for derivatives of the gradients."""
    return lstm_cpu.lstm_recurrence(inputs @ weight_ih.T + bias, h0, c0, weight_hh, jnp.zeros_like(bias))


def _reference_gradients(primals, cotangents):
    return jax.vjp(_reference, *primals)[1](cotangents)


@jax.custom_vjp
def _gradients(primals, cotangents, results, workspace):
    """The gradients of ``lstm`` from oneDNN's backward primitive (``results``, ``workspace``: the
    forward call's); differentiated again through ``_reference``."""
    result_types = tuple(jax.ShapeDtypeStruct(value.shape, jnp.float32) for value in primals)
    return tuple(jax.ffi.ffi_call(_BACKWARD, result_types, vmap_method="sequential")(
        *primals, *results, workspace, *cotangents))


def _gradients_forward(primals, cotangents, results, workspace):
    return _gradients(primals, cotangents, results, workspace), (primals, cotangents, results, workspace)


def _gradients_backward(saved, outer):
    primals, cotangents, results, workspace = saved
    d_primals, d_cotangents = jax.vjp(_reference_gradients, primals, cotangents)[1](tuple(outer))
    # results and workspace are functions of primals, whose whole effect the reference carries.
    return (d_primals, d_cotangents, tuple(jnp.zeros_like(value) for value in results),
            np.zeros(workspace.shape, jax.dtypes.float0))


_gradients.defvjp(_gradients_forward, _gradients_backward)

"""The GRU sequence of MindSpore's ``DynamicGRUV2`` Primitive as an op-table entry (Primitive-only: MindSpore has no
functional name; the class is ``sporax.ops.operations.recurrent_ops.DynamicGRUV2``).

Algorithm: ``jax.lax.scan`` over the time axis; each step computes the reset, update and candidate gates from one
matmul of the input and one of the hidden state.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.functional.recurrent import dynamic_gru_v2
    >>> x, w_in, w_hid = (Tensor(np.zeros(shape, np.float32)) for shape in ((2, 1, 3), (3, 6), (2, 6)))
    >>> dynamic_gru_v2(x, w_in, w_hid, None, None, Tensor(np.ones((1, 2), np.float32)))[0].asnumpy().tolist()
    [[[0.5, 0.5]], [[0.25, 0.25]]]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.op_table import FLOAT, Sample, op


def _samples(dtype):
    generator = np.random.default_rng(0)
    x, w_in, w_hid = (generator.uniform(-1, 1, shape).astype(dtype) for shape in ((3, 2, 4), (4, 6), (2, 6)))
    b_in, b_hid, h0 = (generator.uniform(-1, 1, shape).astype(dtype) for shape in ((6,), (6,), (2, 2)))
    return [Sample((x, w_in, w_hid, b_in, b_hid, h0)),
            Sample((x.swapaxes(0, 1), w_in, w_hid, b_in, b_hid, h0),
                   {"time_major": False, "gate_order": "zrh", "reset_after": False})]


def _sigmoid(value):
    return 1 / (1 + np.exp(-value))


def _reference(x, weight_input, weight_hidden, bias_input, bias_hidden, init_h, time_major=True, gate_order="rzh",
               reset_after=True):
    x = np.asarray(x, np.float64)
    x = x if time_major else x.swapaxes(0, 1)
    hidden = weight_hidden.shape[0]
    b_in = np.zeros(3 * hidden) if bias_input is None else np.asarray(bias_input, np.float64)
    b_hid = np.zeros(3 * hidden) if bias_hidden is None else np.asarray(bias_hidden, np.float64)

    def gates(values):
        first, second, candidate = values[..., :hidden], values[..., hidden:2 * hidden], values[..., 2 * hidden:]
        return (first, second, candidate) if gate_order == "rzh" else (second, first, candidate)

    h = np.asarray(init_h, np.float64).reshape(-1, hidden)
    records = []
    for x_t in x:
        r_x, z_x, n_x = gates(x_t @ weight_input + b_in)
        r_h, z_h, n_h = gates(h @ weight_hidden + b_hid)
        reset, update = _sigmoid(r_x + r_h), _sigmoid(z_x + z_h)
        if not reset_after:
            n_h = gates((reset * h) @ weight_hidden + b_hid)[2]
            new = np.tanh(n_x + n_h)
        else:
            new = np.tanh(n_x + reset * n_h)
        h = (1 - update) * new + update * h
        records.append((h, h, update, reset, new, n_h))
    outputs = tuple(np.stack(values) for values in zip(*records))
    return outputs if time_major else tuple(value.swapaxes(0, 1) for value in outputs)


@op(inputs=("x", "weight_input", "weight_hidden", "bias_input", "bias_hidden", "init_h"), dtypes=FLOAT,
    nullable=("bias_input", "bias_hidden"), grad_check=False, samples=_samples, reference=_reference)
def dynamic_gru_v2(x, weight_input, weight_hidden, bias_input, bias_hidden, init_h, time_major=True, gate_order="rzh",
                   reset_after=True):
    """``DynamicGRUV2``: ``(y, output_h, update, reset, new, hidden_new)`` of a GRU over ``x`` ((num_step, batch,
    input), or (batch, num_step, input) and so the outputs when not ``time_major``); ``gate_order`` 'rzh' or 'zrh';
    with ``reset_after`` the reset gate scales ``h W_hn + b_hn``, otherwise ``h`` before its matmul."""
    inputs = x if time_major or x.ndim != 3 else jnp.swapaxes(x, 0, 1)  # time-major
    hidden = init_h.shape[-1]
    if inputs.ndim != 3 or weight_input.shape != (inputs.shape[-1], 3 * hidden) \
            or weight_hidden.shape != (hidden, 3 * hidden):
        raise ValueError(f"For 'DynamicGRUV2', expected x (num_step, batch, input), weight_input (input, 3 * hidden) "
                         f"and weight_hidden (hidden, 3 * hidden), but got shapes {tuple(x.shape)}, "
                         f"{tuple(weight_input.shape)} and {tuple(weight_hidden.shape)}.")
    dtype = inputs.dtype
    b_in = jnp.zeros(3 * hidden, dtype) if bias_input is None else bias_input.astype(dtype)
    hidden_bias = jnp.zeros(3 * hidden, dtype) if bias_hidden is None else bias_hidden.astype(dtype)
    input_weight, hidden_weight = weight_input.astype(dtype), weight_hidden.astype(dtype)

    def split(gates):
        first, second, candidate = jnp.split(gates, 3, axis=-1)
        return (first, second, candidate) if gate_order == "rzh" else (second, first, candidate)

    def step(h, x_t):
        r_x, z_x, n_x = split(x_t @ input_weight + b_in)
        r_h, z_h, n_h = split(h @ hidden_weight + hidden_bias)
        reset, update = jax.nn.sigmoid(r_x + r_h), jax.nn.sigmoid(z_x + z_h)
        if reset_after:
            new = jnp.tanh(n_x + reset * n_h)
        else:
            # The reset gate scales h before its matmul: n = tanh(x W_n + b_in + (r * h) W_hn + b_hn).
            n_h = split((reset * h) @ hidden_weight + hidden_bias)[2]
            new = jnp.tanh(n_x + n_h)
        h = (1 - update) * new + update * h
        return h, (h, update, reset, new, n_h)

    _, (hs, update, reset, new, hidden_new) = jax.lax.scan(step, init_h.reshape(init_h.shape[-2:]).astype(dtype),
                                                           inputs)
    outputs = (hs, hs, update, reset, new, hidden_new)
    return outputs if time_major else tuple(jnp.swapaxes(value, 0, 1) for value in outputs)

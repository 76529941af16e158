"""The GRU and LSTM sequences of MindSpore's ``DynamicGRUV2``/``LSTM`` Primitives as op-table entries
(Primitive-only: MindSpore has no functional names; the classes are in ``sporax.ops.operations.recurrent_ops``).

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


# --- ``LSTM``: the fused layer stack in MindSpore's CPU weight layout ----------------------------------------------
def lstm_weight_layout(input_size, hidden_size, num_layers, has_bias, bidirectional, proj_size=0):
    """(name, layer, direction, shape) of every block of ``LSTM``'s flattened ``w``, in order: every ``w_ih``
    (4H, in_l), every ``w_hh`` (4H, R), every ``w_hr`` (P, H) with ``proj_size``, every bias (4H) with
    ``has_bias``; layers outer, directions inner."""
    directions = 2 if bidirectional else 1
    recurrent = proj_size or hidden_size
    pairs = [(layer, direction) for layer in range(num_layers) for direction in range(directions)]
    blocks = [("ih", layer, direction, (4 * hidden_size, input_size if layer == 0 else directions * recurrent))
              for layer, direction in pairs]
    blocks += [("hh", layer, direction, (4 * hidden_size, recurrent)) for layer, direction in pairs]
    if proj_size:
        blocks += [("hr", layer, direction, (proj_size, hidden_size)) for layer, direction in pairs]
    if has_bias:
        blocks += [("b", layer, direction, (4 * hidden_size,)) for layer, direction in pairs]
    return blocks


def _lstm_samples(dtype):
    generator = np.random.default_rng(2)
    settings = {"input_size": 3, "hidden_size": 2, "num_layers": 2, "has_bias": True, "bidirectional": True}
    size = sum(int(np.prod(shape)) for *_, shape in lstm_weight_layout(**settings))
    arrays = (generator.uniform(-1, 1, shape).astype(dtype) for shape in ((3, 2, 3), (4, 2, 2), (4, 2, 2),
                                                                           (size, 1, 1)))
    return [Sample(tuple(arrays), settings)]


def _lstm_reference(input, h, c, w, input_size, hidden_size, num_layers, has_bias, bidirectional, proj_size=0):
    directions = 2 if bidirectional else 1
    weights, offset, params = np.asarray(w, np.float64).reshape(-1), 0, {}
    for name, layer, direction, shape in lstm_weight_layout(input_size, hidden_size, num_layers, has_bias,
                                                            bidirectional, proj_size):
        params[name, layer, direction] = weights[offset:offset + int(np.prod(shape))].reshape(shape)
        offset += int(np.prod(shape))
    layer_input, last_h, last_c = np.asarray(input, np.float64), [], []
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            hidden, cell = np.asarray(h, np.float64)[index], np.asarray(c, np.float64)[index]
            steps = range(len(layer_input)) if direction == 0 else range(len(layer_input) - 1, -1, -1)
            out = [None] * len(layer_input)
            for t in steps:
                z = layer_input[t] @ params["ih", layer, direction].T + hidden @ params["hh", layer, direction].T \
                    + params.get(("b", layer, direction), 0.0)
                i, f, g, o = np.split(z, 4, axis=-1)
                cell = _sigmoid(f) * cell + _sigmoid(i) * np.tanh(g)
                hidden = _sigmoid(o) * np.tanh(cell)
                if proj_size:
                    hidden = hidden @ params["hr", layer, direction].T
                out[t] = hidden
            outputs.append(np.stack(out))
            last_h.append(hidden)
            last_c.append(cell)
        layer_input = np.concatenate(outputs, axis=-1)
    workspace = np.zeros((1, 1))
    return layer_input, np.stack(last_h), np.stack(last_c), workspace, workspace


def _lstm_layer_step(w_ih, w_hh, w_hr, bias):
    def step(carry, row):
        hidden, cell = carry
        z = row @ w_ih.T + hidden @ w_hh.T + bias
        i, f, g, o = jnp.split(z, 4, axis=-1)
        cell = jax.nn.sigmoid(f) * cell + jax.nn.sigmoid(i) * jnp.tanh(g)
        hidden = jax.nn.sigmoid(o) * jnp.tanh(cell)
        if w_hr is not None:
            hidden = hidden @ w_hr.T
        return (hidden, cell), hidden

    return step


@op(inputs=("input", "h", "c", "w"), dtypes=FLOAT, grad_check=False, samples=_lstm_samples, reference=_lstm_reference)
def lstm(input, h, c, w, input_size, hidden_size, num_layers, has_bias, bidirectional, proj_size=0):  # noqa: A002
    """``LSTM``: ``(output, h_n, c_n, reserve, state)`` of the fused LSTM layer stack over ``input`` (seq, batch,
    input_size) with the flattened weights ``w`` (``lstm_weight_layout``); gates i, f, g, o; the backward direction
    runs the sequence reversed; ``reserve``/``state`` are 1x1 zeros (the backend's workspace in MindSpore)."""
    directions = 2 if bidirectional else 1
    states = num_layers * directions
    recurrent = proj_size or hidden_size
    blocks = lstm_weight_layout(input_size, hidden_size, num_layers, has_bias, bidirectional, proj_size)
    weights = w.reshape(-1)
    needed = sum(int(np.prod(shape)) for *_, shape in blocks)
    if input.ndim != 3 or input.shape[2] != input_size or h.shape != (states, input.shape[1], recurrent) \
            or c.shape != (states, input.shape[1], hidden_size) or weights.shape[0] < needed:
        raise ValueError(f"For 'LSTM', 'input' must be (seq, batch, {input_size}), 'h' ({states}, batch, "
                         f"{recurrent}), 'c' ({states}, batch, {hidden_size}) and 'w' hold at least {needed} "
                         f"weights, but got {tuple(input.shape)}, {tuple(h.shape)}, {tuple(c.shape)} "
                         f"and {weights.shape[0]}.")
    params, offset = {}, 0
    for name, layer, direction, shape in blocks:
        size = int(np.prod(shape))
        params[name, layer, direction] = weights[offset:offset + size].reshape(shape)
        offset += size
    zero_bias = jnp.zeros((4 * hidden_size,), input.dtype)
    layer_input, last_h, last_c = input, [], []
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            step = _lstm_layer_step(params["ih", layer, direction], params["hh", layer, direction],
                                    params.get(("hr", layer, direction)), params.get(("b", layer, direction), zero_bias))
            sequence = layer_input if direction == 0 else layer_input[::-1]
            (hidden, cell), out = jax.lax.scan(step, (h[index], c[index]), sequence)
            outputs.append(out if direction == 0 else out[::-1])
            last_h.append(hidden)
            last_c.append(cell)
        layer_input = outputs[0] if directions == 1 else jnp.concatenate(outputs, axis=-1)
    workspace = jnp.zeros((1, 1), input.dtype)
    return layer_input, jnp.stack(last_h), jnp.stack(last_c), workspace, workspace

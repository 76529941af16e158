"""Recurrent layers: ``RNN``, ``LSTM``, ``GRU`` (multi-layer, bidirectional) and their single-step cells.

Gates follow MindSpore (and PyTorch): LSTM (input, forget, cell, output), GRU (reset, update,
new) with the reset gate applied to the projected hidden state. Parameters are named
``weight_ih_l{k}[_reverse]``, ``weight_hh_l{k}``, ``bias_ih_l{k}``, ``bias_hh_l{k}`` as in
MindSpore checkpoints. The time loop is one ``lax.scan`` per layer and direction; the input
projections of all steps are computed before the loop. ``seq_length`` masks padded steps: their
outputs are zero and the final state is the one at each sequence's last real step. Without
``seq_length`` every step is real and the loop runs unmasked (same values, no per-step select).
"""
import functools
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.core import dtype as mstype
from sporax.core.initializer import Uniform
from sporax.core.parameter import ParameterTuple
from sporax.core.random_state import next_key
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.nn.layer.basic import Dropout, _check_positive_int, make_parameter
from sporax.ops import layer_forms

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _step(mode, projected, state, weight_hh, bias_hh):
    """One time step: ``projected`` is x @ W_ih.T + b_ih; returns the new state."""
    hidden = state[0] if mode == "LSTM" else state
    recurrent = hidden @ weight_hh.T
    if bias_hh is not None:
        recurrent = recurrent + bias_hh
    if mode == "RNN_TANH":
        return jnp.tanh(projected + recurrent)
    if mode == "RNN_RELU":
        return jnp.maximum(projected + recurrent, 0)
    if mode == "LSTM":
        gate_in, gate_forget, gate_cell, gate_out = jnp.split(projected + recurrent, 4, axis=-1)
        cell = jax.nn.sigmoid(gate_forget) * state[1] + jax.nn.sigmoid(gate_in) * jnp.tanh(gate_cell)
        return jax.nn.sigmoid(gate_out) * jnp.tanh(cell), cell
    in_reset, in_update, in_new = jnp.split(projected, 3, axis=-1)
    rec_reset, rec_update, rec_new = jnp.split(recurrent, 3, axis=-1)
    reset = jax.nn.sigmoid(in_reset + rec_reset)
    update = jax.nn.sigmoid(in_update + rec_update)
    new = jnp.tanh(in_new + reset * rec_new)
    return (1 - update) * new + update * hidden


def _run_direction(mode, inputs, state, weights, lengths, reverse, fast=False):
    """Run one layer in one direction over time-major ``inputs`` (T, B, F)."""
    weight_ih, weight_hh, bias_ih, bias_hh = weights
    steps = inputs.shape[0]
    if lengths is None:
        # Every sequence fills all steps: no masking, and reversal is a plain flip (the same
        # values as the masked loop, without a select per step in the forward and backward loops).
        return _run_full(mode, inputs, state, weights, reverse, fast)
    if reverse:
        # Reverse each sequence within its own length, so padding stays at the end.
        time = jnp.arange(steps)[:, None]
        order = jnp.where(time < lengths[None, :], lengths[None, :] - 1 - time, time)
        inputs = jnp.take_along_axis(inputs, order[:, :, None], axis=0)
    projected = inputs @ weight_ih.T
    if bias_ih is not None:
        projected = projected + bias_ih
    valid = (jnp.arange(steps)[:, None] < lengths[None, :])[:, :, None]

    def body(carry, item):
        step_input, step_valid = item
        new = _step(mode, step_input, carry, weight_hh, bias_hh)
        new = jax.tree_util.tree_map(lambda n, o: jnp.where(step_valid, n, o), new, carry)
        hidden = new[0] if mode == "LSTM" else new
        return new, jnp.where(step_valid, hidden, jnp.zeros_like(hidden))

    final, outputs = lax.scan(body, state, (projected, valid))
    if reverse:
        outputs = jnp.take_along_axis(outputs, order[:, :, None], axis=0)
    return outputs, final


def _run_full(mode, inputs, state, weights, reverse, fast=False):
    """``_run_direction`` for sequences that all fill every step (``seq_length`` not given);
    ``fast``: the backend's form of the loop where one applies (``layer_forms.recurrent_loop_form``)."""
    weight_ih, weight_hh, bias_ih, bias_hh = weights
    # x86-64 CPU with oneDNN: the whole loop in one fused kernel.
    fused = layer_forms.fused_recurrence(mode, inputs, state, weights, reverse, fast)
    if fused is not None:
        return fused
    projected = inputs @ weight_ih.T
    if bias_ih is not None:
        projected = projected + bias_ih
    # XLA:CPU: the loop with a hand-written backward pass.
    looped = layer_forms.recurrence_loop(mode, projected, state, weight_hh, bias_hh, reverse, fast)
    if looped is not None:
        return looped

    def body(carry, step_input):
        new = _step(mode, step_input, carry, weight_hh, bias_hh)
        return new, (new[0] if mode == "LSTM" else new)

    return lax.scan(body, state, projected, reverse=reverse)[::-1]


@functools.partial(jax.jit, static_argnums=(0, 1, 2, 3, 4), static_argnames=("fast",))
def _recurrent(mode, num_layers, bidirectional, dropout, batch_first, x, hx, cx, lengths, weights, key, fast=False):
    if batch_first:
        x = jnp.swapaxes(x, 0, 1)
    directions = 2 if bidirectional else 1
    layer_input = x
    hidden_out, cell_out = [], []
    for layer in range(num_layers):
        results = []
        for direction in range(directions):
            index = layer * directions + direction
            state = (hx[index], cx[index]) if mode == "LSTM" else hx[index]
            outputs, final = _run_direction(mode, layer_input, state, weights[index], lengths, direction == 1, fast)
            results.append(outputs)
            if mode == "LSTM":
                hidden_out.append(final[0])
                cell_out.append(final[1])
            else:
                hidden_out.append(final)
        layer_input = jnp.concatenate(results, axis=-1) if directions == 2 else results[0]
        if dropout > 0 and layer < num_layers - 1:
            key, subkey = jax.random.split(key)
            keep = jax.random.bernoulli(subkey, 1 - dropout, layer_input.shape)
            layer_input = jnp.where(keep, layer_input / (1 - dropout), 0).astype(layer_input.dtype)
    output = jnp.swapaxes(layer_input, 0, 1) if batch_first else layer_input
    hidden = jnp.stack(hidden_out)
    return output, hidden, (jnp.stack(cell_out) if mode == "LSTM" else None)


class _DynamicRNN(Cell):
    """The time loop of a recurrent layer (a named child, as in MindSpore's printed networks)."""


class _DynamicRNNTanh(_DynamicRNN):
    pass


class _DynamicRNNRelu(_DynamicRNN):
    pass


class _DynamicLSTMCPUGPU(_DynamicRNN):
    pass


class _DynamicGRUCPUGPU(_DynamicRNN):
    pass


class _RNNBase(Cell):
    """Shared arguments, Parameters and the forward pass of RNN, LSTM and GRU."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.,
                 bidirectional=False, dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        self.input_size = _check_positive_int(name, "input_size", input_size)
        self.hidden_size = _check_positive_int(name, "hidden_size", hidden_size)
        self.num_layers = _check_positive_int(name, "num_layers", num_layers)
        if isinstance(dropout, bool) or not isinstance(dropout, (int, float)) or not 0 <= dropout < 1:
            raise ValueError(f"For '{name}', the 'dropout' must be a number in range [0, 1), but got {dropout!r}.")
        self.mode, self.has_bias, self.batch_first = mode, has_bias, batch_first
        self.bidirectional, self.dropout = bidirectional, float(dropout)
        self.num_directions = 2 if bidirectional else 1
        self.rnn = {"RNN_TANH": _DynamicRNNTanh, "RNN_RELU": _DynamicRNNRelu, "LSTM": _DynamicLSTMCPUGPU,
                    "GRU": _DynamicGRUCPUGPU}[mode]()
        self.dropout_op = Dropout(p=float(dropout))
        gate_size = _GATES[mode] * hidden_size
        bound = 1 / math.sqrt(hidden_size)
        lists = {"weight_ih": [], "weight_hh": [], "bias_ih": [], "bias_hh": []}
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else hidden_size * self.num_directions
            for direction in range(self.num_directions):
                suffix = f"_l{layer}" + ("_reverse" if direction else "")
                shapes = {"weight_ih": (gate_size, layer_input), "weight_hh": (gate_size, hidden_size),
                          "bias_ih": (gate_size,), "bias_hh": (gate_size,)}
                for kind, shape in shapes.items():
                    if kind.startswith("bias") and not has_bias:
                        continue
                    # MindSpore draws these with np.random.uniform itself (no initializer), in this order:
                    # np.random.seed(...) before the layer gives MindSpore's very weights.
                    init = Tensor(np.random.uniform(-bound, bound, shape).astype(np.float32), dtype)
                    lists[kind].append(make_parameter(name, kind, init, shape, dtype, kind + suffix))
        self.w_ih_list = ParameterTuple(lists["weight_ih"])
        self.w_hh_list = ParameterTuple(lists["weight_hh"])
        if has_bias:
            self.b_ih_list = ParameterTuple(lists["bias_ih"])
            self.b_hh_list = ParameterTuple(lists["bias_hh"])

    def _weights(self):
        count = self.num_layers * self.num_directions
        biases_ih = [b._value for b in self.b_ih_list] if self.has_bias else [None] * count
        biases_hh = [b._value for b in self.b_hh_list] if self.has_bias else [None] * count
        return tuple((self.w_ih_list[i]._value, self.w_hh_list[i]._value, biases_ih[i], biases_hh[i])
                     for i in range(count))

    def construct(self, x, hx=None, seq_length=None):
        name = type(self).__name__
        if not isinstance(x, Tensor) or x.ndim != 3:
            raise ValueError(f"For '{name}', the input 'x' must be a 3-D Tensor (seq, batch, input_size) or (batch, "
                             f"seq, input_size) with batch_first, but got {getattr(x, 'shape', type(x).__name__)}.")
        array = x._value
        if array.shape[-1] != self.input_size:
            raise ValueError(f"For '{name}', the last axis of 'x' must be input_size={self.input_size}, but got "
                             f"shape {tuple(array.shape)}.")
        batch, steps = (array.shape[0], array.shape[1]) if self.batch_first else (array.shape[1], array.shape[0])
        state_shape = (self.num_layers * self.num_directions, batch, self.hidden_size)
        if self.mode == "LSTM":
            if hx is None:
                hidden = cell = jnp.zeros(state_shape, array.dtype)
            else:
                hidden, cell = hx[0]._value, hx[1]._value
        else:
            hidden = jnp.zeros(state_shape, array.dtype) if hx is None else hx._value
            cell = None
        lengths = None if seq_length is None else seq_length._value.astype(jnp.int32)
        dropout = self.dropout if self.training else 0.0
        key = next_key() if dropout > 0 else None
        weights = self._weights()
        if any(weight is not None and weight.dtype != array.dtype for group in weights for weight in group):
            # MindSpore casts the weights to the input's dtype: a float16 input runs (and returns) float16.
            weights = tuple(tuple(None if weight is None else weight.astype(array.dtype) for weight in group)
                            for group in weights)
        output, hidden_n, cell_n = _recurrent(self.mode, self.num_layers, self.bidirectional, dropout,
                                              self.batch_first, array, hidden, cell, lengths, weights, key,
                                              fast=layer_forms.recurrent_loop_form(self.mode))
        if self.mode == "LSTM":
            return Tensor._wrap(output), (Tensor._wrap(hidden_n), Tensor._wrap(cell_n))
        return Tensor._wrap(output), Tensor._wrap(hidden_n)


class RNN(_RNNBase):
    """Elman RNN: h_t = act(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh), stacked and optionally bidirectional.

    Args:
        input_size (int): features of x.
        hidden_size (int): features of h.
        num_layers (int): stacked layers. Default: 1.
        nonlinearity (str): 'tanh' or 'relu'. Default: 'tanh'.
        has_bias (bool): Default: True.
        batch_first (bool): x is (batch, seq, feature). Default: False.
        dropout (float): dropout between layers while training. Default: 0.
        bidirectional (bool): Default: False.
        dtype (mindspore.dtype): the dtype of the Parameters. Default: float32.

    Inputs:
        - **x** (Tensor) -- (seq, batch, input_size), or (batch, seq, input_size) with batch_first.
        - **hx** (Tensor) -- (num_directions * num_layers, batch, hidden_size). Default: zeros.
        - **seq_length** (Tensor) -- (batch,) real lengths. Default: all steps.

    Outputs:
        Tuple (output, h_n): output (seq, batch, num_directions * hidden_size) (batch first with
        batch_first), h_n like hx.
    """

    def __init__(self, *args, **kwargs):
        nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if len(args) > 3:
            nonlinearity = args[3]
            args = args[:3] + args[4:]
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"For 'RNN', the 'nonlinearity' must be 'tanh' or 'relu', but got {nonlinearity!r}.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)


class LSTM(_RNNBase):
    """Long short-term memory, stacked and optionally bidirectional (arguments as RNN, without nonlinearity).

    Inputs:
        - **x** (Tensor) -- as RNN.
        - **hx** (tuple[Tensor]) -- (h_0, c_0), each (num_directions * num_layers, batch, hidden_size).
        - **seq_length** (Tensor) -- (batch,) real lengths. Default: all steps.

    Outputs:
        Tuple (output, (h_n, c_n)).
    """

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)


class GRU(_RNNBase):
    """Gated recurrent unit, stacked and optionally bidirectional (arguments, inputs, outputs as RNN)."""

    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)


class RNNCellBase(Cell):
    """The base of the single-step recurrent cells: input and recurrent weights of ``num_chunks`` gates.

    Subclasses (as ``mindspore.nn.layer.rnn_cells.RNNCellBase`` is subclassed by libraries) write
    ``construct`` from ``weight_ih`` (num_chunks * hidden_size, input_size), ``weight_hh``
    (num_chunks * hidden_size, hidden_size) and, with ``has_bias``, ``bias_ih`` and ``bias_hh``
    (num_chunks * hidden_size,); without it both biases are None. All start uniform in
    [-1/sqrt(hidden_size), 1/sqrt(hidden_size)].

    Args:
        input_size (int): features of the input.
        hidden_size (int): features of the hidden state.
        has_bias (bool): whether the cell has the two bias vectors.
        num_chunks (int): gates stacked in each weight (1 for RNN, 3 for GRU, 4 for LSTM).
        dtype (mindspore.dtype): parameter type. Default: float32.

    Examples:
        >>> import mindspore
        >>> from mindspore.nn.layer.rnn_cells import RNNCellBase
        >>> cell = RNNCellBase(3, 4, True, 3)
        >>> cell.weight_ih.shape, cell.bias_hh.shape
        ((12, 3), (12,))
    """

    def __init__(self, input_size, hidden_size, has_bias, num_chunks, dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        if not isinstance(has_bias, bool):
            raise TypeError(f"For '{name}', the 'has_bias' must be a bool, but got {type(has_bias).__name__}.")
        self.input_size = _check_positive_int(name, "input_size", input_size)
        self.hidden_size = _check_positive_int(name, "hidden_size", hidden_size)
        self.has_bias = has_bias
        gate_size = _check_positive_int(name, "num_chunks", num_chunks) * hidden_size
        # MindSpore first fills the four from np.random.randn, then re-initialises them: those
        # draws advance NumPy's global generator, which its initializers' seeds come from.
        for shape in ((gate_size, input_size), (gate_size, hidden_size)) + ((gate_size,),) * (2 * has_bias):
            np.random.randn(*shape)
        init = Uniform(1 / math.sqrt(hidden_size))
        self.weight_ih = make_parameter(name, "weight_ih", init, (gate_size, input_size), dtype, "weight_ih")
        self.weight_hh = make_parameter(name, "weight_hh", init, (gate_size, hidden_size), dtype, "weight_hh")
        if has_bias:
            self.bias_ih = make_parameter(name, "bias_ih", init, (gate_size,), dtype, "bias_ih")
            self.bias_hh = make_parameter(name, "bias_hh", init, (gate_size,), dtype, "bias_hh")
        else:
            self.bias_ih = self.bias_hh = None


class _CellBase(RNNCellBase):
    def __init__(self, mode, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, _GATES[mode], dtype)
        self.mode = mode

    def _state(self, array, hx):
        if hx is not None:
            return hx._value
        return jnp.zeros(array.shape[:-1] + (self.hidden_size,), array.dtype)

    def _advance(self, x, state):
        if not isinstance(x, Tensor) or x.shape[-1] != self.input_size:
            raise ValueError(f"For '{type(self).__name__}', the input must be a Tensor (batch, {self.input_size}), but "
                             f"got {getattr(x, 'shape', type(x).__name__)}.")
        array = x._value
        projected = array @ self.weight_ih._value.T
        if self.has_bias:
            projected = projected + self.bias_ih._value
        bias_hh = self.bias_hh._value if self.has_bias else None
        return array, _step(self.mode, projected, state(array), self.weight_hh._value, bias_hh)


class RNNCell(_CellBase):
    """One Elman RNN step: h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh).

    Args:
        input_size (int), hidden_size (int), has_bias (bool, default True),
        nonlinearity (str): 'tanh' or 'relu'. Default: 'tanh'. dtype: Default float32.

    Inputs:
        - **x** (Tensor) -- (batch, input_size).
        - **hx** (Tensor) -- (batch, hidden_size). Default: zeros.

    Outputs:
        Tensor h' (batch, hidden_size).
    """

    def __init__(self, input_size, hidden_size, has_bias=True, nonlinearity="tanh", dtype=mstype.float32):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"For 'RNNCell', the 'nonlinearity' must be 'tanh' or 'relu', but got {nonlinearity!r}.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, has_bias,
                         dtype)
        self.nonlinearity = nonlinearity

    def construct(self, x, hx=None):
        _, hidden = self._advance(x, lambda array: self._state(array, hx))
        return Tensor._wrap(hidden)


class GRUCell(_CellBase):
    """One GRU step (inputs and outputs as RNNCell)."""

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__("GRU", input_size, hidden_size, has_bias, dtype)

    def construct(self, x, hx=None):
        _, hidden = self._advance(x, lambda array: self._state(array, hx))
        return Tensor._wrap(hidden)


class LSTMCell(_CellBase):
    """One LSTM step.

    Inputs:
        - **x** (Tensor) -- (batch, input_size).
        - **hx** (tuple[Tensor]) -- (h, c), each (batch, hidden_size). Default: zeros.

    Outputs:
        Tuple (h', c').
    """

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__("LSTM", input_size, hidden_size, has_bias, dtype)

    def construct(self, x, hx=None):
        def state(array):
            if hx is None:
                zeros = self._state(array, None)
                return zeros, zeros
            return hx[0]._value, hx[1]._value

        _, (hidden, cell) = self._advance(x, state)
        return Tensor._wrap(hidden), Tensor._wrap(cell)


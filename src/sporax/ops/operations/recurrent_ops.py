"""Recurrent Primitives: ``BasicLSTMCell`` (one step) and ``DynamicGRUV2`` (a GRU over a time-major sequence),
returning the gate values as well, as MindSpore's fused kernels do, and ``LSTM``, the fused long short-term
memory layer (``DynamicRNN`` is in ``dynamic_rnn.py``).

Contract: ``BasicLSTMCell`` weights are (input_size + hidden_size, 4 * hidden_size) with gates in the order
i (input), j (candidate), f (forget), o (output): ``c = f * c_prev + i * j``, ``h = o * tanh(c)``,
``f`` getting ``forget_bias`` added before its sigmoid. GRU weights are (input_size, 3 * hidden) and
(hidden, 3 * hidden) in ``gate_order`` ('rzh' or 'zrh'), with the reset gate applied after the hidden
matmul (``reset_after``): ``n = tanh(x W_n + b_in + r * (h W_hn + b_hn))``, ``h = (1 - z) * n + z * h_prev``.
``seq_length`` is not supported (all sequences run the full length); ``keep_prob`` < 1, ``cell_clip``,
``num_proj`` and peepholes raise NotImplementedError.

``LSTM`` (layers, directions and projection in MindSpore's CPU layout): ``w`` holds, flattened, every
``w_ih`` (4H, in), then every ``w_hh``, every ``w_hr`` (projection) and every bias (4H: the sum of the input
and hidden biases, as ``nn.LSTM`` passes it on CPU); its gates are ordered i, f, g, o.

Algorithm: ``jax.lax.scan`` over the time axis; the step is one matmul of ``[x, h]`` with all gates.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> x = Tensor(np.ones((3, 2, 4), np.float32))
    >>> w = Tensor(np.full((4 + 5, 20), 0.1, np.float32))
    >>> b = Tensor(np.zeros(20, np.float32))
    >>> zeros = Tensor(np.zeros((1, 2, 5), np.float32))
    >>> ops.DynamicRNN()(x, w, b, None, zeros, zeros)[0].shape
    (3, 2, 5)
"""

import jax
import jax.numpy as jnp

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional.recurrent import dynamic_gru_v2, lstm, lstm_weight_layout
from sporax.ops.primitive import Primitive, prim_attr_register


def _lstm_step(x, h, c, weight, bias, forget_bias):
    gates = jnp.concatenate([x, h], axis=-1) @ weight + bias
    i, j, f, o = jnp.split(gates, 4, axis=-1)
    i, j, f, o = jax.nn.sigmoid(i), jnp.tanh(j), jax.nn.sigmoid(f + forget_bias), jax.nn.sigmoid(o)
    c = f * c + i * j
    tanh_c = jnp.tanh(c)
    return o * tanh_c, c, (i, j, f, o, tanh_c)


def _unsupported(op_name, **settings):
    for name, (value, default) in settings.items():
        if value != default:
            raise NotImplementedError(f"{op_name}: {name}={value!r} is not supported by sporax (only {default!r}).")


class BasicLSTMCell(Primitive):
    """One LSTM step: ``(ct, ht, it, jt, ft, ot, tanhct)`` from ``x`` (batch, input), ``h``, ``c``
    (batch, hidden), ``w`` (input + hidden, 4 * hidden) and ``b`` (4 * hidden).

    Args:
        keep_prob (float): 1.0 only. forget_bias (float): added to the forget gate. Default: 1.0.
        state_is_tuple (bool): True only. activation (str): 'tanh' only.
    """

    @prim_attr_register
    def __init__(self, keep_prob=1.0, forget_bias=1.0, state_is_tuple=True, activation="tanh"):
        _unsupported("BasicLSTMCell", keep_prob=(keep_prob, 1.0), state_is_tuple=(state_is_tuple, True),
                     activation=(activation, "tanh"))
        self.forget_bias = forget_bias

    def __call__(self, x, h, c, w, b):
        arrays = [array_of(self.name, name, value) for name, value in (("x", x), ("h", h), ("c", c), ("w", w),
                                                                        ("b", b))]
        x, h, c, w, b = arrays
        if w.shape != (x.shape[-1] + h.shape[-1], 4 * h.shape[-1]):
            raise ValueError(f"For '{self.name}', 'w' must be (input_size + hidden_size, 4 * hidden_size) = "
                             f"({x.shape[-1] + h.shape[-1]}, {4 * h.shape[-1]}), but got {tuple(w.shape)}.")
        ht, ct, (i, j, f, o, tanh_c) = _lstm_step(x, h, c.astype(x.dtype), w.astype(x.dtype), b.astype(x.dtype),
                                                  self.forget_bias)
        return tuple(wrap(v) for v in (ct, ht, i, j, f, o, tanh_c))


class DynamicGRUV2(Primitive):
    """A GRU over time-major ``x``: ``(y, output_h, update, reset, new, hidden_new)``, each
    (num_step, batch, hidden); ``hidden_new`` is ``h W_hn + b_hn``.

    Args:
        direction (str): 'UNIDIRECTIONAL'. cell_depth (int): 1. keep_prob (float): 1.0. cell_clip (float): -1.0.
        num_proj (int): 0 (MindSpore documents no meaning for other values of these; only these defaults run).
        time_major (bool): True: x is (num_step, batch, input); False: (batch, num_step, input), and so are the
            outputs. Default: True. activation (str): 'tanh'.
        gate_order (str): 'rzh' or 'zrh'. Default: 'rzh'.
        reset_after (bool): True: ``n = tanh(x W_n + b_in + r * (h W_hn + b_hn))``; False: the reset gate scales
            ``h`` before its matmul, ``n = tanh(x W_n + b_in + (r * h) W_hn + b_hn)`` (``hidden_new`` is then
            ``(r * h) W_hn + b_hn``). Default: True. is_training (bool).
    """

    @prim_attr_register
    def __init__(self, direction="UNIDIRECTIONAL", cell_depth=1, keep_prob=1.0, cell_clip=-1.0, num_proj=0,
                 time_major=True, activation="tanh", gate_order="rzh", reset_after=True, is_training=True):
        _unsupported("DynamicGRUV2", direction=(direction, "UNIDIRECTIONAL"), cell_depth=(cell_depth, 1),
                     keep_prob=(keep_prob, 1.0), cell_clip=(cell_clip, -1.0), num_proj=(num_proj, 0),
                     activation=(activation, "tanh"))
        for name, value in (("time_major", time_major), ("reset_after", reset_after)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'DynamicGRUV2', '{name}' must be bool, but got {type(value).__name__}.")
        self.time_major, self.reset_after = time_major, reset_after
        if gate_order not in ("rzh", "zrh"):
            raise ValueError(f"For 'DynamicGRUV2', 'gate_order' must be 'rzh' or 'zrh', but got {gate_order!r}.")
        self.gate_order = gate_order

    def __call__(self, x, weight_input, weight_hidden, bias_input, bias_hidden, seq_length, init_h):
        if seq_length is not None:
            raise NotImplementedError("DynamicGRUV2: 'seq_length' is not supported by sporax; pass None.")
        return dynamic_gru_v2(x, weight_input, weight_hidden, bias_input, bias_hidden, init_h, self.time_major,
                              self.gate_order, self.reset_after)


class LSTM(Primitive):
    """The fused LSTM layer stack over a (seq, batch, input_size) sequence (MindSpore's CPU weight layout).

    Layer ``l > 0`` reads the previous layer's output (``D * R`` features, ``D`` = 2 when bidirectional,
    ``R`` = ``proj_size`` or ``hidden_size``); the backward direction runs the sequence reversed and
    its outputs are concatenated after the forward ones. With ``proj_size`` ``P`` the hidden state is
    projected, ``h = (o * tanh(c)) @ w_hr.T`` (P, as PyTorch's LSTMP), and the recurrent weights are (4H, P).

    Args:
        input_size, hidden_size (int). num_layers (int): >= 1. has_bias (bool). bidirectional (bool).
        dropout (float): accepted; MindSpore's CPU kernel applies no dropout between layers, nor does sporax.
        proj_size (int): 0 (none) or in (0, hidden_size). Default: 0.

    Inputs:
        - **input** (Tensor) - (seq, batch, input_size).
        - **h** (Tensor) - (num_layers * D, batch, R). **c** (Tensor) - (num_layers * D, batch, hidden_size).
        - **w** (Tensor) - the flattened weights, (size, 1, 1): every layer's and direction's ``w_ih`` (4H, in_l),
          then every ``w_hh`` (4H, R), then every ``w_hr`` (P, H) with ``proj_size``, then every bias (4H, the sum
          of the input and hidden biases) with ``has_bias``; layers outer, directions inner.

    Outputs:
        ``(output, h_n, c_n, reserve, state)``: output (seq, batch, D * R); h_n (num_layers * D, batch, R), c_n
        (num_layers * D, batch, H); ``reserve`` and ``state`` are the backend's workspace in MindSpore (1x1 zeros).
    """

    @prim_attr_register
    def __init__(self, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0):
        for name, value, low in (("input_size", input_size, 1), ("hidden_size", hidden_size, 1),
                                 ("num_layers", num_layers, 1), ("proj_size", proj_size, 0)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"For 'LSTM', '{name}' must be an int >= {low}, but got {value!r}.")
        if proj_size >= hidden_size:
            raise ValueError(f"For 'LSTM', 'proj_size' must be smaller than 'hidden_size' ({hidden_size}), but got "
                             f"{proj_size}.")
        self.input_size, self.hidden_size, self.has_bias = input_size, hidden_size, has_bias
        self.num_layers, self.bidirectional, self.proj_size = num_layers, bool(bidirectional), proj_size

    def _layout(self):
        """(name, layer, direction, shape) of every block of ``w``, in order."""
        return lstm_weight_layout(self.input_size, self.hidden_size, self.num_layers, self.has_bias,
                                  self.bidirectional, self.proj_size)

    def __call__(self, input, h, c, w):  # noqa: A002 - MindSpore's name
        return lstm(input, h, c, w, self.input_size, self.hidden_size, self.num_layers, self.has_bias,
                    self.bidirectional, self.proj_size)

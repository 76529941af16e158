"""``LSTM``: the fused long short-term memory Primitive (one unidirectional layer, MindSpore's CPU layout).

``w`` holds, flattened, ``w_ih`` (4H, input_size), ``w_hh`` (4H, H) and, with ``has_bias``, one bias (4H) (the
sum of the input and hidden biases, as ``nn.LSTM`` passes it on CPU); gates are ordered i, f, g, o. The
recursion is ``lax.scan`` over time, so it differentiates and compiles.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> x = Tensor(np.zeros((2, 1, 3), np.float32))
    >>> h = c = Tensor(np.zeros((1, 1, 2), np.float32))
    >>> ops.LSTM(3, 2, 1, True, False, 0.0)(x, h, c, Tensor(np.zeros((48, 1, 1), np.float32)))[0].shape
    (2, 1, 2)
"""
import jax
import jax.numpy as jnp

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.primitive import Primitive, prim_attr_register


class LSTM(Primitive):
    """One LSTM layer over a (seq, batch, input_size) sequence.

    Args:
        input_size, hidden_size (int). num_layers (int): 1 (more layers: stack LSTM calls). has_bias (bool).
        bidirectional (bool): False. dropout (float): unused for one layer. proj_size (int): 0.

    Inputs:
        - **input** (Tensor) - (seq, batch, input_size). **h**, **c** (Tensor) - (1, batch, hidden_size).
        - **w** (Tensor) - the flattened weights, (4H * (input_size + H) [+ 4H], 1, 1).

    Outputs:
        ``(output, h_n, c_n, reserve, state)``: output (seq, batch, H); h_n, c_n (1, batch, H); ``reserve`` and
        ``state`` are the backend's workspace in MindSpore (here 1x1 zeros).
    """

    @prim_attr_register
    def __init__(self, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0):
        if num_layers != 1 or bidirectional or proj_size:
            raise NotImplementedError("LSTM: sporax implements one unidirectional layer without projection "
                                      "(num_layers=1, bidirectional=False, proj_size=0); stack layers with nn.LSTM.")
        self.input_size, self.hidden_size, self.has_bias = input_size, hidden_size, has_bias

    def __call__(self, input, h, c, w):
        x = array_of("LSTM", "input", input)
        state_h, state_c = array_of("LSTM", "h", h), array_of("LSTM", "c", c)
        weights = array_of("LSTM", "w", w).reshape(-1)
        size_in, size_h = self.input_size, self.hidden_size
        needed = 4 * size_h * (size_in + size_h) + (4 * size_h if self.has_bias else 0)
        if x.ndim != 3 or x.shape[2] != size_in or state_h.shape != (1, x.shape[1], size_h) \
                or state_c.shape != state_h.shape or weights.shape[0] < needed:
            raise ValueError(f"For 'LSTM', 'input' must be (seq, batch, {size_in}), 'h' and 'c' (1, batch, {size_h}) "
                             f"and 'w' hold at least {needed} weights, but got {tuple(x.shape)}, "
                             f"{tuple(state_h.shape)}, {tuple(state_c.shape)} and {weights.shape[0]}.")
        split = 4 * size_h * size_in
        w_ih = weights[:split].reshape(4 * size_h, size_in)
        w_hh = weights[split:split + 4 * size_h * size_h].reshape(4 * size_h, size_h)
        bias = weights[split + 4 * size_h * size_h:needed] if self.has_bias else jnp.zeros((4 * size_h,), x.dtype)

        def step(carry, row):
            hidden, cell = carry
            z = row @ w_ih.T + hidden @ w_hh.T + bias
            i, f, g, o = jnp.split(z, 4, axis=-1)
            cell = jax.nn.sigmoid(f) * cell + jax.nn.sigmoid(i) * jnp.tanh(g)
            hidden = jax.nn.sigmoid(o) * jnp.tanh(cell)
            return (hidden, cell), hidden

        (last_h, last_c), outputs = jax.lax.scan(step, (state_h[0], state_c[0]), x)
        workspace = jnp.zeros((1, 1), x.dtype)
        return wrap(outputs), wrap(last_h[None]), wrap(last_c[None]), wrap(workspace), wrap(workspace)

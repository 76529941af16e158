"""``ops.DynamicRNN``: a whole LSTM sequence in one operator (MindSpore's Ascend ``DynamicRNN``).

For time-major input x (T, B, I), weights w (I + H, 4H) and bias b (4H), every step computes
``gates = [x_t, h] @ w + b``, split along the last axis in the order (i, j, f, o):

    i = sigmoid(i)   j = tanh(j)   f = sigmoid(f + forget_bias)   o = sigmoid(o)
    c = f * c + i * j   (clipped to [-cell_clip, cell_clip] when cell_clip > 0)
    h = o * tanh(c)

and returns the sequences (T, B, H) of y = h, h, c, i, j, f, o and tanh(c). The steps run as one
``lax.scan``. MindSpore supports only the LSTM cell, one direction, time-major input, tanh, no
peephole and no projection; so does sporax, with the same argument checks.
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of
from sporax.ops.primitive import Primitive


@partial(jax.jit, static_argnums=(5, 6))
def _lstm_sequence(x, w, b, h0, c0, forget_bias, cell_clip):
    hidden = h0.shape[-1]

    def step(carry, x_t):
        h, c = carry
        gates = jnp.concatenate([x_t, h], axis=-1) @ w + b
        i, j, f, o = (gates[..., k * hidden:(k + 1) * hidden] for k in range(4))
        i, j, f, o = jax.nn.sigmoid(i), jnp.tanh(j), jax.nn.sigmoid(f + forget_bias), jax.nn.sigmoid(o)
        c = f * c + i * j
        if cell_clip > 0:
            c = jnp.clip(c, -cell_clip, cell_clip)
        tanh_c = jnp.tanh(c)
        h = o * tanh_c
        return (h, c), (h, c, i, j, f, o, tanh_c)

    _, (hs, cs, i, j, f, o, tanh_c) = lax.scan(step, (h0, c0), x)
    return hs, hs, cs, i, j, f, o, tanh_c


class DynamicRNN(Primitive):
    """Run an LSTM over a whole time-major sequence (see the module description).

    Args:
        cell_type (str): 'LSTM'. Default: 'LSTM'.
        direction (str): 'UNIDIRECTIONAL'. Default: 'UNIDIRECTIONAL'.
        cell_depth (int): Default: 1.
        use_peephole (bool): must be False. Default: False.
        keep_prob (float): must be 1.0 (no dropout). Default: 1.0.
        cell_clip (float): clip the cell state to [-cell_clip, cell_clip] when > 0. Default: -1.0.
        num_proj (int): must be 0. Default: 0.
        time_major (bool): must be True. Default: True.
        activation (str): 'tanh'. Default: 'tanh'.
        forget_bias (float): added to the forget gate before its sigmoid. Default: 0.0.
        is_training (bool): Default: True.

    Inputs:
        - **x** (Tensor) -- (num_step, batch_size, input_size).
        - **w** (Tensor) -- (input_size + hidden_size, 4 * hidden_size), gates ordered i, j, f, o.
        - **b** (Tensor) -- (4 * hidden_size,).
        - **seq_length** -- None.
        - **init_h** (Tensor) -- (1, batch_size, hidden_size).
        - **init_c** (Tensor) -- (1, batch_size, hidden_size).

    Outputs:
        Tuple of 8 Tensors (num_step, batch_size, hidden_size): y, output_h, output_c, i, j, f, o, tanhc.
    """

    def __init__(self, cell_type="LSTM", direction="UNIDIRECTIONAL", cell_depth=1, use_peephole=False, keep_prob=1.0,
                 cell_clip=-1.0, num_proj=0, time_major=True, activation="tanh", forget_bias=0.0, is_training=True):
        super().__init__("DynamicRNN")
        checks = (("cell_type", cell_type, "LSTM"), ("direction", direction, "UNIDIRECTIONAL"),
                  ("activation", activation, "tanh"))
        for name, value, only in checks:
            if value != only:
                raise ValueError(f"For 'DynamicRNN', the '{name}' must be '{only}', but got {value!r}.")
        for name, value, only in (("use_peephole", use_peephole, False), ("keep_prob", keep_prob, 1.0),
                                  ("num_proj", num_proj, 0), ("time_major", time_major, True)):
            if value != only:
                raise ValueError(f"For 'DynamicRNN', only {name}={only!r} is supported, but got {value!r}.")
        for name, value in (("cell_clip", cell_clip), ("forget_bias", forget_bias)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"For 'DynamicRNN', the '{name}' must be a float, but got {type(value).__name__}.")
        self.cell_type, self.direction, self.cell_depth = cell_type, direction, cell_depth
        self.use_peephole, self.keep_prob, self.cell_clip = use_peephole, keep_prob, float(cell_clip)
        self.num_proj, self.time_major, self.activation = num_proj, time_major, activation
        self.forget_bias, self.is_training = float(forget_bias), is_training
        for name in ("cell_type", "direction", "cell_depth", "cell_clip", "forget_bias", "is_training"):
            self.add_prim_attr(name, getattr(self, name))

    def __call__(self, x, w, b, seq_length, init_h, init_c):
        if seq_length is not None:
            raise ValueError("For 'DynamicRNN', only seq_length=None is supported.")
        x, w, b = (array_of("DynamicRNN", name, value) for name, value in (("x", x), ("w", w), ("b", b)))
        h0, c0 = array_of("DynamicRNN", "init_h", init_h), array_of("DynamicRNN", "init_c", init_c)
        if x.ndim != 3:
            raise ValueError(f"For 'DynamicRNN', the 'x' must be (num_step, batch_size, input_size), but got shape "
                             f"{tuple(x.shape)}.")
        steps, batch, features = x.shape
        hidden = h0.shape[-1]
        expected = {"w": ((features + hidden, 4 * hidden), w.shape), "b": ((4 * hidden,), b.shape),
                    "init_h": ((1, batch, hidden), h0.shape), "init_c": ((1, batch, hidden), c0.shape)}
        for name, (want, got) in expected.items():
            if tuple(got) != want:
                raise ValueError(f"For 'DynamicRNN', the '{name}' must have shape {want}, but got {tuple(got)}.")
        outputs = _lstm_sequence(x, w, b, h0[0], c0[0], self.forget_bias, self.cell_clip)
        return tuple(Tensor._wrap(output.astype(b.dtype)) for output in outputs)

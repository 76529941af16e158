"""MindSpore's seeded Dropout stream computed inside the program: the float uniforms of C++'s
``default_random_engine`` (MINSTD, ``x <- 16807 x mod (2**31 - 1)``) from a word position, with no host call.

A seeded Dropout Primitive owns one MINSTD engine (``sporax.core.seeded_streams``); its draws take consecutive
words. Word ``k`` (0-based) of an engine started at state ``s`` is ``s * 16807**(k + 1) mod (2**31 - 1)``, so the
words of a draw are a function of the engine's start and the number of words drawn before it: the Primitive
counts words in a Parameter, and each draw is a few integer ops on uint64 (every product of two residues fits in
62 bits) instead of a host callback (a round trip to Python) at every call inside a compiled step. The words, and the
``(x - 1) / 2**31`` float32 uniforms made of them, are the host stream's bit for bit.

Example:
    >>> import numpy as np
    >>> from sporax.core.seeded_streams import MinstdStream
    >>> host = MinstdStream(12345)
    >>> _ = host.units(5)
    >>> bool((np.asarray(units(12345, 5, 3)) == host.units(3)).all())
    True
"""
import math

import jax.numpy as jnp
import numpy as np

from sporax.core import jax_private
from sporax.core.seeded_streams import MinstdStream
from sporax.ops._dispatch import wrap
from sporax.state.assign import write

_MODULUS = 2**31 - 1
_MULTIPLIER = 16807
# The multiplier's order divides MODULUS - 1 (the modulus is prime): exponents reduce mod MODULUS - 1 < 2**31.
_EXPONENT_BITS = 31
# Words of one draw come as blocks of this many: the powers inside a block are one constant of this length.
_BLOCK = 4096


def start_state(seed):
    """The engine state a kernel seed gives (``default_random_engine(seed)``: the seed mod the modulus, 0 -> 1)."""
    return int(seed) % _MODULUS or 1


def _power_table(count, stride=1):
    """``16807**(stride * k) mod (2**31 - 1)`` for k = 0 .. count-1 (uint64, a constant of the program)."""
    step = pow(_MULTIPLIER, stride, _MODULUS)
    values, value = [], 1
    for _ in range(count):
        values.append(value)
        value = value * step % _MODULUS
    return np.array(values, np.uint64)


# 16807**(2**b) mod (2**31 - 1), b = 0 .. 31: the factors of a power by the bits of its exponent
_SQUARES = np.array([pow(_MULTIPLIER, 2**bit, _MODULUS) for bit in range(_EXPONENT_BITS + 1)], np.uint64)


def _times(left, right):
    return left * right % np.uint64(_MODULUS)


def _engine_at(state, position):
    """The engine's state after ``position`` (int64, traced or not) words from ``state``: ``state * 16807**position``,
    the power as the product of the squares its exponent's bits pick, multiplied pairwise (5 levels)."""
    exponent = jnp.asarray(position, jnp.int64) % (_MODULUS - 1)
    bits = (exponent >> jnp.arange(_EXPONENT_BITS + 1, dtype=jnp.int64)) & 1
    factors = jnp.where(bits == 1, jnp.asarray(_SQUARES), np.uint64(1))
    while factors.shape[0] > 1:  # a product tree: pairs multiplied mod the modulus
        factors = _times(factors[0::2], factors[1::2])
    return _times(factors[0], np.uint64(state))


def words(state, position, count):
    """The engine's words ``position .. position + count - 1`` (uint64, 1 .. 2**31 - 2) from start ``state``."""
    block = min(count, _BLOCK)
    blocks = math.ceil(count / block)
    # word position + b * block + i = state_at(position) * 16807**(b * block) * 16807**(i + 1)
    block_starts = _times(_engine_at(state, position), jnp.asarray(_power_table(blocks, block)))
    inside = jnp.asarray(_power_table(block + 1)[1:])
    return _times(block_starts[:, None], inside[None, :]).reshape(-1)[:count]


def units(state, position, count):
    """``count`` float32 uniforms in [0, 1) from word ``position`` on: libstdc++'s ``generate_canonical<float>``,
    ``float(x - 1) / 2**31`` (the divisor rounds to 2**31), a quotient of 1 taken as the float below 1."""
    # every word minus one is below 2**31: an exact int32, converted to float32 with one rounding as in C++
    numerators = (words(state, position, count) - np.uint64(1)).astype(jnp.int32).astype(jnp.float32)
    return jnp.minimum(numerators / np.float32(2.0**31), np.nextafter(np.float32(1), np.float32(0)))


def drawn_units(state, counter, shape, op_name):
    """The next uniforms of ``shape`` of the engine started at ``state`` whose words drawn so far the int64
    Parameter ``counter`` holds (advanced here, lifted state under a trace); a recomputation reads the same
    counter and so repeats the draw. Under a trace the program computes them (``units``), eagerly the host."""
    count = int(np.prod(shape, dtype=np.int64))
    position = counter._value
    write(counter, wrap(position + count), op_name)
    if jax_private.is_transforming():
        return units(state, position, count).reshape(shape)
    # eager: the host engine started that many words later (NumPy; no small XLA programs to compile per shape)
    later = MinstdStream(state * pow(_MULTIPLIER, int(position), _MODULUS) % _MODULUS)
    return jnp.asarray(later.units(count).reshape(shape))

"""The global random state: ``set_seed``/``get_seed`` and the key random ops draw from.

The key lives in a Tensor slot (``global_state``) so that ``sporax.state`` can lift it like a
Parameter: dropout under ``jit`` advances it, and ``set_seed`` resets it.
"""
import jax
import numpy as np

from sporax.core.tensor import Tensor

_seed = None
# Unseeded runs still start from a fixed key, drawn once from the OS so that runs differ.
global_state = Tensor._wrap(jax.random.key_data(jax.random.key(int(np.random.SeedSequence().entropy % (2**31)))))


def set_seed(seed):
    """Set the global seed (``mindspore.set_seed``): random ops and initializers repeat after it."""
    global _seed
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"set_seed: seed must be a non-negative int, got {seed!r}.")
    _seed = seed
    global_state._array = jax.random.key_data(jax.random.key(seed))
    np.random.seed(seed % (2**32))
    for listener in _seed_listeners:
        listener(seed)


def seed_key(seed):
    """Restart the key the unseeded ops draw from at ``seed``, leaving the global seed as it is
    (``mindspore.manual_seed``: MindSpore 2.10's ``get_seed()`` stays None after it, and the seeded kernels
    keep their op seeds)."""
    global_state._array = jax.random.key_data(jax.random.key(seed))


# Called with the seed by set_seed: MindSpore's set_seed seeds the data pipeline too, whose
# config sporax/__init__ registers here (core imports no package above it).
_seed_listeners = []


def on_set_seed(listener):
    """Call ``listener(seed)`` from every ``set_seed`` from now on."""
    _seed_listeners.append(listener)


def get_seed():
    """Return the global seed, or None when ``set_seed`` was never called."""
    return _seed


@jax.jit
def _split(state):
    """One compiled dispatch: the advanced state, the new key and its raw bits."""
    key, subkey = jax.random.split(jax.random.wrap_key_data(state))
    return jax.random.key_data(key), subkey, jax.random.key_data(subkey)


def next_key():
    """Split the global key: return a fresh ``jax.random.key`` and advance the state."""
    global_state._array, subkey, _ = _split(global_state._array)
    return subkey


def next_key_data():
    """Like ``next_key`` but return the new key's raw bits (uint32 array), e.g. to seed NumPy."""
    global_state._array, _, bits = _split(global_state._array)
    return bits

"""``mindspore.common.generator``: random-number Generators with a (seed, offset) state.

A Generator's state is two Int64 Parameters, ``seed`` and ``offset``; ``_step(n)`` returns the
state and advances the offset by ``n`` (the counter a Philox-style kernel consumes). Being
Parameters, they are lifted like any other state (``sporax.state``), so a step taken inside
``jit`` or a GRAPH-mode Cell advances the Generator too. ``default_generator`` is the process-wide
one; ``manual_seed``/``seed`` also reseed sporax's global random key, so the two stay in step.

Example:
    >>> from sporax.core.generator import Generator
    >>> generator = Generator().manual_seed(3)
    >>> [int(value) for value in generator._step(2)]
    [3, 0]
    >>> int(generator.get_state()[1])
    2
"""
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter
from sporax.core.random_state import seed_key, set_seed
from sporax.core.tensor import Tensor

_DEFAULT_SEED = 67280421310721  # MindSpore's default initial seed
# How a step writes the offset Parameter: sporax.state.assign.write (a write a trace lifts),
# registered by sporax.state on import; core sits below state and cannot import it.
_parameter_writer = []


def use_parameter_writer(write):
    """Let Generators advance their offset with ``write(parameter, value, op_name)``."""
    _parameter_writer[:] = [write]


def _check_seed(name, seed):
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"For '{name}', 'seed' must be an int, but got {type(seed).__name__}.")
    return int(seed)


class Generator:
    """A random-number generator state: ``seed`` and ``offset`` (Int64 Parameters).

    Example:
        >>> generator = Generator()
        >>> generator.manual_seed(5).initial_seed()
        5
    """

    def __init__(self):
        self._seed = Parameter(Tensor(_DEFAULT_SEED, mstype.int64), name="seed", requires_grad=False)
        self._offset = Parameter(Tensor(0, mstype.int64), name="offset", requires_grad=False)
        self._initial_seed = _DEFAULT_SEED

    def set_state(self, state):
        """Restore a state returned by ``get_state`` (a pair of Int64 Tensors)."""
        seed, offset = state
        self._seed.set_data(Tensor(int(seed), mstype.int64))
        self._offset.set_data(Tensor(int(offset), mstype.int64))
        # The state carries the seed: initial_seed() answers it again, and (as MindSpore's) the
        # call returns None.
        self._initial_seed = int(seed)

    def get_state(self):
        """The state as a pair of Int64 Tensors ``(seed, offset)`` (copies)."""
        return Tensor(int(self._seed), mstype.int64), Tensor(int(self._offset), mstype.int64)

    def manual_seed(self, seed):
        """Set the seed and reset the offset; returns self."""
        seed = _check_seed("Generator.manual_seed", seed)
        self.set_state((seed, 0))
        return self

    def seed(self):
        """Seed from a non-deterministic source; returns the new seed (32 bits, as MindSpore's)."""
        seed = int(np.random.SeedSequence().entropy % (2**32))
        self.manual_seed(seed)
        return seed

    def initial_seed(self):
        """The seed last given to ``manual_seed`` or ``seed``."""
        return self._initial_seed

    def _step(self, step):
        """Return ``(seed, offset)`` and advance the offset by ``step`` (works under a trace)."""
        seed = self._seed + 0
        offset = self._offset + 0
        _parameter_writer[0](self._offset, self._offset + step, "Generator._step")
        return seed, offset


default_generator = Generator()


def set_rng_state(state):
    """Restore the default generator's state."""
    default_generator.set_state(state)


def get_rng_state():
    """The default generator's state ``(seed, offset)``."""
    return default_generator.get_state()


def manual_seed(seed):
    """Seed the default generator and the key sporax's unseeded ops draw from; returns the default generator.
    Not ``set_seed``: as in MindSpore 2.10, ``get_seed()`` is unchanged and the seeded kernels' op seeds take no
    global seed from it (recorded: after ``manual_seed(3)`` alone ``get_seed()`` is None)."""
    seed = _check_seed("manual_seed", seed)
    seed_key(seed)
    return default_generator.manual_seed(seed)


def seed():
    """Seed the default generator (and the global key) non-deterministically; returns the seed."""
    new_seed = default_generator.seed()
    set_seed(new_seed % (2**31))
    return new_seed


def initial_seed():
    """The default generator's initial seed."""
    return default_generator.initial_seed()

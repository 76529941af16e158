"""``RandomChoiceWithMask``'s kernel with MindSpore's CPU stream, reproduced bit for bit.

Observed on MindSpore 2.10 (CPU): the kernel seeds C++'s ``default_random_engine`` (the
minimal-standard LCG ``x <- 16807 x mod (2^31 - 1)``) once, from ``mixed_seed(seed, seed2)`` (see
``categorical``), and each call shuffles the positions of the True elements with libstdc++'s
``std::shuffle`` — which draws one number for two swaps while ``range^2`` fits the engine's range —
then keeps the first ``count`` (zero-padded, mask False, when there are fewer).

The shuffle's draws depend on how many elements are True, so it runs on the host; inside a compiled
function it is a ``jax.pure_callback`` whose engine state is passed in and out (the Primitive lifts it
as a Parameter), so a compiled Cell advances the stream like MindSpore's kernel.
"""
import jax
import numpy as np

from sporax.core.seeded_streams import gcc_shuffle

_MODULUS = 2**31 - 1
_ENGINE_RANGE = _MODULUS - 2  # the engine yields 1 .. 2^31 - 2
_INT_MAX = 2**31 - 1


class _Engine:
    def __init__(self, state):
        self.state = int(state)

    def next(self):
        self.state = self.state * 16807 % _MODULUS
        return self.state


def _shuffle(values, engine):
    """libstdc++'s ``std::shuffle`` of ``values`` (a list) in place."""
    return gcc_shuffle(values, lambda: engine.next() - 1, _ENGINE_RANGE)


def _host_kernel(flags, state, count):
    engine = _Engine(state)
    positions = np.flatnonzero(np.asarray(flags))
    order = _shuffle(list(range(positions.size)), engine)
    kept = positions[np.array(order[:count], np.int64)]
    coords = np.zeros((count, flags.ndim), np.int32)
    if kept.size:
        coords[:kept.size] = np.stack(np.unravel_index(kept, flags.shape), -1)
    mask = np.arange(count) < kept.size
    return coords, mask, np.asarray(engine.state, np.int64)


def check_count(count, rank):
    """MindSpore's kernel refuses outputs of ``count * rank`` int32 at or past INT_MAX."""
    if count * max(rank, 1) >= _INT_MAX:
        raise RuntimeError(f"For 'RandomChoiceWithMask', the output size exceed INT_MAX: 'count' ({count}) times the "
                           f"input rank ({rank}) must be less than {_INT_MAX}.")


def choose(flags, state, count):
    """``(coords (count, rank) Int32, mask (count,) Bool, new state)`` for a Bool array ``flags``."""
    shapes = (jax.ShapeDtypeStruct((count, flags.ndim), np.int32), jax.ShapeDtypeStruct((count,), np.bool_),
              jax.ShapeDtypeStruct((), np.int64))
    return jax.pure_callback(lambda f, s: _host_kernel(f, s, count), shapes, flags, state)

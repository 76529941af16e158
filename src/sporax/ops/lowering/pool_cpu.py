"""Max pooling over non-overlapping windows with an elementwise gradient (no scatter).

Contract: ``max_pool_tiles(x, kernel)`` equals sporax's plain max pool (the where-chain of
``pooling._max_pool``: the first maximum of each window in row-major order wins, a NaN only
when it is the window's first element) over the trailing ``len(kernel)`` axes with stride ==
kernel, no padding and no dilation, in value and gradient. ``applies(...)`` says which pools
it takes; windows that do not tile the input (floor mode) simply leave the last rows out, as
the plain form does, and those rows get a zero gradient.

Algorithm: view the input as (..., H/k0, k0, W/k1, k1) (a free reshape), run the where-chain
over the k0*k1 window positions while keeping the winning position (a small integer per
output), and define the tangent as the winner's tangent (a masked sum over the window axes), so
that the gradient, its transpose, is ``where(position == winner, dy, 0)`` broadcast back over
the window: one elementwise pass. Forward mode (jvp, jacfwd) works as with the plain form.
The plain gradient of the chain is a select chain plus k0*k1 interior-padded scatters summed
together, several passes over the input on XLA:CPU.
"""
import functools
import itertools

import jax
import jax.numpy as jnp
import numpy as np


def applies(array, kernel, strides, pads, dilation):
    """Whether ``max_pool_tiles`` takes this pool: float, stride == kernel, no padding/dilation."""
    spatial = len(kernel)
    return (tuple(strides) == tuple(kernel) and all(low == 0 and high == 0 for low, high in pads)
            and (dilation is None or all(d == 1 for d in dilation)) and jnp.issubdtype(array.dtype, jnp.floating)
            and all(size >= k for size, k in zip(array.shape[-spatial:], kernel)) and spatial in (1, 2, 3))


def _tiles(array, kernel):
    """The cropped input viewed as (..., n0, k0, n1, k1, ...) and the per-axis tile counts."""
    spatial = len(kernel)
    lead = array.shape[:-spatial]
    counts = tuple(size // k for size, k in zip(array.shape[-spatial:], kernel))
    cropped = array[(Ellipsis,) + tuple(slice(0, n * k) for n, k in zip(counts, kernel))]
    return cropped.reshape(lead + tuple(itertools.chain.from_iterable(zip(counts, kernel)))), counts


def _position(tiles, offset):
    """The window element at ``offset`` of every tile: (..., n0, n1, ...)."""
    index = (Ellipsis,) + tuple(itertools.chain.from_iterable((slice(None), o) for o in offset))
    return tiles[index]


def _winner_dtype(kernel):
    return np.uint8 if int(np.prod(kernel)) <= 255 else np.int32


def _forward(array, kernel):
    tiles, _ = _tiles(array, kernel)
    best = winner = None
    for number, offset in enumerate(itertools.product(*[range(k) for k in kernel])):
        values = _position(tiles, offset)
        if best is None:
            best, winner = values, jnp.zeros(values.shape, _winner_dtype(kernel))
        else:
            better = values > best
            best = jnp.where(better, values, best)
            winner = jnp.where(better, np.array(number, winner.dtype), winner)
    return best, winner


def _window_mask(winner, kernel):
    """(..., n0, k0, n1, k1, ...) booleans: True at each window's winning position."""
    spatial = len(kernel)
    lead, counts = winner.shape[:-spatial], winner.shape[-spatial:]
    interleaved = tuple(itertools.chain.from_iterable((n, 1) for n in counts))
    numbers = np.arange(int(np.prod(kernel)), dtype=winner.dtype).reshape(
        tuple(itertools.chain.from_iterable((1, k) for k in kernel)))
    return winner.reshape(lead + interleaved) == numbers


@functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
def max_pool_tiles(array, kernel):
    """Max pool with window == stride over the trailing ``len(kernel)`` axes, no padding."""
    return _forward(array, kernel)[0]


@max_pool_tiles.defjvp
def _max_pool_tiles_jvp(kernel, primals, tangents):
    # The tangent is the winner's tangent: a masked sum over the window axes of the tiled view.
    # Its transpose (reverse mode) is a broadcast and one select, no scatter.
    (array,), (tangent,) = primals, tangents
    best, winner = _forward(array, kernel)
    tiles, _ = _tiles(tangent, kernel)
    picked = jnp.where(_window_mask(winner, kernel), tiles, np.zeros((), tiles.dtype))
    lead = tiles.ndim - 2 * len(kernel)
    return best, picked.sum(tuple(lead + 2 * axis + 1 for axis in range(len(kernel))))

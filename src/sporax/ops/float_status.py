"""Float-status (overflow) ops: ``NPUAllocFloatStatus``, ``NPUGetFloatStatus``, ``NPUClearFloatStatus``, ``FloatStatus``.

On Ascend a hardware register collects overflow flags of every op since it was last cleared;
scripts read it through a status buffer ordered by ``ops.depend``::

    status = alloc_status()                 # 8 zeros
    status = F.depend(status, loss)
    clear = clear_status(status)            # start watching here
    grads = grad(...)(..., F.depend(sens, clear))
    status = F.depend(status, grads)        # ... these values
    get = get_status(status)                # status now holds the overflow flag
    overflow = reduce_sum(F.depend(status, get)) >= 1

XLA has no such register, so sporax keeps the data-flow meaning: the status buffer (a
``FloatStatus`` Tensor) remembers the values ``ops.depend`` tied to it since its last clear, and
``NPUGetFloatStatus`` writes into it (in place, as on Ascend) 1.0 in its first element when any
floating-point value among them is inf or NaN, 0.0 otherwise. Works eagerly and under jit.
"""
import jax
import jax.numpy as jnp

from sporax.core.tensor import Tensor
from sporax.ops.primitive import Primitive

STATUS_SIZE = 8


class FloatStatusBuffer(Tensor):
    """The status Tensor ``NPUAllocFloatStatus`` returns: 8 float32 flags plus the watched values."""

    def __init__(self):
        super().__init__(jnp.zeros((STATUS_SIZE,), jnp.float32))
        self.watched = []


def _arrays(value):
    """The floating-point arrays inside a value (a Tensor, or nested tuples/lists/dicts of them)."""
    leaves = jax.tree_util.tree_leaves(value, is_leaf=lambda leaf: isinstance(leaf, Tensor))
    arrays = [leaf._value if isinstance(leaf, Tensor) else leaf for leaf in leaves]
    return [a for a in arrays if hasattr(a, "dtype") and jnp.issubdtype(a.dtype, jnp.floating)]


def has_overflow(value):
    """A boolean scalar: does any floating-point array in ``value`` hold an inf or a NaN?"""
    flags = [jnp.logical_not(jnp.all(jnp.isfinite(a))) for a in _arrays(value)]
    return jnp.any(jnp.stack(flags)) if flags else jnp.asarray(False)


def watch(status, expr):
    """Called by ``ops.depend(status, expr)``: the status buffer will check ``expr`` for overflow."""
    status.watched.append(expr)


def _check_status(status, name):
    if not isinstance(status, FloatStatusBuffer):
        raise TypeError(f"For '{name}', the input must be the status Tensor NPUAllocFloatStatus() returned "
                        f"(passed through ops.depend), got {type(status).__name__}.")


class NPUAllocFloatStatus(Primitive):
    """Allocate a float-status buffer: a float32 Tensor of shape (8,) filled with zeros.

    Outputs:
        Tensor (float32, shape (8,)): the status buffer.

    Example:
        >>> from sporax import ops
        >>> ops.NPUAllocFloatStatus()().shape
        (8,)
    """

    def __call__(self):
        return FloatStatusBuffer()


class NPUClearFloatStatus(Primitive):
    """Clear a float-status buffer: zero its flags and forget the values watched so far.

    Inputs:
        - **x** (Tensor) -- the buffer from ``NPUAllocFloatStatus``.

    Outputs:
        Tensor (float32, shape (8,)): zeros.
    """

    def __call__(self, x):
        _check_status(x, self.name)
        x.watched.clear()
        x._array = jnp.zeros((STATUS_SIZE,), jnp.float32)
        return Tensor._wrap(x._array)


class NPUGetFloatStatus(Primitive):
    """Update a float-status buffer: flag 1.0 when a value ``ops.depend`` tied to it overflowed.

    Inputs:
        - **x** (Tensor) -- the buffer from ``NPUAllocFloatStatus``; updated in place.

    Outputs:
        Tensor (float32, shape (8,)): the updated flags (their sum is > 0 after an overflow).
    """

    def __call__(self, x):
        _check_status(x, self.name)
        flag = has_overflow(x.watched).astype(jnp.float32)
        x._array = jnp.maximum(x._array, jnp.zeros((STATUS_SIZE,), jnp.float32).at[0].set(flag))
        return Tensor._wrap(x._array)


class FloatStatus(Primitive):
    """Whether ``x`` holds an inf or a NaN: a float32 Tensor of shape (1,), 1.0 if so, else 0.0.

    Inputs:
        - **x** (Tensor) -- floating point.

    Outputs:
        Tensor (float32, shape (1,)).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.FloatStatus()(Tensor(np.array([1.0, np.inf], np.float32))).asnumpy()
        array([1.], dtype=float32)
    """

    def __call__(self, x):
        if not isinstance(x, Tensor) or not jnp.issubdtype(x._value.dtype, jnp.floating):
            raise TypeError(f"For 'FloatStatus', x must be a floating-point Tensor, got {x!r}.")
        return Tensor._wrap(has_overflow(x).astype(jnp.float32).reshape(1))

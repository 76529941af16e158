"""``mindspore.mint`` random sampling and uninitialised creation with PyTorch's signatures: adapters onto
``sporax.ops``'s samplers (the global RNG state; ``generator`` is accepted and must be None)."""
import numpy as np

from sporax import ops
from sporax.core import dtype as mstype

__all__ = ["bernoulli", "multinomial", "normal", "rand", "rand_like", "randint", "randint_like", "randn",
           "randn_like", "randperm", "empty", "empty_like"]


def _no_generator(name, generator):
    if generator is not None:
        raise NotImplementedError(f"mindspore.mint.{name}: a 'generator' other than None is not supported; "
                                  "sporax draws from the global RNG state (mindspore.set_seed).")


def _size(size):
    return tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else tuple(size)


def bernoulli(input, *, generator=None):
    """0/1 samples with the probabilities in ``input``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.bernoulli(ms.Tensor([0.2, 0.9]))
    """
    _no_generator("bernoulli", generator)
    return ops.bernoulli(input, input)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Indices drawn from the categorical distributions in the rows of ``input``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.multinomial(ms.Tensor([0.2, 0.8]), 1)
    """
    _no_generator("multinomial", generator)
    return ops.multinomial(input, num_samples, replacement)


def normal(mean=0.0, std=1.0, size=None, generator=None):
    """Normal samples of the given ``mean`` and ``std`` (numbers with ``size``, or broadcast Tensors).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.normal(0.0, 1.0, (2, 3))
    """
    _no_generator("normal", generator)
    if size is None:
        shapes = [tuple(value.shape) for value in (mean, std) if hasattr(value, "shape")]
        shape = tuple(np.broadcast_shapes(*shapes)) if shapes else ()
    else:
        shape = tuple(size)
    return ops.add(ops.mul(ops.randn(*shape), std), mean)


def rand(*size, generator=None, dtype=None, device=None):
    """Uniform samples in [0, 1) of shape ``size``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.rand(2, 3)
    """
    _no_generator("rand", generator)
    return ops.rand(*_size(size), dtype=dtype)


def randn(*size, generator=None, dtype=None, device=None):
    """Standard normal samples of shape ``size``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.randn(2, 3)
    """
    _no_generator("randn", generator)
    return ops.randn(*_size(size), dtype=dtype)


def rand_like(input, *, dtype=None, device=None):
    """Uniform samples in [0, 1) shaped like ``input``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.rand_like(ms.Tensor([1.0, 2.0]))
    """
    return ops.rand_like(input, dtype=dtype)


def randn_like(input, *, dtype=None, device=None):
    """Standard normal samples shaped like ``input``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.randn_like(ms.Tensor([1.0, 2.0]))
    """
    return ops.randn_like(input, dtype=dtype)


def randint(*args, generator=None, dtype=None, device=None):
    """Integers in [low, high) of shape ``size``: ``randint(high, size)`` or ``randint(low, high, size)``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.randint(0, 5, (2, 3))
    """
    _no_generator("randint", generator)
    if len(args) == 2:
        args = (0,) + args
    if len(args) != 3:
        raise TypeError("mindspore.mint.randint expects (high, size) or (low, high, size), "
                        f"but got {len(args)} positional arguments.")
    low, high, size = args
    return ops.randint(low, high, tuple(size), dtype=dtype or mstype.int64)


def randint_like(*args, dtype=None, device=None):
    """Integers in [low, high) shaped like ``input``: ``randint_like(input, high)`` or
    ``randint_like(input, low, high)``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.randint_like(ms.Tensor([1.0, 2.0]), 5)
    """
    if len(args) == 2:
        args = (args[0], 0, args[1])
    if len(args) != 3:
        raise TypeError("mindspore.mint.randint_like expects (input, high) or (input, low, high), "
                        f"but got {len(args)} positional arguments.")
    input, low, high = args
    # Integers are drawn as Int64, then take the input's dtype (which may be a float type).
    return ops.randint(low, high, tuple(input.shape), dtype=mstype.int64).astype(dtype or input.dtype)


def randperm(n, *, generator=None, dtype=mstype.int64):
    """A random permutation of 0 .. n-1.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.randperm(4)
    """
    _no_generator("randperm", generator)
    return ops.argsort(ops.rand(n)).astype(dtype)


def empty(*size, dtype=None, device=None):
    """A tensor of shape ``size`` (filled with zeros: XLA has no uninitialised memory).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.empty(2, 3)
    """
    return ops.zeros(_size(size), dtype or mstype.float32)


def empty_like(input, *, dtype=None, device=None):
    """A tensor shaped like ``input`` (zeros).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.empty_like(ms.Tensor([1.0, 2.0]))
    """
    return ops.zeros(tuple(input.shape), dtype or input.dtype)

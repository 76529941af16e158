"""``mindspore.mint`` samplers that are not one spelling of an op-table entry: ``randint``/``randint_like`` read
``(high, ...)`` or ``(low, high, ...)`` by their argument count, ``multinomial`` gives Int64 where the op gives
Int32. The other samplers are the random entries' spellings (``mint.spellings``); ``generator`` must be None."""
from sporax import ops
from sporax.core import dtype as mstype

__all__ = ["multinomial", "randint", "randint_like"]


def _no_generator(name, generator):
    if generator is not None:
        raise NotImplementedError(f"mindspore.mint.{name}: a 'generator' other than None is not supported; "
                                  "sporax draws from the global RNG state (mindspore.set_seed).")


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Indices drawn from the categorical distributions in the rows of ``input``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.multinomial(ms.Tensor([0.2, 0.8]), 1)
    """
    _no_generator("multinomial", generator)
    # ops.multinomial gives Int32 (MindSpore's ops.multinomial); mint's gives Int64
    return ops.multinomial(input, num_samples, replacement).astype(mstype.int64)


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


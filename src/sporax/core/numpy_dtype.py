"""``mindspore.common.np_dtype``: the NumPy scalar type behind ``mindspore.bfloat16``.

NumPy has no bfloat16; MindSpore registers its own and libraries import it from here to build
host arrays that a ``Tensor`` takes as BFloat16 (and that ``Tensor.asnumpy()`` gives back).
sporax's BFloat16 tensors already use ``ml_dtypes.bfloat16`` (JAX's NumPy type), so this module
names that same type: an array built with it round-trips through ``Tensor`` unchanged.

Example:
    >>> import numpy as np
    >>> from sporax.core.numpy_dtype import bfloat16
    >>> np.array([1.5, 2.7], dtype=bfloat16).astype(np.float32).tolist()
    [1.5, 2.703125]
"""
import ml_dtypes

bfloat16 = ml_dtypes.bfloat16


def np_dtype_valid(check):
    """Whether the custom NumPy types (``bfloat16``) are usable; always True here.

    MindSpore registers them at import and reports their state; sporax takes them from
    ``ml_dtypes``, which JAX itself needs, so they are always present.

    Args:
        check (bool): accepted for MindSpore's signature (``None`` and ints count as bools).

    Returns:
        bool, True.

    Example:
        >>> from sporax.core.numpy_dtype import np_dtype_valid
        >>> np_dtype_valid(True)
        True
    """
    if check is not None and not isinstance(check, (bool, int)):
        raise TypeError(f"np_dtype_valid(): `check` must be a bool, got {type(check).__name__} {check!r}.")
    return True

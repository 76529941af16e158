"""``run_check``: check that sporax computes correctly on this machine's JAX device.

Like MindSpore's, it prints the version, multiplies two small Tensors on the default device and
compares the product with NumPy's, then reports the platform (or what went wrong).
"""
import jax
import numpy as np

import sporax
from sporax.core.tensor import Tensor


def run_check():
    """Print the version and whether a multiplication on the default device gives the right result.

    Example:
        >>> import sporax as ms
        >>> ms.run_check()  # doctest: +SKIP
        sporax version:  0.1.0
        The result of multiplication calculation is correct, sporax has been installed on platform [CPU] successfully!
    """
    print("sporax version: ", getattr(sporax, "__version__", "unknown"))
    platform = jax.default_backend().upper()
    left = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    right = np.array([[2.0, 0.5], [1.0, -1.0]], np.float32)
    try:
        product = (Tensor(left) * Tensor(right)).asnumpy()
    except Exception as error:  # report any failure, as MindSpore's check does
        print(f"sporax running check failed on platform [{platform}]: {type(error).__name__}: {error}")
        return
    if np.allclose(product, left * right):
        print("The result of multiplication calculation is correct, sporax has been installed on platform "
              f"[{platform}] successfully!")
    else:
        print(f"The result of multiplication calculation is not correct on platform [{platform}]: got {product}, "
              f"expected {left * right}.")

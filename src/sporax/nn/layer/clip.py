"""``nn.ClipByNorm``: rescale a tensor so that its L2 norm (over ``axis``) is at most ``clip_norm``."""
import jax.numpy as jnp

from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.ops._dispatch import array_of, wrap


class ClipByNorm(Cell):
    """``x * clip_norm / max(||x||_2, clip_norm)``, the norm taken over ``axis`` (all axes by default).

    Args:
        axis (Union[None, int, tuple(int)]): axes of the norm. Default: None (all).

    Inputs:
        - **x** (Tensor) -- float16 or float32.
        - **clip_norm** (Union[float, Tensor]) -- the largest norm kept, > 0 (a scalar or broadcastable).

    Outputs:
        Tensor of ``x``'s shape, float32 (as MindSpore computes it).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, nn
        >>> nn.ClipByNorm()(Tensor(np.array([3.0, 4.0], np.float32)), 1.0).asnumpy()
        array([0.6, 0.8], dtype=float32)
    """

    def __init__(self, axis=None):
        super().__init__()
        if axis is not None and not isinstance(axis, (int, tuple, list)):
            raise TypeError(f"For 'ClipByNorm', axis must be None, an int or a tuple of ints, got {axis!r}.")
        self.axis = tuple(axis) if isinstance(axis, list) else axis

    def construct(self, x, clip_norm):
        values = array_of("ClipByNorm", "x", x)
        if not jnp.issubdtype(values.dtype, jnp.floating):
            raise TypeError(f"For 'ClipByNorm', x must be float16 or float32, got {values.dtype}.")
        values = values.astype(jnp.float32)
        limit = clip_norm._value if isinstance(clip_norm, Tensor) else jnp.asarray(clip_norm)
        limit = limit.astype(jnp.float32)
        norm = jnp.sqrt(jnp.sum(jnp.square(values), axis=self.axis, keepdims=True))
        return wrap(values * limit / jnp.maximum(norm, limit))

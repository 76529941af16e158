"""``mindspore.scipy``: SciPy-style linear algebra (``sporax.scipy.linalg``) and cosine transforms
(``sporax.scipy.fft``) on Tensors."""
from sporax.scipy import fft, linalg

__all__ = ["fft", "linalg"]

"""``mindspore.scipy``: SciPy-style linear algebra (``sporax.scipy.linalg``) and cosine transforms
(``sporax.scipy.fft``) on Tensors, and optimisation (``sporax.scipy.optimize``)."""
from sporax.scipy import fft, linalg, optimize

__all__ = ["fft", "linalg", "optimize"]

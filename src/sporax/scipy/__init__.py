"""``mindspore.scipy``: SciPy-style linear algebra on Tensors (``sporax.scipy.linalg``)."""
from sporax.scipy import linalg

__all__ = ["linalg"]

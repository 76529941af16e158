"""sporax: MindSpore's Python programming model on JAX/XLA."""
from sporax.core import dtype
from sporax.core.tensor import Tensor, from_numpy, tensor

__version__ = "0.1.0"

"""Core objects: Tensor, Parameter, dtypes, context, seeds, initializers."""
from sporax.core import process_setup as _process_setup

# Every process-wide setting (XLA flags, malloc, x64, the compile cache): before any array exists.
_process_setup.apply()

from sporax.core import dtype
from sporax.core.tensor import Tensor, from_numpy, tensor, unwrap, wrap
from sporax.core import tensor_print
from sporax.core.random_state import get_seed, set_seed
from sporax.core.parameter import Parameter, ParameterTuple
from sporax.core import initializer
from sporax.core.initializer import (Constant, Dirac, HeNormal, HeUniform, Identity, Initializer, Normal, One,
                                     Orthogonal, Sparse, TruncatedNormal, Uniform, VarianceScaling, XavierNormal,
                                     XavierUniform, Zero)
from sporax.core import context
from sporax.core.context import (COMPATIBLE, GRAPH_MODE, LAX, PYNATIVE_MODE, STRICT, ParallelMode,
                                 get_auto_parallel_context, get_context, get_ps_context, reset_auto_parallel_context,
                                 reset_ps_context, set_auto_parallel_context, set_context, set_device, set_ps_context)
# --- sparse tensors (owner: sparse) ---
from sporax.core.sparse import COOTensor, RowTensor
from sporax.core.sparse_csr import CSRTensor

"""Core objects: Tensor, Parameter, dtypes, context, seeds, initializers."""
from sporax.core import host_memory as _host_memory
from sporax.core import xla_cpu_flags as _xla_cpu_flags

_xla_cpu_flags.configure()  # before anything creates JAX's CPU client
_host_memory.configure()

import jax as _jax  # noqa: E402

# MindSpore has Int64 and Float64 tensors (Tensor([1, 2]) is Int64), so JAX must keep 64-bit
# types; sporax's ops choose every result dtype themselves and never rely on JAX's defaults.
_jax.config.update("jax_enable_x64", True)

from sporax.core import compile_cache as _compile_cache

_compile_cache.configure()

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

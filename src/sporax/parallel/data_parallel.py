"""DATA_PARALLEL helpers: parameter broadcast from rank 0 before training.

``set_auto_parallel_context(parameter_broadcast=True)`` in DATA_PARALLEL makes ``Model.train``
copy rank 0's parameter values to every rank once before the first step (MindSpore does it
when it builds the train graph), so ranks that initialised differently start from the same
weights. Parameters of one dtype travel as one fused buffer.

Example:
    >>> import sporax as ms
    >>> from sporax.parallel import data_parallel
    >>> net = ms.nn.Dense(2, 1)
    >>> data_parallel.broadcast_parameters(net.get_parameters())  # a world of one: unchanged
"""
import jax.numpy as jnp

from sporax.core import context
from sporax.core.tensor import Tensor
from sporax.parallel import collectives, communication


def parameter_broadcast_enabled():
    """Whether the context asks for rank 0's parameters before training (data/hybrid parallel only)."""
    mode = context.get_auto_parallel_context("parallel_mode")
    return mode in (context.ParallelMode.DATA_PARALLEL, context.ParallelMode.HYBRID_PARALLEL) and \
        context.get_auto_parallel_context("parameter_broadcast")


def broadcast_parameters(parameters, root=0, group=communication.HCCL_WORLD_COMM_GROUP):
    """Overwrite every parameter with group rank ``root``'s value."""
    parameters = list(parameters)
    if len(communication.group_ranks(group)) == 1:
        return
    for dtype in dict.fromkeys(parameter._value.dtype for parameter in parameters):
        chosen = [parameter for parameter in parameters if parameter._value.dtype == dtype]
        flat = collectives.broadcast(jnp.concatenate([p._value.reshape(-1) for p in chosen]), root, group)
        offset = 0
        for parameter in chosen:
            size = parameter._value.size
            parameter.set_data(Tensor._wrap(flat[offset:offset + size].reshape(parameter.shape)))
            offset += size

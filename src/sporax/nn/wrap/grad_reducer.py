"""``nn.DistributedGradReducer``: sum or average gradients over the data-parallel processes.

Gradients of one dtype are flattened into one buffer and reduced with a single AllReduce (as
MindSpore fuses them), then split back; with ``mean`` the sum is divided by ``degree``. On a
world of one process the gradients come back unchanged.

Example:
    >>> import sporax as ms
    >>> net = ms.nn.Dense(2, 1)
    >>> reducer = ms.nn.DistributedGradReducer(net.trainable_params())
    >>> grads = tuple(ms.ops.ones_like(p) for p in net.trainable_params())
    >>> [g.shape for g in reducer(grads)]
    [(1, 2), (1,)]
"""
import jax.numpy as jnp

from sporax.nn.cell import Cell
from sporax.ops._dispatch import array_of, wrap


class DistributedGradReducer(Cell):
    """Reduce gradients over the processes of ``group`` (data parallel training).

    Args:
        parameters (list[Parameter]): the parameters whose gradients are reduced.
        mean (bool): average instead of sum. Default: None, the auto parallel context's
            ``gradients_mean``.
        degree (int): the divisor of the mean. Default: None, the size of ``group``.
        fusion_type (int): MindSpore's AllReduce fusion id (accepted; sporax always fuses).
        group (str): the communication group. Default: the world.

    Inputs:
        - **grads** (tuple[Tensor]): one gradient per parameter.

    Outputs:
        tuple[Tensor]: the reduced gradients.
    """

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1, group="hccl_world_group"):
        super().__init__(auto_prefix=False)
        from sporax.parallel import communication, context_view

        if mean is None:
            mean = context_view._get_gradients_mean()
        if not isinstance(mean, bool):
            raise TypeError(f"For 'DistributedGradReducer', the argument 'mean' must be bool, but got {type(mean)}.")
        if degree is None:
            degree = communication.get_group_size(group)
        if isinstance(degree, bool) or not isinstance(degree, int) or degree <= 0:
            raise ValueError("For 'DistributedGradReducer', the argument 'degree' must be a positive int, "
                             f"but got {degree!r}.")
        self.mean = mean
        self.degree = degree
        self.group = group
        self.fusion_type = fusion_type
        self.parameter_count = len(list(parameters))

    def construct(self, grads):
        from sporax.parallel import collectives

        arrays = [array_of("DistributedGradReducer", "grads", grad) for grad in grads]
        reduced = list(arrays)
        for dtype in dict.fromkeys(array.dtype for array in arrays):
            positions = [i for i, array in enumerate(arrays) if array.dtype == dtype]
            flat = jnp.concatenate([arrays[i].reshape(-1) for i in positions])
            flat = collectives.all_reduce(flat, "sum", self.group)
            if self.mean:
                flat = flat / jnp.asarray(self.degree, flat.dtype)
            offset = 0
            for i in positions:
                size = arrays[i].size
                reduced[i] = flat[offset:offset + size].reshape(arrays[i].shape)
                offset += size
        return tuple(wrap(array) for array in reduced)


__all__ = ["DistributedGradReducer"]

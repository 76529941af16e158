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

from sporax.core.parameter import Parameter
from sporax.nn.cell import Cell
from sporax.ops import functional
from sporax.ops._dispatch import array_of, wrap
from sporax.parallel import collectives, communication, context_view


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


class PipelineGradReducer(Cell):
    """The gradient step of pipeline parallelism: scale the accumulated micro-batch gradients, then reset them.

    The reducer owns ``accu_grads``, zero-initialised clones of ``parameters`` named
    ``accu_grads.<name>``. Without optimizer sharding it returns ``accu_grads / scale_sense`` (the
    incoming ``grads`` only order the computation) and zeroes ``accu_grads``; with ``opt_shard`` it
    returns ``grads / scale_sense`` and zeroes ``accu_grads``. MindSpore's pipeline compiler, when
    ``pipeline_stages > 1``, accumulates the micro-batch gradients of ``PipelineCell`` into
    ``accu_grads``; sporax has no such pass (``PipelineCell`` returns the sum over micro-batches,
    so its gradients are the accumulated ones): with ``pipeline_stages > 1`` it returns
    ``grads / scale_sense``; otherwise, as in MindSpore's stand-alone run, ``accu_grads`` hold what
    was written into them, zeros otherwise.

    Args:
        parameters (ParameterTuple): the parameters to be updated (e.g. ``optimizer.parameters``).
        scale_sense (Union[float, int, Tensor]): the divisor of the gradients (the loss scale).
            Default: ``1.0``.
        opt_shard (bool): whether the optimizer is sharded. Default: ``None``, the auto parallel
            context's ``enable_parallel_optimizer``.

    Inputs:
        - **grads** (tuple[Tensor]) - one gradient per parameter.

    Outputs:
        tuple[Tensor]: the scaled gradients.

    Example:
        >>> import numpy as np
        >>> import sporax as ms
        >>> net = ms.nn.Dense(2, 1)
        >>> reducer = ms.nn.PipelineGradReducer(ms.ParameterTuple(net.trainable_params()), 2.0, opt_shard=True)
        >>> grads = tuple(ms.ops.ones_like(p) for p in net.trainable_params())
        >>> reducer(grads)[1].asnumpy().tolist()
        [0.5]
    """

    def __init__(self, parameters, scale_sense=1.0, opt_shard=None):
        super().__init__(auto_prefix=False)

        self.accu_grads = parameters.clone(prefix="accu_grads", init="zeros")
        self.degree = 1.0  # MindSpore's Tensor(1): the pipeline's gradients are not averaged over stages
        self.scale_sense = Parameter(scale_sense, name="scale_sense")
        self.opt_shard = context_view._get_enable_parallel_optimizer() if opt_shard is None else opt_shard

    def construct(self, grads):
        scale = self.scale_sense * self.degree
        scaled = []
        # With pipeline stages, PipelineCell's gradients are the accumulated ones (MindSpore's
        # compiler writes them into accu_grads; sporax hands them over as they are).
        accumulated_already = self.opt_shard or context_view._get_pipeline_stages() > 1
        for grad, accumulated in zip(grads, self.accu_grads):
            if accumulated_already:
                scaled.append(grad / scale)
                functional.assign(accumulated, functional.zeros_like(accumulated))
            else:
                scaled.append(accumulated / scale)
                functional.assign(accumulated, accumulated * 0.0)
        return tuple(scaled)


__all__ = ["DistributedGradReducer", "PipelineGradReducer"]

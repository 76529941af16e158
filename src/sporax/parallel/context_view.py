"""The parallel context as MindSpore's private helpers read it (``mindspore.parallel._utils`` and
``mindspore.parallel._auto_parallel_context``), on top of ``sporax.core.context``.

Model-zoo code imports these private names; they answer from the one auto parallel context that
``set_auto_parallel_context`` writes and from the communication state, so the device number and
rank follow MindSpore's rule: in STAND_ALONE mode 1 and 0, otherwise the value the user set, or
the size/rank of the communication world when it was not set.

Example:
    >>> from sporax.parallel import context_view
    >>> context_view._get_device_num(), context_view._get_parallel_mode()
    (1, 'stand_alone')
"""
from sporax.core import context
from sporax.parallel import communication


def _get_parallel_mode():
    """The auto parallel context's ``parallel_mode``."""
    return context.get_auto_parallel_context("parallel_mode")


def _get_gradients_mean():
    """Whether gradients are averaged (not summed) over the devices in data parallel."""
    return context.get_auto_parallel_context("gradients_mean")


def _get_device_num():
    """The number of devices taking part: 1 stand-alone, else the set ``device_num`` or the world size."""
    if _get_parallel_mode() == context.ParallelMode.STAND_ALONE:
        return 1
    if context.auto_parallel_key_is_set("device_num"):
        return context.get_auto_parallel_context("device_num")
    return communication.get_group_size()


def _get_global_rank():
    """This device's rank: 0 stand-alone, else the set ``global_rank`` or the world rank."""
    if _get_parallel_mode() == context.ParallelMode.STAND_ALONE:
        return 0
    if context.auto_parallel_key_is_set("global_rank"):
        return context.get_auto_parallel_context("global_rank")
    return communication.get_rank()


def _get_parameter_broadcast():
    """Whether parameters are broadcast from rank 0 before training (data parallel only)."""
    return context.get_auto_parallel_context("parameter_broadcast")


def _get_full_batch():
    """Whether every device reads the full batch (semi/auto parallel)."""
    return context.get_auto_parallel_context("full_batch")


def _get_pipeline_stages():
    """The number of pipeline stages."""
    return context.get_auto_parallel_context("pipeline_stages")


def _get_enable_parallel_optimizer():
    """Whether the optimizer's state is sharded over the devices."""
    return context.get_auto_parallel_context("enable_parallel_optimizer")


def _is_in_auto_parallel_mode():
    """Whether the mode is SEMI_AUTO_PARALLEL or AUTO_PARALLEL."""
    return _get_parallel_mode() in (context.ParallelMode.SEMI_AUTO_PARALLEL, context.ParallelMode.AUTO_PARALLEL)


def _is_sharding_propagation():
    """Whether the strategy search is sharding propagation (the ``search_mode`` or the legacy flag)."""
    return (context.get_auto_parallel_context("search_mode") == "sharding_propagation"
            or bool(context.get_auto_parallel_context("sharding_propagation")))


class _AutoParallelContext:
    """The object ``auto_parallel_context()`` returns: getters and setters over the auto parallel context."""

    def get_parallel_mode(self):
        return _get_parallel_mode()

    def get_device_num(self):
        return context.get_auto_parallel_context("device_num")

    def get_global_rank(self):
        return context.get_auto_parallel_context("global_rank")

    def get_gradients_mean(self):
        return _get_gradients_mean()

    def get_full_batch(self):
        return _get_full_batch()

    def get_parameter_broadcast(self):
        return _get_parameter_broadcast()

    def get_pipeline_stages(self):
        return _get_pipeline_stages()

    def get_enable_parallel_optimizer(self):
        return _get_enable_parallel_optimizer()

    def get_strategy_search_mode(self):
        return context.get_auto_parallel_context("search_mode")

    def get_dataset_strategy(self):
        return context.get_auto_parallel_context("dataset_strategy")

    def get_grad_accumulation_step(self):
        return context.get_auto_parallel_context("grad_accumulation_step")

    def get_device_num_is_set(self):
        return context.auto_parallel_key_is_set("device_num")

    def get_global_rank_is_set(self):
        return context.auto_parallel_key_is_set("global_rank")

    def get_parameter_broadcast_is_set(self):
        return context.auto_parallel_key_is_set("parameter_broadcast")

    def get_full_batch_is_set(self):
        return context.auto_parallel_key_is_set("full_batch")

    def set_parallel_mode(self, parallel_mode):
        context.set_auto_parallel_context(parallel_mode=parallel_mode)

    def set_device_num(self, device_num):
        context.set_auto_parallel_context(device_num=device_num)

    def set_global_rank(self, global_rank):
        context.set_auto_parallel_context(global_rank=global_rank)

    def set_gradients_mean(self, gradients_mean):
        context.set_auto_parallel_context(gradients_mean=gradients_mean)

    def set_full_batch(self, full_batch):
        context.set_auto_parallel_context(full_batch=full_batch)

    def reset(self):
        context.reset_auto_parallel_context()


_THE_CONTEXT = _AutoParallelContext()


def auto_parallel_context():
    """The auto parallel context object (``mindspore.parallel._auto_parallel_context.auto_parallel_context``)."""
    return _THE_CONTEXT


__all__ = ["_get_parallel_mode", "_get_gradients_mean", "_get_device_num", "_get_global_rank",
           "_get_parameter_broadcast", "_get_full_batch", "_get_pipeline_stages", "_get_enable_parallel_optimizer",
           "_is_in_auto_parallel_mode", "_is_sharding_propagation", "auto_parallel_context"]


def get_squared_device_local_norm_param():
    """The Parameter MindSpore accumulates this device's squared gradient norm in, with
    ``set_auto_parallel_context(dump_device_local_norm=True)`` (``ops._grad_experimental.grad_comm_ops``)."""
    if not context.get_auto_parallel_context("dump_device_local_norm"):
        raise ValueError("The parallel config 'dump_device_local_norm' is False.")
    raise NotImplementedError("get_squared_device_local_norm_param: sporax does not accumulate the squared "
                              "device-local gradient norm; compute it from the gradients (ops.norm) instead.")

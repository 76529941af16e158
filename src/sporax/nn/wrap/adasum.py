"""``nn.AdaSumByGradWrapCell`` and ``nn.AdaSumByDeltaWeightWrapCell``: MindSpore's AdaSum optimizer wrappers.

AdaSum (Maleki et al., 2020) combines the updates of data-parallel groups pairwise,
``(1 - g1.g2 / (2 |g1|^2)) g1 + (1 - g1.g2 / (2 |g2|^2)) g2``, in a hierarchy MindSpore builds from
point-to-point exchanges between groups of 8 devices in (semi-)auto-parallel jobs of at least 16 devices.
sporax checks the job as MindSpore does (a single-device or otherwise unsupported job raises the same
RuntimeError); the hierarchical exchange itself is not implemented, so a job that passes the checks
raises NotImplementedError naming what to use instead.
"""
from sporax.core import context
from sporax.nn.cell import Cell
from sporax.nn.optim.optimizer import Optimizer


def _check_job(name, optimizer):
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"For '{name}', the 'optimizer' must be an nn.Optimizer, but got {type(optimizer).__name__}.")
    mode = context.get_auto_parallel_context("parallel_mode")
    if mode == "stand_alone":
        raise RuntimeError("Stand alone mode is not supported to apply adasum.")
    if context.get_auto_parallel_context("enable_parallel_optimizer"):
        raise RuntimeError("Currently, the optimizer shard is not supported with applying adasum.")
    if context.get_auto_parallel_context("pipeline_stages") > 1:
        raise RuntimeError("Currently, the pipeline parallel is not supported with applying adasum.")
    devices = context.get_auto_parallel_context("device_num")
    if devices < 16 or devices & (devices - 1):
        raise RuntimeError("The device_num must be at least 16 and must be the power of 2 when applying adasum.")
    raise NotImplementedError(f"{name}: sporax does not implement AdaSum's hierarchical point-to-point exchange "
                              "between groups of 8 devices. Use the optimizer unwrapped: data-parallel training "
                              "then applies the mean of the devices' gradients (nn.DistributedGradReducer).")


class _AdaSumWrapCell(Cell):
    def __init__(self, optimizer):
        super().__init__(auto_prefix=False)
        _check_job(type(self).__name__, optimizer)


class AdaSumByGradWrapCell(_AdaSumWrapCell):
    """Apply AdaSum to the gradients before ``optimizer`` (MindSpore: semi-auto/auto parallel, >= 16 devices).

    Args:
        optimizer (nn.Optimizer): the optimizer to wrap.

    Inputs:
        - **grads** (tuple[Tensor]) - the gradients of the optimizer's parameters.

    Raises:
        RuntimeError: in a stand-alone job, with the parallel optimizer or pipeline stages, or with fewer than
            16 (or a non power of 2) devices, as MindSpore.
        NotImplementedError: otherwise (see the module docstring).
    """


class AdaSumByDeltaWeightWrapCell(_AdaSumWrapCell):
    """Apply AdaSum to the weight deltas ``optimizer`` produced; see ``AdaSumByGradWrapCell`` (same arguments,
    inputs and errors)."""

"""``mint.nn.SyncBatchNorm``: PyTorch-style batch normalisation whose statistics span a process group.

In one process (no communication world, or a group of one) the statistics of the local batch are
the group's statistics, so the layer is exactly batch normalisation over (N, C, *) inputs. sporax
does not synchronise statistics across processes: training it in a multi-process group raises
NotImplementedError rather than silently using per-process statistics.
"""
from sporax.mint.nn.layers.norm import _BatchNorm
from sporax.parallel import communication


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation of an (N, C, *) input with statistics shared by ``process_group``.

    Args:
        process_group (str): the communication group; None for the world. Default: None.
        The others as ``BatchNorm1d``.

    Inputs:
        - **input** (Tensor): (N, C) up to (N, C, D, H, W).

    Outputs:
        Tensor of the input's shape.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.SyncBatchNorm(2)(ms.Tensor(np.ones((4, 2, 3), np.float32)))
    """

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 process_group=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)
        if process_group is not None and not isinstance(process_group, str):
            raise TypeError(f"For 'SyncBatchNorm', 'process_group' must be a group name (str) or None, but got "
                            f"{type(process_group).__name__}.")
        self.process_group = process_group

    def _group_size(self):
        if not communication.GlobalComm.INITED:
            return 1
        if self.process_group is None:
            return communication._World.size
        return communication.get_group_size(self.process_group)

    def construct(self, input):
        if (self.training or not self.track_running_stats) and self._group_size() > 1:
            raise NotImplementedError("SyncBatchNorm: synchronising batch statistics across several processes is "
                                      "not supported by sporax; use mint.nn.BatchNorm2d (per-process statistics).")
        return super().construct(input)

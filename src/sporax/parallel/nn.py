"""``mindspore.parallel.nn``: the pipeline and micro-batch wrappers of MindSpore's parallel tutorials.

Contract:
    * ``PipelineCell``, ``MicroBatchInterleaved`` and ``PipelineGradReducer`` are sporax's
      ``nn`` classes (one implementation; ``sporax.parallel.pipeline_stages`` runs the stages).
    * ``Pipeline(network, micro_size, stage_config, segment_config)`` is a ``PipelineCell`` that
      checks its arguments as MindSpore's (``micro_size`` a positive int, ``network`` a Cell).
    * ``GradAccumulation(network, micro_size)`` is ``nn.GradAccumulationCell``.

Example:
    >>> from sporax import nn
    >>> from sporax.parallel.nn import Pipeline
    >>> net = nn.SequentialCell(nn.Dense(4, 4), nn.Dense(4, 2))
    >>> Pipeline(net, 2, stage_config={"0": 0, "1": 1}).micro_size
    2
"""
from sporax.nn.cell import Cell
from sporax.nn.wrap.grad_reducer import PipelineGradReducer
from sporax.nn.wrap.micro_batch import GradAccumulationCell, MicroBatchInterleaved, PipelineCell


class Pipeline(PipelineCell):
    """Split the batch into ``micro_size`` micro-batches and assign sub-Cells to pipeline stages.

    Args:
        network (Cell): the network to wrap (usually a ``WithLossCell``).
        micro_size (int): the number of micro-batches (at least the number of stages).
        stage_config (dict): ``{sub-Cell name: stage}``. Default: ``None``.
        segment_config (dict): ``{sub-Cell name: segment}``. Default: ``None``.

    Inputs:
        The network's inputs; their first dimension is split into ``micro_size`` slices.

    Outputs:
        The sum of the micro-batch outputs (the last stage's; zeros on the others across processes).

    Raises:
        TypeError: ``network`` is not a Cell, or ``micro_size`` is not an int.
        ValueError: ``micro_size`` is not positive.
        KeyError: a name of ``stage_config`` is not a sub-Cell of ``network``.
    """

    def __init__(self, network, micro_size, stage_config=None, segment_config=None):
        if not isinstance(network, Cell):
            raise TypeError(f"For 'Pipeline', the argument 'network' must be a Cell, but got "
                            f"{type(network).__name__}.")
        if isinstance(micro_size, bool) or not isinstance(micro_size, int):
            raise TypeError(f"For 'Pipeline', the argument 'micro_size' must be int, but got "
                            f"{type(micro_size).__name__}.")
        if micro_size <= 0:
            raise ValueError(f"For 'Pipeline', the argument 'micro_size' must be larger than 0, but got {micro_size}.")
        super().__init__(network, micro_size, stage_config=stage_config, segment_config=segment_config)


GradAccumulation = GradAccumulationCell

__all__ = ["PipelineCell", "Pipeline", "MicroBatchInterleaved", "GradAccumulation", "PipelineGradReducer"]

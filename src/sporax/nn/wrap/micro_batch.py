"""Micro-batch wrappers: ``GradAccumulationCell``, ``PipelineCell``, ``MicroBatchInterleaved``.

Each splits every input along axis 0 into equal micro-batches, runs the wrapped network on each in
turn and returns the sum of the outputs — MindSpore's definition. Differentiating the sum
accumulates the micro-batch gradients. In one pipeline stage that is the whole behaviour; the
stage/segment settings of ``PipelineCell`` are recorded on the named sub-Cells. With
``pipeline_stages > 1`` in a job of several processes, ``PipelineCell`` runs each stage's Cells on
its own processes (``sporax.parallel.pipeline_stages``).
"""
from sporax import log
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.state import world


def _check(cell, network, name, value):
    if not isinstance(network, Cell):
        raise TypeError(f"For '{cell}', the argument 'network' must cell type, but got the type : {type(network)}.")
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{cell}', the argument '{name}' must be integer, but got the type : {type(value)}.")
    if value <= 0:
        raise ValueError(f"For '{cell}', the argument '{name}' must be large than 0, but got {value}.")
    return value


def _micro_batches(cell, inputs, count):
    for value in inputs:
        if isinstance(value, Tensor) and value.shape[0] % count:
            raise ValueError(f"For '{cell}', the first dimension of every input ({value.shape[0]}) must be "
                             f"divisible by {count}.")
    for index in range(count):
        yield tuple(value[(value.shape[0] // count) * index:(value.shape[0] // count) * (index + 1)]
                    if isinstance(value, Tensor) else value for value in inputs)


class _Accumulate(Cell):
    _count_name = "micro_size"

    def __init__(self, network, count):
        super().__init__(auto_prefix=False)
        self.network = network
        self._count = _check(type(self).__name__, network, self._count_name, count)

    def construct(self, *inputs):
        total = None
        for micro in _micro_batches(type(self).__name__, inputs, self._count):
            output = self.network(*micro)
            total = output if total is None else total + output
        return total


class GradAccumulationCell(_Accumulate):
    """Run ``network`` on ``micro_size`` equal slices of the batch and sum the outputs.

    Args:
        network (Cell): usually a loss network. micro_size (int): > 0, dividing the batch.

    Inputs:
        - **inputs** - the network's inputs, batched on axis 0.

    Outputs:
        The sum of the micro-batch outputs.
    """

    def __init__(self, network, micro_size):
        super().__init__(network, micro_size)
        self.micro_size = micro_size


class PipelineCell(_Accumulate):
    """The micro-batch loop of pipeline parallelism: the sum over ``micro_size`` slices.

    In a job of several processes with ``pipeline_stages > 1``, each process runs the Cells of its
    stage (``Cell.pipeline_stage``) and hands activations to the next stage (gradients back); the
    stages other than the last return zeros.

    Args:
        network (Cell), micro_size (int): as GradAccumulationCell.
        stage_config (dict): ``{sub-Cell name: stage}``, set as those Cells' ``pipeline_stage``. Default: ``None``.
        segment_config (dict): ``{sub-Cell name: segment}``, recorded as ``pipeline_segment``. Default: ``None``.
    """

    def __init__(self, network, micro_size, stage_config=None, segment_config=None):
        super().__init__(network, micro_size)
        self.micro_size = micro_size
        cells = dict(network.cells_and_names())
        for config, attribute in ((stage_config, "pipeline_stage"), (segment_config, "pipeline_segment")):
            for name, value in (config or {}).items():
                if name not in cells:
                    raise KeyError(f"For 'PipelineCell', the network has no sub-Cell named '{name}'.")
                setattr(cells[name], attribute, value)
        runner = world.pipeline()
        if runner is not None:
            runner.prepare(network)

    def construct(self, *inputs):
        runner = world.pipeline()
        if runner is None or not runner.active():
            return super().construct(*inputs)
        runner.prepare(self.network)  # pipeline_stages may have been set after this Cell was made
        return runner.run_micro_batches(self, self.network, _micro_batches(type(self).__name__, inputs, self._count))


class MicroBatchInterleaved(_Accumulate):
    """Split the batch into ``interleave_num`` slices, run ``network`` on each and sum the outputs.

    Args:
        network (Cell). interleave_num (int): > 0, dividing the batch. Default: ``2``.
    """

    _count_name = "interleave_num"

    def __init__(self, network, interleave_num=2):
        super().__init__(network, interleave_num)
        self.interleave_num = interleave_num


class _VirtualDatasetCell(Cell):
    """The wrapper MindSpore's semi/auto-parallel puts around a network to mark where dataset
    inputs enter (``mindspore.nn.wrap.cell_wrapper._VirtualDatasetCell``): the inputs pass
    through unchanged (their batch sharding is the data-parallel mesh's), so it returns
    ``backbone(*inputs)``. ``auto_prefix=False``: Parameter names stay the backbone's.

    Args:
        backbone (Cell): the network to wrap.

    Example:
        >>> import sporax as ms
        >>> from sporax.nn.wrap.micro_batch import _VirtualDatasetCell
        >>> net = _VirtualDatasetCell(ms.nn.Dense(2, 1))
        >>> [p.name for p in net.trainable_params()]
        ['weight', 'bias']
    """

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        if not isinstance(backbone, Cell):
            raise TypeError(f"For '_VirtualDatasetCell', the argument 'backbone' must be a Cell, "
                            f"but got {type(backbone).__name__}.")
        self._backbone = backbone

    def construct(self, *inputs):
        return self._backbone(*inputs)


class VirtualDatasetCellTriple(_VirtualDatasetCell):
    """``_VirtualDatasetCell`` for a network of exactly three inputs (deprecated in MindSpore, which
    warns on construction): returns ``backbone(a, b, c)``.

    Args:
        backbone (Cell): the network to wrap.

    Inputs:
        - **a**, **b**, **c** - the network's three inputs.

    Outputs:
        The network's output.

    Example:
        >>> import sporax as ms
        >>> net = ms.nn.VirtualDatasetCellTriple(ms.nn.Dense(2, 1))
        >>> [p.name for p in net.trainable_params()]
        ['weight', 'bias']
    """

    def __init__(self, backbone):
        log.warning("WARN_DEPRECATED: The usage of VirtualDatasetCellTriple is deprecated.")
        super().__init__(backbone)

    def construct(self, a, b, c):
        return self._backbone(a, b, c)


class _MicroBatch(Cell):
    """The ``i``-th of ``micro_size`` equal slices along axis 0 of each input (MindSpore's private pipeline helper).

    Inputs:
        - **i** (int): which micro-batch.
        - **inputs** (Tensor): the mini-batch inputs; axis 0 must divide by ``micro_size``.

    Outputs:
        tuple of Tensor, the ``i``-th slice of each input.
    """

    def __init__(self, micro_size):
        super().__init__()
        self.micro_size = micro_size

    def construct(self, i, *inputs):
        slices = []
        for value in inputs:
            if not isinstance(value, Tensor):
                raise TypeError(f"For primitive[Shape], the input argument must be Tensor, but got {type(value)}.")
            if value.shape[0] % self.micro_size:
                raise ValueError(f"For micro batch initialization, the 0th dimension shape of input({value.shape[0]}) "
                                 f"must be divided by micro size({self.micro_size})")
            size = value.shape[0] // self.micro_size
            slices.append(value[size * i:size * (i + 1)])
        return tuple(slices)

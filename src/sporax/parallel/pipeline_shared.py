"""``sync_pipeline_shared_parameters``: bring the copies of a parameter shared by pipeline stages into agreement.

Contract (MindSpore 2.10's):
    * ``net`` must be a Cell, else ``TypeError`` (after a critical log line, as MindSpore).
    * With ``pipeline_stages < 2`` in the auto parallel context there is one stage: nothing to do.
    * With more stages, MindSpore sends each parameter that two stages share (an embedding table
      read by the first and the last stage) from the stage that owns it to the other, using the
      layouts of the compiled pipeline. In one process every stage reads the one Parameter object,
      so nothing is sent. With stages on their own processes (``sporax.parallel.pipeline_stages``)
      ``PipelineCell`` refuses a Parameter that Cells of two stages use (``NotImplementedError``),
      so there is nothing to synchronise either.

Example:
    >>> import sporax as ms
    >>> ms.parallel.sync_pipeline_shared_parameters(ms.nn.Dense(2, 2)) is None
    True
"""
from sporax import log


def sync_pipeline_shared_parameters(net):
    """Synchronise the parameters that pipeline stages share, after they changed (see the module contract).

    Args:
        net (Cell): the network (usually the inference network of a pipeline-parallel job).

    Raises:
        TypeError: ``net`` is not a Cell.
    """
    from sporax.nn.cell import Cell

    if not isinstance(net, Cell):
        log.critical("Failed to synchronize pipeline shared parameters.")
        raise TypeError(f"For 'sync_pipeline_shared_parameters', the argument 'net' should be a Cell, "
                        f"but got {type(net)}.")
    # With one stage nothing is shared; in one process every stage reads the one Parameter object;
    # across processes PipelineCell refuses a Parameter of two stages: no copies to bring together.

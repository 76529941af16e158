"""``sync_pipeline_shared_parameters``: bring the copies of a parameter shared by pipeline stages into agreement.

Contract (MindSpore 2.10's):
    * ``net`` must be a Cell, else ``TypeError`` (after a critical log line, as MindSpore).
    * With ``pipeline_stages < 2`` in the auto parallel context there is one stage: nothing to do.
    * With more stages, MindSpore sends each parameter that two stages share (an embedding table
      read by the first and the last stage) from the stage that owns it to the other, using the
      layouts of the compiled pipeline. sporax does not split a network into stage processes:
      every process holds the Parameters of every stage, and a Parameter used by two stages is a
      single object, so every stage already reads the same values and nothing is sent.

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
    # With one stage nothing is shared; with more, every stage of this process reads the one
    # Parameter object, so the copies MindSpore would send to each other are already the same.

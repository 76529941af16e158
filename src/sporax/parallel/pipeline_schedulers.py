"""The pipeline schedulers of MindSpore 2.10 for stages on their own processes (``sporax.parallel.pipeline_stages``).

Contract:
    * ``pipeline_scheduler`` (``set_auto_parallel_context(pipeline_config=...)`` or
      ``AutoParallel.pipeline(scheduler=...)``) is one of MindSpore's ``"1f1b"``, ``"gpipe"``,
      ``"seqpipe"``, ``"seqvpp"``, ``"seqsmartvpp"`` and ``"zero_bubble_v"``. Each orders the same
      work (every micro-batch's forward and backward on every stage, the activations and their
      gradients handed between the stages), so each gives the losses and weights of the one-process
      run; they differ in when each stage does its part, which decides the pipeline bubble and how
      many micro-batches' activations a stage keeps.
    * ``schedule()`` returns the order sporax runs: ``"gpipe"`` for ``"gpipe"`` (every micro-batch's
      forward, then their backwards; with ``pipeline_interleave=True`` a one-time message says that
      ``"1f1b"`` gives the interleaved order), ``"1f1b"`` for every other scheduler: each micro-batch's
      backward runs inside the step, each stage in its 1F1B order, interleaved 1F1B where a stage
      holds several pieces (``pipeline_interleave``, ``pipeline_segment``, the V of
      ``"zero_bubble_v"``): ``sporax.parallel.pipeline_replay``. ``"zero_bubble_v"`` does not split
      each backward into its input and weight gradients (a one-time message says so): its order is
      the interleaved 1F1B over the V's pieces, with 1F1B's bubble.
    * MindSpore's conditions on the network still hold, checked when the stages run:
      ``"seqsmartvpp"`` needs an even number of stages; ``"zero_bubble_v"`` needs the V placement's
      two chunks, i.e. the staged Cells' ``pipeline_segment`` values 0 and 1 (segment 0 runs from
      stage 0 to the last stage, segment 1 back to stage 0). Otherwise ``ValueError`` naming the
      scheduler and the fix.
    * ``"seqpipe"``/``"seqvpp"``/``"seqsmartvpp"`` split each micro-batch along the sequence only
      where the model itself is written in sequence chunks (MindFormers' ``seq_chunk`` cells); for a
      network that is not, a chunk is the whole micro-batch, as in MindSpore.

Example:
    >>> from sporax.parallel import pipeline_schedulers
    >>> pipeline_schedulers.chunk_count(__import__("sporax").nn.Dense(2, 2))
    1
"""
import functools

from sporax import log
from sporax.core import context

@functools.lru_cache(maxsize=None)
def _warn_once(message):
    log.warning(message)


def chunk_count(network):
    """The number of chunks (``pipeline_segment`` values) of ``network``'s Cells: 1 + the largest segment set."""
    segments = [cell.__dict__.get("_pipeline_segment", 0) for _, cell in network.cells_and_names()]
    return 1 + max(segments, default=0)


def check(scheduler, stages, network):
    """MindSpore's conditions for ``scheduler`` on ``stages`` pipeline stages of ``network`` (see the module)."""
    if scheduler == "seqsmartvpp" and stages % 2:
        raise ValueError(f"For 'PipelineCell', pipeline_scheduler='seqsmartvpp' needs an even number of pipeline "
                         f"stages (it pairs them), but pipeline_stages={stages}: use an even pipeline_stages or "
                         f"the 'seqvpp' scheduler.")
    if scheduler == "zero_bubble_v":
        chunks = chunk_count(network)
        if chunks != 2:
            raise ValueError(
                f"For 'PipelineCell', pipeline_scheduler='zero_bubble_v' needs the V placement's 2 chunks, but the "
                f"network's Cells have {chunks} (pipeline_segment 0 to {chunks - 1}): set pipeline_segment=0 on "
                f"the Cells of the first chunk (stages 0 to {stages - 1}) and pipeline_segment=1 on those of the "
                f"second (stages {stages - 1} back to 0), e.g. with PipelineCell's segment_config.")


def schedule(network=None):
    """The order sporax runs for the pipeline schedule asked for: ``"gpipe"`` or ``"1f1b"`` (see the module contract).

    Args:
        network (Cell): the staged network, to check the scheduler's conditions on it; None: not checked.
    """
    # pipeline_config and AutoParallel.pipeline both set these keys; the last one set holds.
    scheduler = context.get_auto_parallel_context("pipeline_scheduler")
    interleave = context.get_auto_parallel_context("pipeline_interleave")
    if network is not None:
        check(scheduler, context.get_auto_parallel_context("pipeline_stages"), network)
    if scheduler == "gpipe":
        if interleave:
            _warn_once("For 'PipelineCell' across processes, pipeline_interleave=True with pipeline_scheduler='gpipe' "
                       "runs each Cell on the processes of its pipeline_stage in GPipe's order (every micro-batch's "
                       "forward, then their backwards); set pipeline_scheduler='1f1b' for the interleaved 1F1B order.")
        return "gpipe"
    if scheduler == "zero_bubble_v":
        _warn_once("For 'PipelineCell' across processes, pipeline_scheduler='zero_bubble_v' runs the V placement's "
                   "chunks in the interleaved 1F1B order without splitting each backward into its input and weight "
                   "gradients: the same losses and weights, with 1F1B's bubble.")
    return "1f1b"

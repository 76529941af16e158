"""Pipeline stages on their own processes: ``pipeline_stages > 1`` with ``nn.PipelineCell`` in a job.

Contract:
    * Active when ``set_auto_parallel_context(pipeline_stages=N)`` (or ``AutoParallel.pipeline``)
      is set with N > 1 in a job of several processes (``init()`` done) whose size is N times the
      stage's device number: as in MindSpore, ``stage_device_num = device_num / pipeline_stages``
      and world rank r belongs to stage ``r // stage_device_num``; its place in the stage (its
      data-parallel index) is ``r % stage_device_num``.
    * Several processes per stage (``stage_device_num > 1``) are data parallel inside the stage: each
      process feeds its own slice of the global batch (MindSpore's ``full_batch=False``), hands its
      activations to the process of the next stage with the same data-parallel index, and the
      gradients of every weight are averaged over the processes of its stage (the stage group), so
      that each stage's weights follow the one-process run on the global batch (whose loss is the
      mean of the stage's per-process losses).
    * A sub-Cell's stage is its ``pipeline_stage`` (set directly or by ``PipelineCell``'s
      ``stage_config``); a Cell without one belongs to the stage of the Cell around it. Each
      process runs only the Cells of its own stage; another stage's Cell gives zeros of its output's
      shape there (inside a compiled program XLA removes that Cell's work as dead code).
    * Where a stage's Cell takes a Tensor that another stage produced, the producing process hands it
      over with a point-to-point message (a collective-permute in the compiled program across
      processes); in the backward pass its gradient travels back the same way, so each stage's
      weights get the gradients of the one-process run. Which stage produced a Tensor: the stage of
      the Cell that returned it; a Tensor made by code between the staged Cells (an activation
      function in ``construct``, the loss function) belongs to the stage that ran last; the
      network's inputs (each micro-batch) are on every process.
    * ``PipelineCell`` returns the sum of the micro-batch outputs on the processes of the stage that
      computes the output (the last one); the other stages return zeros of that shape.
    * The schedule (``sporax.parallel.pipeline_schedulers``): ``"gpipe"`` runs every micro-batch's
      forward, then their backwards (the step's automatic differentiation does the backwards);
      ``"1f1b"`` and MindSpore's other schedulers run each micro-batch's backward inside the step, in
      each stage's 1F1B order (interleaved 1F1B where a stage holds several pieces, e.g. with
      ``pipeline_segment``), so that a stage keeps at most its warm-up's micro-batches' activations
      (``sporax.parallel.pipeline_replay``, ``pipeline_order``). The same losses and weights either
      way. With interleaved stages each Cell runs on the processes of its ``pipeline_stage``; a stage
      may hold several segments and the activations go back and forth between them.
    * Every process must run the same Python (MindSpore's single-program rule) so that the
      hand-overs pair up. GRAPH mode (one program per step across the processes) and PyNative.
    * A process's copies of the other stages' Parameters get zero gradients (an optimizer without
      weight decay leaves them as they were): each stage's weights are those of its processes. A
      Parameter used by Cells of two stages is refused (``NotImplementedError``).

Algorithm (GPipe's order; the others: ``pipeline_replay``): ``PipelineCell`` puts a forward pre-hook and a
forward hook on its sub-Cells once; they do nothing outside a pipeline run. During a run (``Run``), the pre-hook of a staged Cell brings its
Tensor arguments to the Cell's stage (``point_to_point.hand_over``) and the forward hook records
the stage of its outputs, or replaces them with zeros on another stage's process. A sender keeps
``stop_gradient`` of what it sent: its only gradient is the one the receiver sends back. Each
hand-over is ordered after the previous one by data (every process runs the collective-permutes in
one order); the hand-overs of a stage's data-parallel processes run as one collective-permute; a receiver passes a zero made from one of its stage's weights (``anchor``) and every
process adds its hand-overs' markers times zero to the output, so that automatic differentiation
runs every hand-over's backward on every process. With several processes per stage, the run
wraps every trainable weight (of every stage, so that every process's program holds the same
collectives) in one identity whose backward averages the gradients over the stage group: a ring of
``stage_device_num - 1`` collective-permutes inside the stage of the gradients as one flat vector, once per step.

Example:
    >>> from sporax.parallel import pipeline_stages
    >>> pipeline_stages.layout() is None  # one process: every stage runs here
    True
"""
import collections
import contextlib
import functools
import sys
import threading

import jax
import jax.numpy as jnp

from sporax import log
from sporax.core import context
from sporax.core.tensor import Tensor
from sporax.parallel import collectives, communication, point_to_point
from sporax.parallel.pipeline_schedulers import schedule
from sporax.state import world

Layout = collections.namedtuple("Layout", ["stages", "per_stage", "stage", "rank", "replica"])


def layout():
    """This process's place in the pipeline, or None where every stage runs in this process."""
    stages = context.get_auto_parallel_context("pipeline_stages")
    size = world.world_size()
    if stages <= 1 or size == 1:
        return None
    if size % stages:
        raise ValueError(f"For 'PipelineCell', the job's {size} processes can not be split into pipeline_stages="
                         f"{stages} stages of equal size: set pipeline_stages to a divisor of the device number.")
    per_stage = size // stages
    rank = communication._World.rank
    return Layout(stages, per_stage, rank // per_stage, rank, rank % per_stage)


def stages_of(network, stages):
    """``{id(cell): stage}`` for the Cells where the stage changes (their sub-Cells inherit it)."""
    found = {}

    def visit(cell, inherited):
        own = cell.__dict__.get("_pipeline_stage")
        if own is not None:
            if own >= stages:
                raise ValueError(f"For 'PipelineCell', the Cell {type(cell).__name__} has pipeline_stage={own}, "
                                 f"but pipeline_stages={stages}: stages are numbered 0 to {stages - 1}.")
            if own != inherited:
                found[id(cell)] = own
            inherited = own
        for child in cell.name_cells().values():
            visit(child, inherited)

    visit(network, None)
    if not found:
        raise ValueError(f"For 'PipelineCell', pipeline_stages={stages} but no sub-Cell of the network has a "
                         f"pipeline_stage: set `cell.pipeline_stage = s` on the layers of each stage (or pass "
                         f"stage_config to PipelineCell).")
    return found


class _Active(threading.local):
    run = None


_active = _Active()


def _tensors(value):
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [tensor for item in value for tensor in _tensors(item)]
    return []


def _zeros_like(value):
    if isinstance(value, Tensor):
        return Tensor._wrap(jnp.zeros(value.shape, value._value.dtype))
    if isinstance(value, (tuple, list)):
        return type(value)(_zeros_like(item) for item in value)
    return value


class Run:
    """One call of a ``PipelineCell`` across processes: who produced which Tensor, the hand-overs made."""

    def __init__(self, place, stage_of, anchor):
        self.place, self.stage_of, self.anchor = place, stage_of, anchor
        self.owner = {}  # id(Tensor) -> (stage, Tensor): the Tensor is kept, so that its id is not reused
        self.inputs = {}
        self.current = None  # the stage that ran last (None: before any staged Cell)
        self.markers = []
        self.count = 0

    def start_micro_batch(self, inputs):
        self.inputs = {id(tensor): tensor for tensor in _tensors(inputs)}
        self.current = None

    def stage_holding(self, tensor):
        known = self.owner.get(id(tensor))
        if known is not None:
            return known[0]
        return None if id(tensor) in self.inputs else self.current

    def bring(self, tensor, stage):
        """``tensor`` as the processes of ``stage`` must see it (handed over from where it was produced)."""
        source = self.stage_holding(tensor)
        if source is None or source == stage:
            return tensor
        place = self.place
        self.count += 1
        # The receiver, and a process of another stage (from 3 stages on), passes its stage's anchor: a plan
        # without a differentiated input gets no backward there, and its reverse plan would not pair up.
        anchor = self.anchor if place.stage != source else None
        if self.markers:
            # After the previous hand-over on every process: two receives of one shape would otherwise
            # be one common subexpression to XLA, and their collective-permutes would merge on the
            # receiver only.
            chain = jnp.asarray(self.markers[-1], jnp.float32).reshape(-1)[:1] * 0
            anchor = chain if anchor is None else anchor + chain
        # Between the processes of the two stages with this process's data-parallel index.
        received, marker = point_to_point.hand_over(
            tensor._value, source * place.per_stage + place.replica, stage * place.per_stage + place.replica,
            ("pipeline", self.count), anchor)
        self.markers.append(marker)
        if place.stage == stage:
            value = Tensor._wrap(received)
        else:
            # The sender's gradient for this value arrives from the receiver (the hand-over's backward).
            value = Tensor._wrap(jax.lax.stop_gradient(tensor._value))
        self.mark(value, stage)
        return value

    def mark(self, output, stage):
        for tensor in _tensors(output):
            self.owner[id(tensor)] = (stage, tensor)

    def enter(self, stage):
        """A Cell of ``stage`` runs now: the code that follows belongs to that stage."""
        self.current = stage

    def tie(self):
        """A zero scalar that depends on every hand-over of this process (see ``hand_over``)."""
        total = jnp.zeros((), jnp.float32)
        for marker in self.markers:
            total = total + jnp.asarray(marker, jnp.float32).sum()
        return total * 0


def _before(cell, args):
    run = _active.run
    if run is None or id(cell) not in run.stage_of:
        return None
    stage = run.stage_of[id(cell)]
    args = tuple(run.bring(arg, stage) if isinstance(arg, Tensor) else arg for arg in args)
    run.enter(stage)
    return args


def _after(cell, args, output):
    run = _active.run
    if run is None or id(cell) not in run.stage_of:
        return None
    stage = run.stage_of[id(cell)]
    if stage != run.place.stage:
        output = _zeros_like(output)
    run.mark(output, stage)
    run.enter(stage)
    return output


def prepare(network):
    """Put the pipeline hooks on ``network``'s sub-Cells (once; they act only during a pipeline run).

    Only when ``pipeline_stages > 1``: a Cell with hooks takes a slower path through ``Cell.__call__``.
    """
    if context.get_auto_parallel_context("pipeline_stages") <= 1:
        return
    for _, cell in network.cells_and_names():
        if not cell.__dict__.get("_sporax_pipeline_hooks"):
            cell.__dict__["_sporax_pipeline_hooks"] = True
            cell.register_forward_pre_hook(_before)
            cell.register_forward_hook(_after)


def weights_by_stage(network, stage_of):
    """``{stage: [trainable Parameters of that stage's Cells]}``; a Parameter of two stages is refused."""
    found, seen = {}, {}

    def visit(cell, inherited):
        inherited = stage_of.get(id(cell), inherited)
        for param in cell.get_parameters(expand=False):
            if not param.requires_grad:
                continue
            other = seen.setdefault(id(param), inherited)
            if other != inherited and None not in (other, inherited):
                raise NotImplementedError(
                    f"For 'PipelineCell', the Parameter '{param.name}' is used by Cells of pipeline stages {other} "
                    f"and {inherited}: sporax does not keep copies of a Parameter shared by two stages in step "
                    f"(MindSpore's sync_pipeline_shared_parameters); give each stage its own Parameter.")
            if other == inherited:
                found.setdefault(inherited, []).append(param)
        for child in cell.name_cells().values():
            visit(child, inherited)

    visit(network, None)
    return found


def _anchor(weights):
    """A zero ``(1,)`` value made from a trainable weight of this stage: see ``point_to_point._ordered_plan``."""
    if not weights:
        return None
    return (weights[0]._value.reshape(-1)[:1] * 0).astype(jnp.float32)


def _ring_sum(value, place):
    """The sum of ``value`` over the processes of this process's stage: ``per_stage - 1`` collective-permutes,
    each shifting every stage's values one place further round the stage (the same ones on every process)."""
    size = place.stages * place.per_stage
    total = value
    for shift in range(1, place.per_stage):
        perm = tuple((first + index, first + (index + shift) % place.per_stage)
                     for first in range(0, size, place.per_stage) for index in range(place.per_stage))
        total = total + collectives._collective("permute", value, tuple(range(size)), perm)
    return total


@functools.lru_cache(maxsize=None)
def _stage_mean(place):
    """The identity on a tuple of weights, whose backward averages their cotangents over the processes of this
    process's stage: one flat vector per dtype, so that the stage's processes exchange it in one ring."""

    @jax.custom_vjp
    def identity(values):
        return values

    def backward(_, cotangents):
        averaged = list(cotangents)
        for dtype in sorted({str(value.dtype) for value in cotangents}):
            chosen = [index for index, value in enumerate(cotangents) if str(value.dtype) == dtype]
            flat = jnp.concatenate([cotangents[index].reshape(-1) for index in chosen])
            mean = (_ring_sum(flat, place) / place.per_stage).astype(flat.dtype)
            start = 0
            for index in chosen:
                size = cotangents[index].size
                averaged[index] = mean[start:start + size].reshape(cotangents[index].shape)
                start += size
        return (tuple(averaged),)

    identity.defvjp(lambda values: (values, None), backward)
    return identity


@contextlib.contextmanager
def _gradients_averaged_in_stage(network, place):
    """While inside, every trainable weight reads as ``_stage_mean(weight)`` (see the module's algorithm);
    yields the wrapped values, which the run must keep on its output's path (times zero) so that every
    process runs every backward."""
    if place.per_stage == 1:
        yield []
        return
    weights = [param for param in network.trainable_params()]
    saved = [param._array for param in weights]
    for param, value in zip(weights, _stage_mean(place)(tuple(param._value for param in weights))):
        param._array = value
    try:
        yield [param._array for param in weights]
    finally:
        for param, array in zip(weights, saved):
            param._array = array


@functools.lru_cache(maxsize=None)
def _warn_gpipe_order(reason):
    log.warning(f"For 'PipelineCell' across processes, {reason}: its pipeline_scheduler's own order cannot run it, "
                f"so it runs in GPipe's order (every micro-batch's forward, then their backwards): the same losses "
                f"and weights, with every micro-batch's activations kept until the backward.")


def run_micro_batches(cell, network, micro_batches):
    """``PipelineCell``'s loop across processes: the sum of the micro-batch outputs (see the module doc)."""
    place = layout()
    order = schedule(network)
    stage_of = stages_of(network, place.stages)
    if order != "gpipe":
        from sporax.parallel import pipeline_replay

        weights_by_stage(network, stage_of)  # refuses a Parameter of two stages
        trained = network.trainable_params()
        values = tuple(param._value for param in trained)
        if place.per_stage > 1:
            values = _stage_mean(place)(values)
        try:
            return pipeline_replay.run(network, micro_batches, place, stage_of, values, trained)
        except pipeline_replay.OrderUnavailable as reason:
            # MindSpore's default scheduler is 1f1b: a network it cannot order still trains, in GPipe's order.
            _warn_gpipe_order(str(reason))
    run = Run(place, stage_of, _anchor(weights_by_stage(network, stage_of).get(place.stage)))
    previous, _active.run = _active.run, run
    total = None
    try:
        with _gradients_averaged_in_stage(network, place) as wrapped:
            for micro in micro_batches:
                run.start_micro_batch(micro)
                output = network(*micro)
                total = output if total is None else total + output
            run.markers.extend(value.reshape(-1)[:1] for value in wrapped)
    finally:
        _active.run = previous
    if not isinstance(total, Tensor):
        raise TypeError(f"For '{type(cell).__name__}' across pipeline stages, the network must return one Tensor "
                        f"(the loss), but got {type(total).__name__}.")
    last = run.stage_holding(total)
    value = total._value if last in (None, place.stage) else jnp.zeros(total.shape, total._value.dtype)
    return Tensor._wrap(value + run.tie().astype(value.dtype))


def active():
    """Whether a ``PipelineCell`` called now runs its stages on their own processes."""
    return layout() is not None


world.set_pipeline(sys.modules[__name__])
